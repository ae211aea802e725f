//! `remove(id)` and `purge()`: ThreadPoolExecutor's `remove(Runnable)` and
//! `purge()`, on a pool of one worker held busy at a gate, so that which
//! tasks are queued when the call comes is decided before it comes.
#![cfg(not(loom))]

mod support;

use kit::{Recorder, ms};
use support::{Gate, labelled, prefix};
use threadpool_executor::future::{FutureError, FutureState};
use threadpool_executor::task::TaskId;
use threadpool_executor::{ThreadPool, presets};

fn single(id: &str) -> ThreadPool {
    presets::single()
        .thread_factory(support::threads(&prefix(id)))
        .build()
        .expect("a valid pool")
}

/// Holds the one worker (its task held at a gate) and waits until that
/// task has started; returns the gate and the task's id.
fn occupy(pool: &ThreadPool) -> (Gate, TaskId) {
    let gate = Gate::new();
    let (job, started) = gate.held_job();
    let id = pool.execute_with_id(job).expect("accepted");
    started.wait(ms(5000));
    (gate, id)
}

#[test]
fn remove_takes_the_second_of_three_queued_out() {
    let pool = single("rm-2nd");
    let rec = Recorder::new();
    let (gate, _busy) = occupy(&pool);
    let ids: Vec<TaskId> = ["1", "2", "3"]
        .into_iter()
        .map(|label| pool.execute_with_id(labelled(&rec, label)).unwrap())
        .collect();
    assert!(ids.iter().all(TaskId::was_queued));
    assert_eq!(pool.queue().len(), 3);
    assert!(pool.remove(ids[1]), "queued: taken out");
    assert!(!pool.remove(ids[1]), "taken out already");
    assert_eq!(pool.queue().len(), 2);
    gate.open();
    pool.shutdown();
    assert!(pool.await_termination(ms(5000)));
    assert_eq!((rec.count("1"), rec.count("2"), rec.count("3")), (1, 0, 1));
    assert_eq!(pool.completed_task_count(), 3, "the busy task, 1 and 3");
}

#[test]
fn remove_of_a_task_that_started_or_ran_is_false() {
    let pool = single("rm-run");
    let rec = Recorder::new();
    let (gate, busy) = occupy(&pool);
    assert!(!busy.was_queued(), "the first task went to a new worker");
    assert!(!pool.remove(busy), "running");
    let queued = pool.execute_with_id(labelled(&rec, "queued")).unwrap();
    gate.open();
    assert!(rec.eventually("queued", ms(5000)).is_some());
    assert!(!pool.remove(queued), "ran already");
    assert!(!pool.remove(busy), "ran already");
}

#[test]
fn remove_of_another_pools_task_is_false() {
    let (a, b) = (single("rm-a"), single("rm-b"));
    let rec = Recorder::new();
    let (gate_a, _) = occupy(&a);
    let (gate_b, _) = occupy(&b);
    // The same step in each pool: each queue gives its first ticket.
    let in_a = a.execute_with_id(labelled(&rec, "a")).unwrap();
    let in_b = b.execute_with_id(labelled(&rec, "b")).unwrap();
    assert_ne!(in_a, in_b, "ids of two pools never match");
    assert!(!b.remove(in_a), "not b's task");
    assert_eq!(b.queue().len(), 1, "b's task is still queued");
    assert!(b.remove(in_b));
    drop((gate_a, gate_b));
}

#[test]
fn removing_a_submitted_job_cancels_its_future() {
    let pool = single("rm-sub");
    let rec = Recorder::new();
    let (gate, _) = occupy(&pool);
    let r = rec.clone();
    let future = pool
        .submit(move || {
            r.record("ran");
        })
        .unwrap();
    let id = future.task_id().expect("submitted to a pool");
    assert!(id.was_queued());
    assert!(pool.remove(id));
    // Without this, `get` would wait forever for a job that never runs.
    assert_eq!(future.get_timeout(ms(5000)), Err(FutureError::Cancelled));
    assert_eq!(future.state(), FutureState::Cancelled);
    gate.open();
    pool.shutdown();
    assert!(pool.await_termination(ms(5000)));
    assert_eq!(rec.count("ran"), 0);
}

#[test]
fn purge_takes_out_the_cancelled_queued_jobs_only() {
    let pool = single("purge");
    let rec = Recorder::new();
    let (gate, _) = occupy(&pool);
    let futures: Vec<_> = (0..4)
        .map(|n| {
            let r = rec.clone();
            pool.submit(move || {
                r.record(format!("job {n}"));
            })
            .unwrap()
        })
        .collect();
    let plain = pool.execute_with_id(labelled(&rec, "plain")).unwrap();
    assert!(futures[1].cancel(false) && futures[3].cancel(true));
    assert!(!futures[3].cancel(false), "cancelled once");
    assert_eq!(pool.queue().len(), 5, "cancelled jobs stay queued");
    assert_eq!(pool.purge(), 2);
    assert_eq!(pool.queue().len(), 3);
    assert_eq!(pool.purge(), 0, "nothing left to purge");
    assert!(!pool.remove(futures[1].task_id().unwrap()), "purged");
    gate.open();
    for label in ["job 0", "job 2", "plain"] {
        assert!(rec.eventually(label, ms(5000)).is_some(), "{label} ran");
    }
    assert_eq!(futures[0].get(), Ok(()));
    assert_eq!(futures[1].get(), Err(FutureError::Cancelled));
    assert!(!pool.remove(plain), "ran already");
    pool.shutdown();
    assert!(pool.await_termination(ms(5000)));
    assert_eq!((rec.count("job 1"), rec.count("job 3")), (0, 0));
}

#[test]
fn purge_after_the_cancelled_job_left_the_queue_finds_nothing() {
    let pool = single("purge-late");
    let rec = Recorder::new();
    let (gate, _) = occupy(&pool);
    let cancelled = pool.submit(|| ()).unwrap();
    let after = pool.execute_with_id(labelled(&rec, "after")).unwrap();
    assert!(cancelled.cancel(false));
    gate.open();
    // The worker takes the cancelled job (a no-op), then the next.
    assert!(rec.eventually("after", ms(5000)).is_some());
    assert_eq!(pool.purge(), 0);
    assert!(!pool.remove(after));
}

#[test]
fn remove_and_purge_work_after_shutdown_and_let_the_pool_end() {
    let pool = single("rm-shut");
    let rec = Recorder::new();
    let (gate, _) = occupy(&pool);
    let removed = pool.execute_with_id(labelled(&rec, "removed")).unwrap();
    let cancelled = pool.submit(|| ()).unwrap();
    assert!(cancelled.cancel(false));
    pool.shutdown();
    assert!(pool.remove(removed), "Java's remove works after shutdown");
    assert_eq!(pool.purge(), 1, "and so does purge");
    assert!(pool.queue().is_empty());
    assert!(!pool.is_terminated(), "the busy task still runs");
    gate.open();
    assert!(pool.await_termination(ms(5000)));
    assert_eq!(rec.count("removed"), 0);
}

#[test]
fn shutdown_now_hands_back_each_task_beside_its_id() {
    let pool = single("rm-now");
    let rec = Recorder::new();
    let (gate, busy) = occupy(&pool);
    let first = pool.execute_with_id(labelled(&rec, "first")).unwrap();
    let submitted = pool.submit(|| 7).unwrap();
    let last = pool.execute_with_id(labelled(&rec, "last")).unwrap();
    let back = pool.shutdown_now_with_ids();
    let ids: Vec<TaskId> = back.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, [first, submitted.task_id().unwrap(), last]);
    assert!(!ids.contains(&busy), "the running task is not handed back");
    // Ours to run or drop: run the first, drop the rest.
    let mut back = back.into_iter();
    let (_, run_it) = back.next().unwrap();
    run_it();
    drop(back);
    assert_eq!(rec.count("first"), 1);
    assert_eq!(
        submitted.get_timeout(ms(5000)),
        Err(FutureError::Cancelled),
        "a submitted job handed back and dropped never runs"
    );
    drop(gate);
    assert!(pool.await_termination(ms(5000)));
}
