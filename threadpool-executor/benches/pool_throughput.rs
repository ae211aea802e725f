//! How fast a pool hands tasks to its workers: 10^6 no-op tasks submitted
//! from one thread to a pool of 2 workers, timed until the last one has
//! run. One measurement is the whole 10^6; criterion reports tasks per
//! second. Three pools, in the same run:
//!
//! - `threadpool_executor`: ours, `presets::fixed(2)` (an unbounded
//!   [`TaskQueue`](threadpool_executor::queue::TaskQueue): one lock, one
//!   condition variable, a notify only when a worker waits);
//! - `threadpool`: the crates.io `threadpool` crate (std's mpsc channel, its
//!   receiver shared by the workers behind a mutex);
//! - `crossbeam_channel`: the plainest pool there is, written below: an
//!   unbounded crossbeam channel and 2 threads that loop on `recv`. A
//!   hand-off in our pool should cost no more than a send and a receive.
//!
//! The tasks capture nothing, so boxing one allocates nothing in any of
//! the three; each bumps one shared counter, and the task that completes
//! the batch wakes the bench thread.
//!
//! ```text
//! cargo bench -p threadpool-executor --bench pool_throughput
//! ```

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::thread;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parking_lot::{Condvar, Mutex};
use threadpool_executor::factory::NamedThreads;
use threadpool_executor::presets;

const TASKS: u64 = 1_000_000;
const WORKERS: usize = 2;

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

/// Times `iters` batches of `TASKS` calls of `execute_one`, each of which
/// gives the pool one `task` (a function item: zero-sized, so its box
/// allocates nothing).
fn batches(iters: u64, execute_one: impl Fn()) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        *DONE.lock() = false;
        TARGET.store(RAN.load(Relaxed) + TASKS, Relaxed);
        let start = Instant::now();
        for _ in 0..TASKS {
            execute_one();
        }
        let mut done = DONE.lock();
        while !*done {
            DONE_CHANGED.wait(&mut done);
        }
        total += start.elapsed();
    }
    total
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
        self.sender.as_ref().unwrap().send(Box::new(job)).unwrap();
    }
}

impl Drop for ChannelPool {
    fn drop(&mut self) {
        drop(self.sender.take()); // the workers' `recv` ends
        self.workers.drain(..).for_each(|w| w.join().unwrap());
    }
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group(format!("pool_throughput/{WORKERS}_workers"));
    g.throughput(Throughput::Elements(TASKS))
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));

    let ours = presets::fixed(WORKERS)
        .thread_factory(NamedThreads::with_prefix("bench-tpe-"))
        .build()
        .unwrap();
    g.bench_function("threadpool_executor", |b| {
        b.iter_custom(|iters| batches(iters, || ours.execute(task).unwrap()))
    });
    drop(ours);

    let theirs = threadpool::ThreadPool::new(WORKERS);
    g.bench_function("threadpool", |b| {
        b.iter_custom(|iters| batches(iters, || theirs.execute(task)))
    });
    theirs.join();
    drop(theirs);

    let channel = ChannelPool::new(WORKERS);
    g.bench_function("crossbeam_channel", |b| {
        b.iter_custom(|iters| batches(iters, || channel.execute(task)))
    });
    drop(channel);
    g.finish();
}

criterion_group!(pool_throughput, benches);
criterion_main!(pool_throughput);
