//! T1 `execute`: ThreadPoolExecutor's three steps.
//!
//! 1. Below core size, `execute` starts a worker with the task as its first
//!    task, even if other workers are idle.
//! 2. Else it offers the task to the queue (and looks at the pool again).
//! 3. If the queue refuses it, it starts a worker up to the maximum size;
//!    at the maximum it rejects the task.
//!
//! Each task here waits at a gate, so every worker stays busy and the
//! pool's shape after each `execute` is exact, not a matter of timing.
#![cfg(not(loom))]

mod support;

use threadpool_executor::ThreadPool;
use threadpool_executor::error::Reason;
use threadpool_executor::queue::{TaskQueue, WorkQueue};

use kit::{Recorder, ms, threads};
use support::{Gate, eventually, prefix};

/// A task that waits at the gate, then records which thread ran it.
fn gated(gate: &Gate, rec: &Recorder, label: &'static str) -> impl FnOnce() + Send + 'static {
    let (gate, rec) = (gate.waiter(), rec.clone());
    move || {
        gate.wait();
        rec.record(label);
    }
}

fn who_ran(rec: &Recorder, label: &str) -> String {
    rec.events()
        .into_iter()
        .find(|e| e.what == label)
        .map(|e| e.who)
        .unwrap_or_else(|| panic!("{label} never ran\n{}", rec.log()))
}

#[test]
fn t1_execute() {
    let prefix = prefix("t1");
    let queue = TaskQueue::bounded(1).unwrap();
    let pool = ThreadPool::builder()
        .core_pool_size(2)
        .maximum_pool_size(3)
        .queue(queue.clone())
        .thread_factory(support::threads(&prefix))
        .build()
        .unwrap();
    let (gate, rec) = (Gate::new(), Recorder::new());

    // Step 1, twice: below core size, a new worker each time.
    pool.execute(gated(&gate, &rec, "A")).unwrap();
    assert_eq!((pool.pool_size(), queue.len()), (1, 0));
    pool.execute(gated(&gate, &rec, "B")).unwrap();
    assert_eq!((pool.pool_size(), queue.len()), (2, 0));
    // Step 2: at core size, the queue.
    pool.execute(gated(&gate, &rec, "C")).unwrap();
    assert_eq!((pool.pool_size(), queue.len()), (2, 1));
    // Step 3: the queue is full: a worker above core size.
    pool.execute(gated(&gate, &rec, "D")).unwrap();
    assert_eq!((pool.pool_size(), queue.len()), (3, 1));
    // At the maximum, with a full queue: rejected, and handed back.
    let rejected = pool.execute(gated(&gate, &rec, "E")).unwrap_err();
    assert_eq!(
        rejected.reason(),
        Reason::Saturated {
            pool_size: 3,
            maximum: 3,
            queued: 1
        }
    );
    assert_eq!(pool.largest_pool_size(), 3);

    gate.open();
    for label in ["A", "B", "C", "D"] {
        assert!(rec.eventually(label, ms(5000)).is_some(), "{label} ran");
    }
    // A first task runs on the worker started for it.
    assert_eq!(who_ran(&rec, "A"), format!("{prefix}1"));
    assert_eq!(who_ran(&rec, "B"), format!("{prefix}2"));
    assert_eq!(who_ran(&rec, "D"), format!("{prefix}3"));
    assert_eq!(rec.count("E"), 0, "a rejected task does not run");
    rejected.into_task()(); // ours to run
    assert_eq!(who_ran(&rec, "E"), support::me());

    drop(pool);
    for m in 1..=3 {
        threads::assert_gone(&format!("{prefix}{m}"));
    }
}

/// Step 1 starts a worker even when another is idle.
#[test]
fn t1_execute_below_core_starts_a_worker_even_if_one_is_idle() {
    let prefix = prefix("t1-idle");
    let pool = ThreadPool::builder()
        .core_pool_size(2)
        .maximum_pool_size(2)
        .thread_factory(support::threads(&prefix))
        .build()
        .unwrap();
    let rec = Recorder::new();
    let r = rec.clone();
    pool.execute(move || {
        r.record("first");
    })
    .unwrap();
    rec.eventually("first", ms(5000)).unwrap();
    assert!(eventually(ms(5000), || pool.active_count() == 0));
    let r = rec.clone();
    pool.execute(move || {
        r.record("second");
    })
    .unwrap();
    rec.eventually("second", ms(5000)).unwrap();
    assert_eq!(pool.pool_size(), 2, "a second worker, not the idle first");
    assert_eq!(who_ran(&rec, "second"), format!("{prefix}2"));
}

/// A worker runs its first task, then takes the queued ones.
#[test]
fn t1_execute_workers_take_from_the_queue() {
    let prefix = prefix("t1-loop");
    let pool = ThreadPool::builder()
        .thread_factory(support::threads(&prefix))
        .build()
        .unwrap();
    let (gate, rec) = (Gate::new(), Recorder::new());
    for label in ["1", "2", "3"] {
        pool.execute(gated(&gate, &rec, label)).unwrap();
    }
    assert_eq!((pool.pool_size(), pool.queue().len()), (1, 2));
    gate.open();
    assert!(rec.wait_until_count("3", 1, ms(5000)).is_some());
    let order: Vec<_> = rec.events().into_iter().map(|e| e.what).collect();
    assert_eq!(order, ["1", "2", "3"], "one worker, in order");
    for label in ["1", "2", "3"] {
        assert_eq!(who_ran(&rec, label), format!("{prefix}1"));
    }
}

/// Core size 0: step 2 queues the task, and the look after queuing finds
/// no worker and starts one.
#[test]
fn t1_execute_core_zero_still_runs() {
    let prefix = prefix("t1-zero");
    let pool = ThreadPool::builder()
        .core_pool_size(0)
        .maximum_pool_size(4)
        .thread_factory(support::threads(&prefix))
        .build()
        .unwrap();
    let rec = Recorder::new();
    let r = rec.clone();
    pool.execute(move || {
        r.record("ran");
    })
    .unwrap();
    assert!(rec.eventually("ran", ms(5000)).is_some());
    assert_eq!(who_ran(&rec, "ran"), format!("{prefix}1"));
    assert_eq!(pool.largest_pool_size(), 1);
}

/// A hand-off queue holds nothing: a task meets an idle worker or starts
/// a new one; at the maximum it is rejected.
#[test]
fn t1_execute_hand_off() {
    let prefix = prefix("t1-hand");
    let queue = TaskQueue::hand_off();
    let pool = ThreadPool::builder()
        .core_pool_size(0)
        .maximum_pool_size(2)
        .keep_alive(ms(60_000))
        .queue(queue.clone())
        .thread_factory(support::threads(&prefix))
        .build()
        .unwrap();
    let (gate_a, gate_b, rec) = (Gate::new(), Gate::new(), Recorder::new());
    pool.execute(gated(&gate_a, &rec, "A")).unwrap();
    pool.execute(gated(&gate_b, &rec, "B")).unwrap();
    assert_eq!(pool.pool_size(), 2, "no idle worker: a new one each");
    let rejected = pool.execute(|| {}).unwrap_err();
    assert!(matches!(rejected.reason(), Reason::Saturated { .. }));

    gate_a.open();
    rec.eventually("A", ms(5000)).unwrap();
    // The first worker waits, idle, for a hand-off.
    assert!(eventually(ms(5000), || queue.waiting() == 1));
    pool.execute(gated(&gate_a, &rec, "C")).unwrap();
    rec.eventually("C", ms(5000)).unwrap();
    assert_eq!(pool.pool_size(), 2, "handed to the idle worker");
    assert_eq!(who_ran(&rec, "C"), format!("{prefix}1"));
    gate_b.open();
}
