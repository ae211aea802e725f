//! T13: what `shutdown` does to the tasks of a scheduled pool, and the
//! policies that decide it (scheduled.rs, `on_shutdown`):
//!
//! | policy | JDK default | ours |
//! |---|---|---|
//! | execute existing delayed tasks after shutdown | yes | yes |
//! | continue existing periodic tasks after shutdown | no | no |
//! | remove on cancel | no | **yes** (T14) |
//!
//! `shutdown_now` hands back every task that never started, delayed and
//! periodic alike. A `schedule` that races `shutdown` (held between its
//! look at the state and its queuing) finds its task cancelled, not
//! stranded in a terminated pool.
#![cfg(not(loom))]

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::thread;
use std::time::Duration;

use kit::pause::Pause;
use kit::{Recorder, ms};
use support::prefix;
use threadpool_executor::future::{FutureError, FutureState};
use threadpool_executor::queue::WorkQueue;
use threadpool_executor::scheduled::{DEFAULT_KEEP_ALIVE, ScheduledBuilder, ScheduledThreadPool};

const FAR: Duration = Duration::from_secs(3600);

fn builder(id: &str) -> ScheduledBuilder {
    ScheduledThreadPool::builder().thread_factory(support::threads(&prefix(id)))
}

/// A periodic task every 5 ms that counts its runs.
fn ticker(
    pool: &ScheduledThreadPool,
) -> (
    threadpool_executor::scheduled::ScheduledFuture<()>,
    Arc<AtomicUsize>,
) {
    let runs = Arc::new(AtomicUsize::new(0));
    let r = Arc::clone(&runs);
    let future = pool
        .schedule_at_fixed_rate(Duration::ZERO, ms(5), move || {
            r.fetch_add(1, SeqCst);
        })
        .unwrap();
    assert!(support::eventually(ms(5000), || runs.load(SeqCst) >= 1));
    (future, runs)
}

#[test]
fn t13_the_defaults_are_the_jdks_but_remove_on_cancel() {
    let pool = ScheduledThreadPool::new(1).unwrap();
    assert!(pool.executes_delayed_after_shutdown());
    assert!(!pool.continues_periodic_after_shutdown());
    assert!(pool.removes_on_cancel(), "the JDK's default is false (T14)");
    assert_eq!(pool.keep_alive(), DEFAULT_KEEP_ALIVE);
}

#[test]
fn t13_after_shutdown_delayed_tasks_run_and_periodic_ones_stop() {
    let pool = builder("t13").build().unwrap();
    let rec = Recorder::new();
    let (periodic, ticks) = ticker(&pool);
    let r = rec.clone();
    let shut_at = rec.elapsed();
    let delayed = pool
        .schedule(ms(100), move || {
            r.record("delayed ran");
        })
        .unwrap();
    pool.shutdown();
    assert!(pool.is_shutdown());
    // The periodic task is cancelled: at once if it was queued, after its
    // run if it was running.
    assert!(support::eventually(ms(1000), || periodic.is_cancelled()));
    assert_eq!(periodic.get(), Err(FutureError::Cancelled));
    let stopped_at = ticks.load(SeqCst);
    // The delayed one still runs, on time, and then the pool ends.
    let ran = rec.eventually("delayed ran", ms(5000)).expect("it ran");
    assert!(ran >= shut_at + ms(100), "ran at {ran:?}, before its delay");
    assert!(pool.await_termination(ms(5000)), "{:?}", pool.ctl());
    assert!(delayed.get().is_ok());
    assert_eq!(ticks.load(SeqCst), stopped_at, "no run after the cancel");
    // And nothing new is taken.
    assert!(pool.schedule(Duration::ZERO, || ()).is_err());
}

#[test]
fn t13_both_policies_flipped() {
    let pool = builder("t13")
        .execute_delayed_after_shutdown(false)
        .continue_periodic_after_shutdown(true)
        .build()
        .unwrap();
    let (periodic, ticks) = ticker(&pool);
    let delayed = pool.schedule(FAR, || ()).unwrap();
    pool.shutdown();
    // On shutdown's own thread, before it returns.
    assert!(delayed.is_cancelled());
    assert_eq!(delayed.get(), Err(FutureError::Cancelled));
    let at_shutdown = ticks.load(SeqCst);
    assert!(
        support::eventually(ms(5000), || ticks.load(SeqCst) >= at_shutdown + 3),
        "the periodic task goes on after shutdown"
    );
    assert!(!pool.is_terminated());
    // Changing the policy after shutdown applies it now.
    pool.set_continue_periodic_after_shutdown(false);
    assert!(support::eventually(ms(1000), || periodic.is_cancelled()));
    assert!(pool.await_termination(ms(5000)));
}

#[test]
fn t13_turning_delayed_tasks_off_after_shutdown_cancels_them() {
    let pool = builder("t13").build().unwrap();
    let delayed = pool.schedule(FAR, || ()).unwrap();
    pool.shutdown();
    assert!(
        !pool.await_termination(ms(20)),
        "waits for its delayed task"
    );
    assert_eq!(delayed.state(), FutureState::New);
    pool.set_execute_delayed_after_shutdown(false);
    assert!(delayed.is_cancelled());
    assert!(pool.await_termination(ms(5000)));
}

#[test]
fn t13_shutdown_now_returns_every_never_started_task() {
    let pool = builder("t13").build().unwrap();
    let later = pool.schedule(FAR * 2, || 2).unwrap();
    let sooner = pool.schedule(FAR, || 1).unwrap();
    let periodic = pool.schedule_at_fixed_rate(FAR, ms(5), || ()).unwrap();
    assert_eq!(pool.queue().len(), 3);
    let returned = pool.shutdown_now();
    assert_eq!(returned.len(), 3);
    // In deadline order, never started, left as they were.
    let deadlines: Vec<_> = returned.iter().map(|t| t.deadline()).collect();
    assert_eq!(
        deadlines,
        [sooner.deadline(), periodic.deadline(), later.deadline()]
    );
    assert!(returned.iter().all(|t| t.state() == FutureState::New));
    assert!(returned[1].is_periodic());
    assert!(pool.await_termination(ms(5000)));
    // Ours to cancel (or to run).
    for task in &returned {
        assert!(task.cancel(false));
    }
    assert_eq!(sooner.get(), Err(FutureError::Cancelled));
    assert_eq!(periodic.get(), Err(FutureError::Cancelled));
}

#[test]
fn t13_a_cancelled_task_leaves_the_queue_unless_the_policy_is_off() {
    let pool = builder("t13").build().unwrap();
    let future = pool.schedule(FAR, || ()).unwrap();
    assert_eq!(pool.queue().len(), 1);
    assert!(future.cancel(false));
    assert_eq!(pool.queue().len(), 0, "removed at once");

    // Java's default: the cancelled task stays until its deadline...
    pool.set_remove_on_cancel(false);
    let future = pool.schedule(FAR, || ()).unwrap();
    assert!(future.cancel(false));
    assert_eq!(pool.queue().len(), 1, "still there, dead");
    // ...but shutdown removes it, and does not wait for it.
    pool.shutdown();
    assert_eq!(pool.queue().len(), 0);
    assert!(pool.await_termination(ms(5000)));
}

/// `schedule` held between its look at the state ("running") and its
/// queuing, while `shutdown` ends the pool: the task goes into the queue
/// of a terminated pool. The look after queuing finds it there, takes it
/// out and cancels it, so its `get` answers instead of waiting forever.
#[test]
fn t13_a_schedule_racing_shutdown_is_cancelled_not_stranded() {
    const WINDOW: &str = "threadpool-executor::scheduled: saw the pool running, not yet queued";
    let pool = builder("t13").build().unwrap();
    assert_eq!(pool.prestart_all_core_threads(), 1);
    let caller = kit::threads::unique_name("t13c");
    let pause = Pause::arm(WINDOW, &caller);
    thread::scope(|scope| {
        let scheduling = thread::Builder::new()
            .name(caller.clone())
            .spawn_scoped(scope, || pool.schedule(ms(10), || "ran"))
            .unwrap();
        pause.wait_reached();
        pool.shutdown();
        assert!(pool.await_termination(ms(5000)), "ended, empty");
        pause.release();
        let future = scheduling.join().unwrap().expect("it saw the pool running");
        assert_eq!(future.get_timeout(ms(5000)), Err(FutureError::Cancelled));
    });
    assert_eq!(pool.queue().len(), 0, "not stranded in the queue");
}
