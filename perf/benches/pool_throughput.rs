//! `pool_throughput`: how fast a pool hands tasks to its workers. A batch
//! of tiny tasks is submitted from one thread to a pool of 2 workers and
//! timed until the last one has run (10^6 tasks, 10^4 in quick mode).
//! Three pools, alive side by side for the whole run, in interleaved
//! rounds (see `perf::rounds`): each round gives each pool one batch, the
//! order turned by one every round.
//!
//! What each side does per task:
//!
//! - **`ours (stage 6)`**: `presets::fixed(2)`, `execute(task)`: boxes the
//!   task, reads the pool's control word, locks its unbounded
//!   `TaskQueue`, pushes, and notifies only when a worker waits; a worker
//!   locks the queue to take it, takes its own run lock, runs it inside a
//!   panic guard.
//! - **`threadpool`**: the crates.io `threadpool` crate, `execute(task)`:
//!   boxes it, sends it on std's mpsc channel (whose receiver the workers
//!   share behind a mutex), counts it queued; a worker locks, receives,
//!   runs, counts it done.
//! - **`crossbeam-channel pool`**: the plainest pool there is, written
//!   here: boxes the task and sends it on an unbounded crossbeam channel,
//!   from which 2 threads `recv` and run it.
//!
//! Two inputs: the best case, a function item (zero-sized, so its box
//! allocates nothing), and a closure that captures a `u64` (its box
//! allocates, on every side). Each task bumps one shared counter; the one
//! that completes the batch wakes the bench thread.
//!
//! ```text
//! cargo bench -p perf --bench pool_throughput
//! ```

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::thread;
use std::time::Instant;

use parking_lot::{Condvar, Mutex};
use perf::report::Report;
use perf::rounds::{Contest, Sample};
use perf::workload::Input;
use threadpool_executor::factory::NamedThreads;
use threadpool_executor::presets;

const WORKERS: usize = 2;

/// The names the report gives the three pools.
const OURS: &str = "ours (stage 6)";
const THREADPOOL: &str = "threadpool";
const CHANNEL: &str = "crossbeam-channel pool";

/// Tasks run since the bench started, over every pool and batch.
static RAN: AtomicU64 = AtomicU64::new(0);
/// The count at which the current batch is complete.
static TARGET: AtomicU64 = AtomicU64::new(u64::MAX);
static DONE: Mutex<bool> = Mutex::new(false);
static DONE_CHANGED: Condvar = Condvar::new();

/// The task: count, and wake the bench thread if this was the last.
fn task() {
    // ORDERING: the count is read back under `DONE`'s lock, which the last
    // task takes after its increment; nothing else is published.
    if RAN.fetch_add(1, Relaxed) + 1 == TARGET.load(Relaxed) {
        *DONE.lock() = true;
        DONE_CHANGED.notify_one();
    }
}

/// Times one batch of `tasks` calls of `execute`, each given the task's
/// number (a best-case `execute` ignores it).
fn batch(tasks: u64, execute: impl Fn(u64)) -> Sample {
    *DONE.lock() = false;
    TARGET.store(RAN.load(Relaxed) + tasks, Relaxed);
    let start = Instant::now();
    for i in 0..tasks {
        execute(i);
    }
    let mut done = DONE.lock();
    while !*done {
        DONE_CHANGED.wait(&mut done);
    }
    Sample {
        elapsed: start.elapsed(),
        ops: tasks,
    }
}

/// A pool on a crossbeam channel: the baseline.
struct ChannelPool {
    sender: Option<crossbeam_channel::Sender<Box<dyn FnOnce() + Send>>>,
    workers: Vec<thread::JoinHandle<()>>,
}

impl ChannelPool {
    fn new(workers: usize) -> ChannelPool {
        let (sender, receiver) = crossbeam_channel::unbounded::<Box<dyn FnOnce() + Send>>();
        let workers = (0..workers)
            .map(|_| {
                let receiver = receiver.clone();
                thread::spawn(move || receiver.iter().for_each(|job| job()))
            })
            .collect();
        ChannelPool {
            sender: Some(sender),
            workers,
        }
    }

    fn execute(&self, job: impl FnOnce() + Send + 'static) {
        self.sender
            .as_ref()
            .expect("running")
            .send(Box::new(job))
            .expect("the workers are alive");
    }
}

impl Drop for ChannelPool {
    fn drop(&mut self) {
        drop(self.sender.take()); // the workers' `recv` ends
        self.workers
            .drain(..)
            .for_each(|w| w.join().expect("a worker"));
    }
}

fn main() {
    perf::require_shipped_build();
    let tasks = perf::size(1_000_000, 10_000);
    let mut report = Report::new("pool_throughput");
    let ours = presets::fixed(WORKERS)
        .thread_factory(NamedThreads::with_prefix("pt-ours-"))
        .build()
        .expect("a pool");
    let theirs = threadpool::ThreadPool::new(WORKERS);
    let channel = ChannelPool::new(WORKERS);
    for input in Input::BOTH {
        let mut contest = Contest::new(format!("{}, {WORKERS} workers", input.label()));
        let capture = input == Input::Random;
        contest.subject(OURS, || {
            batch(tasks, |i| {
                if capture {
                    ours.execute(move || {
                        std::hint::black_box(i);
                        task();
                    })
                } else {
                    ours.execute(task)
                }
                .expect("a running pool");
            })
        });
        contest.subject(THREADPOOL, || {
            batch(tasks, |i| {
                if capture {
                    theirs.execute(move || {
                        std::hint::black_box(i);
                        task();
                    });
                } else {
                    theirs.execute(task);
                }
            })
        });
        contest.subject(CHANNEL, || {
            batch(tasks, |i| {
                if capture {
                    channel.execute(move || {
                        std::hint::black_box(i);
                        task();
                    });
                } else {
                    channel.execute(task);
                }
            })
        });
        contest.throughput(OURS, CHANNEL);
        contest.throughput(OURS, THREADPOOL);
        contest.run(&mut report);
    }
    drop(ours);
    theirs.join();
    drop(theirs);
    drop(channel);
    report.write();
}
