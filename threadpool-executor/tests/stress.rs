//! Stress: 4 threads submit 100 000 tasks in all to a pool that grows,
//! shrinks (a keep-alive of 100 µs) and saturates (a bounded queue), and
//! the test shuts it down (`shutdown` or `shutdown_now`) at a random
//! point, every call through the `Executor` trait. Every task is then
//! accounted for exactly once: it ran once, or it was rejected and handed
//! back, or `shutdown_now` returned it. None lost, none twice, and every
//! thread joined.
//!
//! The point and the kind of shutdown come from a xorshift started from a
//! replay number, which is printed. Run one again with `STRESS_REPLAY=<replay>`.
#![cfg(not(loom))]

mod support;

use std::cell::Cell;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering::SeqCst};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use parking_lot::Mutex;
use threadpool_executor::error::Reason;
use threadpool_executor::executor::Executor;
use threadpool_executor::factory::{Body, JoinHandle};
use threadpool_executor::queue::TaskQueue;
use threadpool_executor::{Task, ThreadPool};

use kit::{ms, threads};

const SUBMITTERS: usize = 4;
const TASKS: usize = 100_000;

thread_local! {
    /// Up while the test runs, on its own thread, what the pool handed back.
    static HANDED_BACK: Cell<bool> = const { Cell::new(false) };
}

/// Per task: its runs on the pool, and its runs by the test after the
/// pool handed it back (rejected, or returned by `shutdown_now`).
struct Fates {
    ran: Vec<AtomicU8>,
    back: Vec<AtomicU8>,
}

/// A task that marks its own number when it runs.
fn probe(id: usize, fates: &Arc<Fates>) -> Task {
    let fates = Arc::clone(fates);
    Box::new(move || {
        let marks = if HANDED_BACK.get() {
            &fates.back
        } else {
            &fates.ran
        };
        marks[id].fetch_add(1, SeqCst);
    })
}

/// xorshift64: enough randomness to pick a point, and repeatable.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn replay() -> u64 {
    match std::env::var("STRESS_REPLAY") {
        Ok(replay) => replay.parse().expect("STRESS_REPLAY is a number"),
        Err(_) => {
            let now = SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .unwrap();
            (now.as_nanos() as u64) | 1
        }
    }
}

#[test]
fn stress_every_task_accounted_for_once() {
    let replay = replay();
    let mut rng = XorShift(replay);
    let shutdown_at = (rng.next() % TASKS as u64) as usize;
    let now = rng.next().is_multiple_of(2);

    let prefix = support::prefix("st");
    let names = Arc::new(Mutex::new(Vec::new()));
    let factory = {
        let (names, prefix, made) = (Arc::clone(&names), prefix.clone(), AtomicUsize::new(0));
        move |body: Body| -> io::Result<JoinHandle> {
            let name = format!("{prefix}{}", made.fetch_add(1, SeqCst) + 1);
            let thread = thread::Builder::new().name(name.clone()).spawn(body)?;
            names.lock().push(name);
            Ok(thread)
        }
    };
    let pool = ThreadPool::builder()
        .core_pool_size(2)
        .maximum_pool_size(4)
        .keep_alive(Duration::from_micros(100))
        .queue(TaskQueue::bounded(512).unwrap())
        .thread_factory(factory)
        .build()
        .unwrap();

    let fates = Arc::new(Fates {
        ran: (0..TASKS).map(|_| AtomicU8::new(0)).collect(),
        back: (0..TASKS).map(|_| AtomicU8::new(0)).collect(),
    });
    let submitted = AtomicUsize::new(0);
    let start = Instant::now();
    let (rejected, returned) = thread::scope(|scope| {
        let submitters: Vec<_> = (0..SUBMITTERS)
            .map(|s| {
                let (pool, fates, submitted) = (&pool, &fates, &submitted);
                scope.spawn(move || {
                    let mut rejected = Vec::new();
                    for id in (s..TASKS).step_by(SUBMITTERS) {
                        if let Err(e) = Executor::execute(pool, probe(id, fates)) {
                            rejected.push((e.reason(), e.into_task()));
                        }
                        submitted.fetch_add(1, SeqCst);
                    }
                    rejected
                })
            })
            .collect();
        while submitted.load(SeqCst) < shutdown_at {
            thread::yield_now();
        }
        let returned: Vec<Task> = if now {
            Executor::shutdown_now(&pool)
        } else {
            Executor::shutdown(&pool);
            Vec::new()
        };
        let rejected: Vec<(Reason, Task)> = submitters
            .into_iter()
            .flat_map(|s| s.join().unwrap())
            .collect();
        (rejected, returned)
    });
    assert!(
        Executor::await_termination(&pool, ms(10_000)),
        "replay {replay}: not terminated"
    );
    assert!(Executor::is_terminated(&pool));
    let elapsed = start.elapsed();

    let saturated = rejected
        .iter()
        .filter(|(r, _)| matches!(r, Reason::Saturated { .. }))
        .count();
    let counts = (rejected.len(), returned.len());
    // Handed back: run here, each task marks its number as handed back.
    HANDED_BACK.set(true);
    for task in rejected.into_iter().map(|(_, task)| task).chain(returned) {
        task();
    }
    HANDED_BACK.set(false);
    let (rejected, returned) = counts;
    let mut ran = 0;
    let mut fate = vec![0u32; TASKS];
    for (id, fate) in fate.iter_mut().enumerate() {
        let n = fates.ran[id].load(SeqCst) as u32;
        assert!(n <= 1, "replay {replay}: task {id} ran {n} times");
        ran += n as usize;
        *fate = n + fates.back[id].load(SeqCst) as u32;
    }
    let lost: Vec<usize> = (0..TASKS).filter(|&id| fate[id] == 0).collect();
    let twice: Vec<usize> = (0..TASKS).filter(|&id| fate[id] > 1).collect();
    println!(
        "stress: replay {replay}, {TASKS} tasks from {SUBMITTERS} threads, {} after {shutdown_at}: \
         {ran} ran, {} rejected ({saturated} saturated, {} shut down), {} returned by shutdown_now; \
         {} threads started; {} ms",
        if now { "shutdown_now" } else { "shutdown" },
        rejected,
        rejected - saturated,
        returned,
        names.lock().len(),
        elapsed.as_millis()
    );
    assert!(
        lost.is_empty(),
        "replay {replay}: {} tasks lost, first {:?}",
        lost.len(),
        &lost[..lost.len().min(10)]
    );
    assert!(
        twice.is_empty(),
        "replay {replay}: {} tasks accounted twice, first {:?}",
        twice.len(),
        &twice[..twice.len().min(10)]
    );
    assert_eq!(ran + rejected + returned, TASKS);
    assert_eq!(pool.completed_task_count(), ran as u64, "replay {replay}");

    drop(pool);
    for name in names.lock().iter() {
        threads::assert_gone(name);
    }
}
