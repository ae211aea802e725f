//! The drop rule of every finished version, on the pool: a drop acts like
//! `shutdown_now` (queued tasks to the discard hook, never run; the
//! running task interrupted) and joins every thread; with
//! `set_drain_on_drop(true)` it acts like `shutdown` and waits, and the
//! queued tasks run.
#![cfg(not(loom))]

mod support;

use kit::threads::assert_gone;
use kit::{Recorder, ms};
use support::{Gate, labelled, prefix};
use threadpool_executor::future::FutureError;
use threadpool_executor::{ThreadPool, interrupt, presets};

/// A pool of `workers` threads named after `prefix`, whose discard hook
/// records "discarded".
fn pool(prefix: &str, workers: usize, rec: &Recorder) -> ThreadPool {
    let r = rec.clone();
    presets::fixed(workers)
        .on_discard(move |_task| {
            r.record("discarded");
        })
        .thread_factory(support::threads(prefix))
        .build()
        .expect("a valid pool")
}

/// Holds one worker with a task that sleeps until it is interrupted (or
/// for a time no passing run reaches), recording "interrupted" if it was;
/// returns once the task has started.
fn hold_until_interrupted(pool: &ThreadPool, rec: &Recorder) {
    let r = rec.clone();
    pool.execute(move || {
        r.record("busy");
        let token = interrupt::current().expect("a worker's token");
        match token.sleep(ms(10_000)) {
            Err(_) => r.record("interrupted"),
            Ok(()) => r.record("slept it out"),
        };
    })
    .unwrap();
    assert!(rec.eventually("busy", ms(5000)).is_some());
}

#[test]
fn drop_discards_the_queue_interrupts_the_running_task_and_joins() {
    let (prefix, rec) = (prefix("drop"), Recorder::new());
    let pool = pool(&prefix, 1, &rec);
    assert!(!pool.drains_on_drop(), "the default");
    hold_until_interrupted(&pool, &rec);
    for label in ["q1", "q2", "q3"] {
        pool.execute(labelled(&rec, label)).unwrap();
    }
    let r = rec.clone();
    let submitted = pool.submit(move || r.record("submitted")).unwrap();
    assert_eq!(pool.queue().len(), 4);

    drop(pool);

    assert_eq!(rec.count("interrupted"), 1, "{}", rec.log());
    assert_eq!(rec.count("discarded"), 4, "{}", rec.log());
    for label in ["q1", "q2", "q3", "submitted", "slept it out"] {
        assert_eq!(rec.count(label), 0, "{label}\n{}", rec.log());
    }
    assert_eq!(submitted.get_timeout(ms(5000)), Err(FutureError::Cancelled));
    assert_gone(&format!("{prefix}1"));
}

#[test]
fn drain_on_drop_runs_the_queue_first_and_interrupts_nothing() {
    let (prefix, rec) = (prefix("drop-drain"), Recorder::new());
    let gate = Gate::new();
    let waiter = gate.waiter();
    let opener = std::sync::Mutex::new(Some(gate));
    let r = rec.clone();
    // The drop's `shutdown` opens the gate: the queue is still full then.
    let pool = ThreadPool::builder()
        .core_pool_size(1)
        .maximum_pool_size(1)
        .on_discard(move |_task| {
            r.record("discarded");
        })
        .on_shutdown(move || drop(opener.lock().unwrap().take()))
        .thread_factory(support::threads(&prefix))
        .build()
        .unwrap();
    pool.set_drain_on_drop(true);
    assert!(pool.drains_on_drop());
    let r = rec.clone();
    pool.execute(move || {
        r.record("busy");
        waiter.wait();
        if interrupt::is_interrupted() {
            r.record("interrupted");
        }
    })
    .unwrap();
    assert!(rec.eventually("busy", ms(5000)).is_some());
    for label in ["q1", "q2", "q3"] {
        pool.execute(labelled(&rec, label)).unwrap();
    }
    assert_eq!(pool.queue().len(), 3);

    drop(pool);

    for label in ["q1", "q2", "q3"] {
        assert_eq!(rec.count(label), 1, "{label}\n{}", rec.log());
    }
    assert_eq!(rec.count("discarded"), 0);
    assert_eq!(rec.count("interrupted"), 0);
    assert_gone(&format!("{prefix}1"));
}

#[test]
fn drop_joins_every_worker_busy_or_idle() {
    let (prefix, rec) = (prefix("drop-all"), Recorder::new());
    let pool = pool(&prefix, 3, &rec);
    assert_eq!(pool.prestart_all_core_threads(), 3);
    hold_until_interrupted(&pool, &rec);
    drop(pool);
    for m in 1..=3 {
        assert_gone(&format!("{prefix}{m}"));
    }
}

/// A job submitted through the `Executor` trait, dropped unrun by the
/// pool's drop, answers `Cancelled` instead of leaving `get` waiting.
#[test]
fn drop_cancels_the_futures_of_jobs_it_never_ran() {
    use threadpool_executor::executor::Executor;
    let (prefix, rec) = (prefix("drop-fut"), Recorder::new());
    let pool = pool(&prefix, 1, &rec);
    // Until the drop interrupts it: the queued job stays queued.
    hold_until_interrupted(&pool, &rec);
    let queued = Executor::submit(&pool, || 1).unwrap();
    assert!(queued.task_id().is_some(), "the pool's own submit");
    drop(pool);
    assert_eq!(queued.get_timeout(ms(5000)), Err(FutureError::Cancelled));
}
