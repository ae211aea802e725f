//! Edge cases of the scheduled pool, after the JSR-166 TCK's
//! `ScheduledExecutorTest`: core size 0 still runs a delayed task, the
//! counters never overcount, the default rejection is Abort (and hands the
//! task back), `get` of a cancelled task is a cancellation, a
//! `cancel(true)` reaches the running job and not the worker's next task,
//! a delay too long for the clock is "never", and dropping the pool
//! cancels what never started and joins every thread.
#![cfg(not(loom))]

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::time::Duration;

use kit::{Recorder, ms};
use support::{Gate, prefix};
use threadpool_executor::deadline::Deadline;
use threadpool_executor::error::Reason;
use threadpool_executor::future::{FutureError, FutureState};
use threadpool_executor::interrupt;
use threadpool_executor::queue::WorkQueue;
use threadpool_executor::reject::Discard;
use threadpool_executor::scheduled::{ScheduleError, ScheduledBuilder, ScheduledThreadPool};

const FAR: Duration = Duration::from_secs(3600);

fn builder(id: &str) -> ScheduledBuilder {
    ScheduledThreadPool::builder().thread_factory(support::threads(&prefix(id)))
}

#[test]
fn core_size_zero_still_runs_a_delayed_task() {
    let pool = builder("edge").core_pool_size(0).build().unwrap();
    assert_eq!(pool.core_pool_size(), 0);
    let future = pool.schedule(ms(20), || "ran").unwrap();
    assert_eq!(future.get_timeout(ms(5000)), Ok("ran"));
    // Its one worker leaves once nothing is queued.
    assert!(support::eventually(ms(5000), || pool.pool_size() == 0));
}

#[test]
fn the_counters_never_overcount() {
    const TASKS: u64 = 3;
    let pool = builder("edge").build().unwrap();
    let gate = Gate::new();
    let waiter = gate.waiter();
    let first = pool
        .schedule(Duration::ZERO, move || waiter.wait())
        .unwrap();
    let rest: Vec<_> = (1..TASKS)
        .map(|_| pool.schedule(Duration::ZERO, || ()).unwrap())
        .collect();
    assert!(support::eventually(ms(5000), || pool.active_count() == 1));
    assert_eq!(pool.task_count(), TASKS, "1 running + 2 queued");
    assert_eq!(pool.completed_task_count(), 0);
    gate.open();
    // Counted once each, at every look on the way.
    assert!(support::eventually(ms(5000), || {
        let (completed, total) = (pool.completed_task_count(), pool.task_count());
        assert!(
            completed <= TASKS && total <= TASKS,
            "{completed} of {total}"
        );
        completed == TASKS
    }));
    assert_eq!(pool.task_count(), TASKS);
    assert_eq!(pool.largest_pool_size(), 1);
    assert!(first.get().is_ok() && rest.iter().all(|f| f.get().is_ok()));
}

#[test]
fn the_default_rejection_is_abort_and_hands_the_task_back() {
    let pool = builder("edge").build().unwrap();
    pool.shutdown();
    let rejected = pool.schedule(ms(5), || 1).unwrap_err();
    assert_eq!(rejected.reason(), Reason::Shutdown);
    assert_eq!(rejected.to_string(), "task rejected: the pool is shut down");
    let task = rejected.into_task();
    assert_eq!(task.state(), FutureState::New, "back, untouched");
    assert!(!task.is_periodic());
    match pool.schedule_at_fixed_rate(Duration::ZERO, ms(5), || ()) {
        Err(ScheduleError::Rejected(rejected)) => {
            assert!(rejected.into_task().is_periodic());
        }
        other => panic!("{other:?}"),
    }
    assert!(pool.execute(|| ()).is_err());
    assert!(pool.await_termination(ms(5000)));
}

/// A policy that drops the task must not leave a future nobody completes.
#[test]
fn a_discarded_task_is_cancelled_so_get_returns() {
    let pool = builder("edge").reject_policy(Discard).build().unwrap();
    pool.shutdown();
    let future = pool.schedule(ms(5), || 1).expect("discarded, not refused");
    assert!(future.is_cancelled());
    assert_eq!(future.get(), Err(FutureError::Cancelled));
}

#[test]
fn get_of_a_cancelled_task_is_a_cancellation() {
    let pool = builder("edge").build().unwrap();
    for may_interrupt in [false, true] {
        let future = pool.schedule(FAR, || 1).unwrap();
        assert!(future.cancel(may_interrupt));
        assert!(!future.cancel(may_interrupt), "once only");
        assert!(future.is_done() && future.is_cancelled());
        assert_eq!(future.get(), Err(FutureError::Cancelled));
        assert_eq!(
            future.get_timeout(Duration::ZERO),
            Err(FutureError::Cancelled)
        );
    }
    let far = pool.schedule(FAR, || 1).unwrap();
    assert_eq!(far.get_timeout(ms(10)), Err(FutureError::Timeout));
    assert!(far.remaining_delay() > FAR - Duration::from_secs(60));
}

/// `cancel(true)` interrupts the job that runs; the worker clears the
/// interrupt before its next task, and the job's future waited for the
/// interrupt to land before it let the worker go (future.rs).
#[test]
fn cancel_true_interrupts_the_job_and_not_the_next_task() {
    let pool = builder("edge").build().unwrap();
    let rec = Recorder::new();
    let r = rec.clone();
    let running = pool
        .schedule(Duration::ZERO, move || {
            r.record("started");
            while interrupt::check().is_ok() {
                std::thread::sleep(Duration::from_millis(1));
            }
            r.record("interrupted");
        })
        .unwrap();
    assert!(rec.eventually("started", ms(5000)).is_some());
    assert!(running.cancel(true));
    assert_eq!(running.state(), FutureState::Interrupted);
    assert!(rec.eventually("interrupted", ms(5000)).is_some());
    let next = pool
        .schedule(Duration::ZERO, interrupt::is_interrupted)
        .unwrap();
    assert_eq!(
        next.get_timeout(ms(5000)),
        Ok(false),
        "the next task ran clean"
    );
    assert_eq!(pool.pool_size(), 1, "on the same worker");
}

/// The JDK's `testSchedule_LongMaxValue`: a delay too long for the clock
/// is "never", and does not hold up anything else.
#[test]
fn a_delay_too_long_for_the_clock_is_never() {
    let pool = builder("edge").build().unwrap();
    let never = pool.schedule(Duration::MAX, || "never").unwrap();
    let periodic = pool
        .schedule_at_fixed_rate(Duration::MAX, Duration::MAX, || ())
        .unwrap();
    assert_eq!(never.deadline(), Deadline::FOREVER);
    assert_eq!(periodic.deadline(), Deadline::FOREVER);
    assert_eq!(
        pool.schedule(ms(5), || "soon")
            .unwrap()
            .get_timeout(ms(5000)),
        Ok("soon")
    );
    assert!(!never.is_done());
}

#[test]
fn dropping_the_pool_cancels_what_never_started_and_joins() {
    let prefix = prefix("edge");
    let ran = Arc::new(AtomicUsize::new(0));
    let (delayed, periodic) = {
        let pool = ScheduledThreadPool::builder()
            .core_pool_size(2)
            .thread_factory(support::threads(&prefix))
            .build()
            .unwrap();
        let r = Arc::clone(&ran);
        let delayed = pool
            .schedule(FAR, move || {
                r.fetch_add(1, SeqCst);
            })
            .unwrap();
        let periodic = pool
            .schedule_with_fixed_delay(Duration::ZERO, ms(1), || ())
            .unwrap();
        assert!(support::eventually(ms(5000), || pool.pool_size() == 2));
        (delayed, periodic)
    };
    assert_eq!(delayed.get(), Err(FutureError::Cancelled));
    assert_eq!(periodic.get(), Err(FutureError::Cancelled));
    assert_eq!(ran.load(SeqCst), 0);
    kit::threads::assert_gone(&format!("{prefix}1"));
    kit::threads::assert_gone(&format!("{prefix}2"));
}

/// A periodic task cancelled between its run and its queuing again: the
/// cancel finds it in no queue and removes nothing, so the requeue looks
/// once more and takes it out. (The JDK does not: the cancelled task
/// would wait in the queue until its next deadline, T14 again.)
#[test]
fn a_periodic_task_cancelled_while_out_of_the_queue_does_not_come_back() {
    const WINDOW: &str = "threadpool-executor::scheduled: ran, not yet queued again";
    let prefix = prefix("edge");
    let pool = ScheduledThreadPool::builder()
        .thread_factory(support::threads(&prefix))
        .build()
        .unwrap();
    let pause = kit::pause::Pause::arm(WINDOW, &format!("{prefix}1"));
    let future = pool
        .schedule_at_fixed_rate(Duration::ZERO, FAR, || ())
        .unwrap();
    pause.wait_reached();
    assert!(future.cancel(false));
    assert_eq!(pool.queue().len(), 0, "nothing to remove yet");
    pause.release();
    assert!(support::eventually(ms(5000), || pool
        .completed_task_count()
        == 1));
    assert_eq!(
        pool.queue().len(),
        0,
        "queued again, seen cancelled, taken out"
    );
}
