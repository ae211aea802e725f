//! T8 `shutdown`: `shutdown` takes no new task, runs what is queued, and
//! wakes idle workers so they can leave; `shutdown_now` also interrupts
//! every worker (stage 5's cooperative interrupt: a task that checks it
//! stops) and hands back the queued tasks, which never started.
//! `await_termination` waits for the end (a zero timeout only looks), the
//! terminated hook runs exactly once, the hooks around each task run, the
//! counters never count a task twice, and dropping the pool shuts it down
//! and joins every thread.
#![cfg(not(loom))]

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::time::{Duration, Instant};

use threadpool_executor::error::Reason;
use threadpool_executor::queue::TaskQueue;
use threadpool_executor::{ThreadPool, interrupt};

use kit::{Recorder, ms, threads};
use support::{Gate, eventually, prefix};

fn counter() -> (Arc<AtomicUsize>, impl Fn() + Send + Sync + 'static) {
    let count = Arc::new(AtomicUsize::new(0));
    let c = Arc::clone(&count);
    (count, move || {
        c.fetch_add(1, SeqCst);
    })
}

#[test]
fn t8_shutdown_runs_queued_tasks() {
    let (terminated, on_terminated) = counter();
    let pool = ThreadPool::builder()
        .on_terminated(on_terminated)
        .thread_factory(support::threads(&prefix("t8")))
        .build()
        .unwrap();
    let (gate, rec) = (Gate::new(), Recorder::new());
    let (waiter, r) = (gate.waiter(), rec.clone());
    pool.execute(move || {
        waiter.wait();
        r.record("running");
    })
    .unwrap();
    for i in 1..=3 {
        let r = rec.clone();
        pool.execute(move || {
            r.record(format!("queued {i}"));
        })
        .unwrap();
    }
    pool.shutdown();
    assert!(pool.is_shutdown() && pool.is_terminating() && !pool.is_terminated());
    let rejected = pool.execute(|| {}).unwrap_err();
    assert_eq!(rejected.reason(), Reason::Shutdown);

    // A zero timeout only looks. Waiting, it would wait for the gate,
    // which opens only below: for ever. A second is far from both.
    let start = Instant::now();
    assert!(!pool.await_termination(Duration::ZERO));
    assert!(start.elapsed() < ms(1000));

    gate.open();
    assert!(pool.await_termination(ms(5000)));
    let ran: Vec<_> = rec.events().into_iter().map(|e| e.what).collect();
    assert_eq!(ran, ["running", "queued 1", "queued 2", "queued 3"]);
    assert!(pool.is_terminated() && !pool.is_terminating());
    assert_eq!(pool.pool_size(), 0);
    assert_eq!(terminated.load(SeqCst), 1);
    assert!(pool.await_termination(Duration::ZERO));
}

/// Idle workers wait in `take` without a limit: only `shutdown`'s
/// interrupt gets them out.
#[test]
fn t8_shutdown_wakes_idle_workers() {
    let prefix = prefix("t8-idle");
    let pool = ThreadPool::builder()
        .core_pool_size(3)
        .maximum_pool_size(3)
        .thread_factory(support::threads(&prefix))
        .build()
        .unwrap();
    assert_eq!(pool.prestart_all_core_threads(), 3);
    let start = Instant::now();
    pool.shutdown();
    assert!(pool.await_termination(ms(5000)));
    println!(
        "3 idle workers gone {} µs after shutdown",
        start.elapsed().as_micros()
    );
    for m in 1..=3 {
        threads::assert_gone(&format!("{prefix}{m}"));
    }
}

/// Two running tasks, one polling the interrupt and one sleeping an hour
/// interruptibly, and three queued: `shutdown_now` stops both and hands
/// back the three.
#[test]
fn t8_shutdown_now_interrupts_and_returns() {
    let pool = ThreadPool::builder()
        .core_pool_size(2)
        .maximum_pool_size(2)
        .thread_factory(support::threads(&prefix("t8-now")))
        .build()
        .unwrap();
    let rec = Recorder::new();
    let r = rec.clone();
    pool.execute(move || {
        r.record("polling");
        while interrupt::check().is_ok() {
            std::thread::yield_now();
        }
        r.record("polling: interrupted");
    })
    .unwrap();
    let r = rec.clone();
    pool.execute(move || {
        r.record("sleeping");
        let token = interrupt::current().expect("a worker has a token");
        let slept = token.sleep(Duration::from_secs(3600));
        r.record(format!("sleeping: {slept:?}"));
    })
    .unwrap();
    for i in 1..=3 {
        let r = rec.clone();
        pool.execute(move || {
            r.record(format!("queued {i} ran"));
        })
        .unwrap();
    }
    rec.eventually("polling", ms(5000)).unwrap();
    rec.eventually("sleeping", ms(5000)).unwrap();
    assert_eq!(pool.active_count(), 2);

    let returned = pool.shutdown_now();
    assert_eq!(returned.len(), 3, "the queued tasks, never started");
    assert!(rec.eventually("polling: interrupted", ms(5000)).is_some());
    assert!(
        rec.eventually("sleeping: Err(Interrupted)", ms(5000))
            .is_some()
    );
    assert!(pool.await_termination(ms(5000)));
    for i in 1..=3 {
        assert_eq!(rec.count(&format!("queued {i} ran")), 0);
    }
    // Ours now: run them.
    for task in returned {
        task();
    }
    assert_eq!(rec.count("queued 3 ran"), 1);
}

/// An interrupt meant to wake an idle worker (here: a shorter keep-alive)
/// never reaches the task it runs next.
#[test]
fn t8_shutdown_idle_interrupt_never_reaches_a_task() {
    let pool = ThreadPool::builder()
        .core_pool_size(1)
        .maximum_pool_size(1)
        .thread_factory(support::threads(&prefix("t8-leak")))
        .build()
        .unwrap();
    assert!(pool.prestart_core_thread());
    let rec = Recorder::new();
    for i in 0..20 {
        pool.set_keep_alive(Duration::from_secs(100 - i)).unwrap();
        let r = rec.clone();
        pool.execute(move || {
            r.record(format!("interrupted: {}", interrupt::is_interrupted()));
        })
        .unwrap();
    }
    assert!(
        rec.wait_until_count("interrupted: false", 20, ms(5000))
            .is_some(),
        "\n{}",
        rec.log()
    );
}

#[test]
fn t8_shutdown_hooks_and_counters() {
    let (before, before_hook) = counter();
    let (after, after_hook) = counter();
    let pool = ThreadPool::builder()
        .core_pool_size(2)
        .maximum_pool_size(2)
        .queue(TaskQueue::unbounded())
        .before_execute(move |_run, _task| before_hook())
        .after_execute(move |_run, panic| {
            assert!(panic.is_none());
            after_hook();
        })
        .thread_factory(support::threads(&prefix("t8-count")))
        .build()
        .unwrap();
    let gate = Gate::new();
    for _ in 0..10 {
        let waiter = gate.waiter();
        pool.execute(move || waiter.wait()).unwrap();
    }
    assert!(eventually(ms(5000), || pool.active_count() == 2));
    assert_eq!(pool.pool_size(), 2);
    assert_eq!(pool.task_count(), 10, "2 running + 8 queued");
    assert_eq!(pool.completed_task_count(), 0);
    assert!(eventually(ms(5000), || before.load(SeqCst) == 2));

    gate.open();
    // Counted while the tasks move from queue to worker to done: never
    // more than 10, completed never going back.
    let mut last_completed = 0;
    while pool.completed_task_count() < 10 {
        let (tasks, completed) = (pool.task_count(), pool.completed_task_count());
        assert!(tasks <= 10, "task count {tasks}");
        assert!(completed >= last_completed, "completed went back");
        last_completed = completed;
        std::thread::yield_now();
    }
    assert!(eventually(ms(5000), || pool.active_count() == 0));
    assert_eq!((pool.task_count(), pool.completed_task_count()), (10, 10));
    assert!(eventually(ms(5000), || after.load(SeqCst) == 10));
    assert_eq!(before.load(SeqCst), 10);
    assert_eq!(pool.largest_pool_size(), 2);
    pool.shutdown();
    assert!(pool.await_termination(ms(5000)));
    assert_eq!(
        pool.completed_task_count(),
        10,
        "kept after the workers left"
    );
}

/// Dropping a pool set to drain on drop runs what was queued and joins
/// every thread; the terminated hook runs once however often it is shut
/// down. (A drop that does not drain: drop_rule.rs.)
#[test]
fn t8_shutdown_on_drop() {
    let prefix = prefix("t8-drop");
    let (terminated, on_terminated) = counter();
    let pool = ThreadPool::builder()
        .core_pool_size(2)
        .maximum_pool_size(2)
        .on_terminated(on_terminated)
        .thread_factory(support::threads(&prefix))
        .build()
        .unwrap();
    let (ran, task) = counter();
    let task = Arc::new(task);
    for _ in 0..50 {
        let task = Arc::clone(&task);
        pool.execute(move || {
            std::thread::sleep(Duration::from_micros(100));
            task();
        })
        .unwrap();
    }
    pool.set_drain_on_drop(true);
    pool.shutdown();
    pool.shutdown();
    drop(pool);
    assert_eq!(
        ran.load(SeqCst),
        50,
        "every queued task ran before drop returned"
    );
    assert_eq!(terminated.load(SeqCst), 1);
    for m in 1..=2 {
        threads::assert_gone(&format!("{prefix}{m}"));
    }
}
