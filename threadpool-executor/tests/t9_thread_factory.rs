//! T9 `thread_factory`: where the pool's threads come from.
//!
//! The default factory names them `pool-N-thread-M`, as Java's
//! `Executors.defaultThreadFactory()` does. The presets build Java's usual
//! pools: fixed, single, cached. And a factory that fails (as
//! `std::thread::Builder::spawn` does when the system has no thread to
//! give) loses no task: the worker it was asked for is rolled back and its
//! task is queued for a worker that exists, or handed back to the caller.
#![cfg(not(loom))]

mod support;

use std::collections::BTreeSet;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::time::Duration;

use threadpool_executor::ThreadPool;
use threadpool_executor::ctl::CAPACITY;
use threadpool_executor::error::Reason;
use threadpool_executor::factory::{Body, JoinHandle, NamedThreads, ThreadFactory};
use threadpool_executor::presets;
use threadpool_executor::queue::TaskQueue;

use kit::{Recorder, ms};
use support::{Gate, eventually, prefix};

fn names_of(rec: &Recorder) -> BTreeSet<String> {
    rec.events().into_iter().map(|e| e.who).collect()
}

#[test]
fn t9_thread_factory_default_names() {
    let pool = ThreadPool::builder()
        .core_pool_size(2)
        .maximum_pool_size(2)
        .build()
        .unwrap();
    let (gate, rec) = (Gate::new(), Recorder::new());
    for _ in 0..2 {
        let (waiter, r) = (gate.waiter(), rec.clone());
        pool.execute(move || {
            r.record("ran");
            waiter.wait();
        })
        .unwrap();
    }
    rec.wait_until_count("ran", 2, ms(5000)).unwrap();
    gate.open();
    let names: Vec<String> = names_of(&rec).into_iter().collect();
    let pool_number = |name: &str| -> Option<(u64, u64)> {
        let rest = name.strip_prefix("pool-")?;
        let (n, m) = rest.split_once("-thread-")?;
        Some((n.parse().ok()?, m.parse().ok()?))
    };
    let parsed: Vec<_> = names.iter().map(|n| pool_number(n)).collect();
    assert!(parsed.iter().all(Option::is_some), "{names:?}");
    let parsed: Vec<(u64, u64)> = parsed.into_iter().flatten().collect();
    assert_eq!(parsed[0].0, parsed[1].0, "one pool number: {names:?}");
    assert_eq!(
        parsed.iter().map(|p| p.1).collect::<Vec<_>>(),
        [1, 2],
        "{names:?}"
    );
    // The next pool has the next number (or later: tests run in parallel).
    let next = NamedThreads::new();
    let next_number: u64 = next.prefix()["pool-".len()..]
        .trim_end_matches("-thread-")
        .parse()
        .unwrap();
    assert!(next_number > parsed[0].0);
}

#[test]
fn t9_thread_factory_presets() {
    let fixed = presets::fixed(3).build().unwrap();
    assert_eq!((fixed.core_pool_size(), fixed.maximum_pool_size()), (3, 3));
    assert_eq!(fixed.keep_alive(), Duration::ZERO);
    let single = presets::single().build().unwrap();
    assert_eq!(
        (single.core_pool_size(), single.maximum_pool_size()),
        (1, 1)
    );
    let cached = presets::cached().build().unwrap();
    assert_eq!(
        (cached.core_pool_size(), cached.maximum_pool_size()),
        (0, CAPACITY)
    );
    assert_eq!(cached.keep_alive(), Duration::from_secs(60));
}

/// One thread, in order.
#[test]
fn t9_thread_factory_single_runs_in_order() {
    let prefix = prefix("t9-one");
    let pool = presets::single()
        .thread_factory(support::threads(&prefix))
        .build()
        .unwrap();
    let rec = Recorder::new();
    for i in 0..20 {
        let r = rec.clone();
        pool.execute(move || {
            r.record(format!("{i}"));
        })
        .unwrap();
    }
    rec.eventually("19", ms(5000)).unwrap();
    let order: Vec<String> = rec.events().into_iter().map(|e| e.what).collect();
    assert_eq!(order, (0..20).map(|i| i.to_string()).collect::<Vec<_>>());
    assert_eq!(names_of(&rec), BTreeSet::from([format!("{prefix}1")]));
}

/// A thread for every task that finds none idle; an idle one is reused.
#[test]
fn t9_thread_factory_cached_grows_and_reuses() {
    let prefix = prefix("t9-cache");
    let queue = TaskQueue::hand_off();
    let pool = presets::cached()
        .queue(queue.clone())
        .thread_factory(support::threads(&prefix))
        .build()
        .unwrap();
    let (gate, rec) = (Gate::new(), Recorder::new());
    for _ in 0..3 {
        let (waiter, r) = (gate.waiter(), rec.clone());
        pool.execute(move || {
            waiter.wait();
            r.record("held");
        })
        .unwrap();
    }
    assert_eq!(pool.pool_size(), 3, "nothing waits: three threads");
    gate.open();
    rec.wait_until_count("held", 3, ms(5000)).unwrap();
    assert!(
        eventually(ms(5000), || queue.waiting() == 3),
        "all idle, waiting a minute"
    );
    let r = rec.clone();
    pool.execute(move || {
        r.record("reused");
    })
    .unwrap();
    rec.eventually("reused", ms(5000)).unwrap();
    assert_eq!(pool.largest_pool_size(), 3, "no fourth thread");
}

/// Starts one thread, then fails every time.
struct FailsAfterFirst {
    inner: NamedThreads,
    asked: AtomicUsize,
}

impl ThreadFactory for FailsAfterFirst {
    fn new_thread(&self, body: Body) -> io::Result<JoinHandle> {
        if self.asked.fetch_add(1, SeqCst) == 0 {
            self.inner.new_thread(body)
        } else {
            Err(io::Error::other("no more threads, on purpose"))
        }
    }
}

#[test]
fn t9_thread_factory_fails_after_the_first_thread() {
    const TASKS: usize = 100;
    let factory = FailsAfterFirst {
        inner: support::threads(&prefix("t9-fail")),
        asked: AtomicUsize::new(0),
    };
    let pool = ThreadPool::builder()
        .core_pool_size(4)
        .maximum_pool_size(4)
        .thread_factory(factory)
        .build()
        .unwrap();
    let runs: Arc<Vec<AtomicUsize>> = Arc::new((0..TASKS).map(|_| AtomicUsize::new(0)).collect());
    for i in 0..TASKS {
        let runs = Arc::clone(&runs);
        pool.execute(move || {
            runs[i].fetch_add(1, SeqCst);
        })
        .unwrap_or_else(|e| panic!("task {i}: {e}"));
    }
    pool.shutdown();
    assert!(pool.await_termination(ms(5000)));
    let ran: Vec<usize> = runs.iter().map(|r| r.load(SeqCst)).collect();
    assert!(
        ran.iter().all(|&n| n == 1),
        "every task exactly once: {ran:?}"
    );
    assert_eq!(pool.completed_task_count(), TASKS as u64);
    assert_eq!(pool.largest_pool_size(), 1, "one thread did it all");
}

/// A factory that never starts a thread: the task cannot be queued for a
/// worker that does not exist, so it comes back.
#[test]
fn t9_thread_factory_never_starts_a_thread() {
    let pool = ThreadPool::builder()
        .thread_factory(|_body: Body| -> io::Result<JoinHandle> {
            Err(io::Error::new(
                io::ErrorKind::OutOfMemory,
                "no threads, on purpose",
            ))
        })
        .build()
        .unwrap();
    let rejected = pool.execute(|| {}).unwrap_err();
    assert_eq!(
        rejected.reason(),
        Reason::NoThread {
            error: io::ErrorKind::OutOfMemory
        }
    );
    assert_eq!(
        rejected.to_string(),
        "task rejected: the pool has no thread and its thread factory could not start one (out of memory)"
    );
    assert_eq!((pool.pool_size(), pool.queue().len()), (0, 0));
    assert_eq!(
        pool.ctl().worker_count(),
        0,
        "every failed worker rolled back"
    );
}

/// The factory can be swapped while the pool runs (Java's
/// `setThreadFactory`): the next worker comes from the new one, the
/// running ones keep their threads.
#[test]
fn t9_thread_factory_set_after_build() {
    let (first, second) = (prefix("t9-set-a"), prefix("t9-set-b"));
    let pool = ThreadPool::builder()
        .core_pool_size(2)
        .maximum_pool_size(2)
        .thread_factory(support::threads(&first))
        .build()
        .unwrap();
    let gate = Gate::new();
    let (tx, rx) = std::sync::mpsc::channel();
    let waiter = gate.waiter();
    let t = tx.clone();
    pool.execute(move || {
        t.send(support::me()).unwrap();
        waiter.wait();
    })
    .unwrap();
    assert!(rx.recv().unwrap().starts_with(&first));
    pool.set_thread_factory(support::threads(&second));
    pool.execute(move || tx.send(support::me()).unwrap())
        .unwrap();
    assert!(
        rx.recv().unwrap().starts_with(&second),
        "the second worker, from the new factory"
    );
    gate.open();
    let _factory: Arc<dyn ThreadFactory> = pool.thread_factory();
}
