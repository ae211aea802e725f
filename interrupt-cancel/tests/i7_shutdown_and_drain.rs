//! I7, the calls a Java user reaches for beyond java.util.Timer's own:
//! `shutdown` (let the queue drain, as a collected java.util.Timer's
//! thread does), `await_termination`, a drop that drains when asked to,
//! and `scheduled_execution_time()` inside a task (`TimerTask`'s). Each
//! verdict is an order or a count, never a time bound: a task "ran" is
//! waited for on a channel with a generous deadline.
#![cfg(not(loom))]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use interrupt_cancel::error::ScheduleError;
use interrupt_cancel::timer::{TaskState, Timer, scheduled_execution_time};
use kit::{ms, threads};

/// Long enough that "it never came" is not a loaded machine.
const EVENTUALLY: Duration = Duration::from_secs(10);
const HOUR: Duration = Duration::from_secs(3600);

#[test]
fn i7_shutdown_runs_the_queued_one_shot_tasks_and_ends_the_repeats() {
    let name = threads::unique_name("i7-shutdown");
    let timer = Timer::new(&name).unwrap();
    let ran = Arc::new(AtomicUsize::new(0));
    let once: Vec<_> = (1..=3)
        .map(|k| {
            let ran = Arc::clone(&ran);
            timer
                .schedule(ms(10 * k), move || {
                    ran.fetch_add(1, Ordering::SeqCst);
                })
                .unwrap()
        })
        .collect();
    let every = timer.schedule_at_fixed_rate(HOUR, ms(1), || {}).unwrap();
    timer.shutdown();
    assert!(timer.is_shutdown());
    assert_eq!(
        timer.schedule(ms(1), || {}).unwrap_err(),
        ScheduleError::ShutDown,
        "a shut-down timer takes nothing new"
    );
    assert!(
        timer.await_termination(EVENTUALLY),
        "the queue drained, yet the thread did not end"
    );
    assert!(timer.is_terminated());
    assert_eq!(ran.load(Ordering::SeqCst), 3, "every queued task ran");
    assert!(once.iter().all(|t| t.state() == TaskState::Executed));
    assert_eq!(
        every.state(),
        TaskState::Cancelled,
        "repeats end at shutdown"
    );
    drop(timer);
    threads::assert_gone(&name);
}

#[test]
fn i7_shutdown_stops_a_repeating_task_that_is_running() {
    let timer = Timer::new(&threads::unique_name("i7-sd-run")).unwrap();
    let (started, wait_started) = mpsc::channel();
    let (go_on, may_go_on) = mpsc::channel::<()>();
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&runs);
    let task = timer
        .schedule_with_fixed_delay(Duration::ZERO, ms(1), move || {
            if counted.fetch_add(1, Ordering::SeqCst) == 0 {
                started.send(()).unwrap();
                may_go_on.recv().unwrap();
            }
        })
        .unwrap();
    wait_started.recv_timeout(EVENTUALLY).unwrap();
    // Shut down while its first run is under way, then let the run end.
    timer.shutdown();
    go_on.send(()).unwrap();
    assert!(timer.await_termination(EVENTUALLY));
    assert_eq!(runs.load(Ordering::SeqCst), 1, "it was not put back");
    assert_eq!(task.state(), TaskState::Cancelled);
}

#[test]
fn i7_await_termination_says_no_while_a_task_is_queued() {
    let timer = Timer::new(&threads::unique_name("i7-await")).unwrap();
    let far = timer.schedule(HOUR, || {}).unwrap();
    assert!(
        !timer.await_termination(Duration::ZERO),
        "not shut down yet"
    );
    timer.shutdown();
    assert!(
        !timer.await_termination(ms(20)),
        "a task an hour away is still queued"
    );
    assert!(!timer.is_terminated());
    // Cancel after shutdown discards it, and the thread ends.
    timer.cancel();
    assert!(timer.await_termination(EVENTUALLY));
    assert_eq!(far.state(), TaskState::Cancelled);
    assert_eq!(
        timer.schedule(ms(1), || {}).unwrap_err(),
        ScheduleError::Cancelled,
        "cancelled wins: the thread is gone"
    );
}

#[test]
fn i7_shutdown_twice_and_after_cancel_does_nothing_more() {
    let timer = Timer::new(&threads::unique_name("i7-twice")).unwrap();
    timer.shutdown();
    timer.shutdown();
    assert!(
        timer.await_termination(EVENTUALLY),
        "an empty queue ends now"
    );
    let cancelled = Timer::new(&threads::unique_name("i7-cfirst")).unwrap();
    cancelled.cancel();
    cancelled.shutdown();
    assert_eq!(
        cancelled.schedule(ms(1), || {}).unwrap_err(),
        ScheduleError::Cancelled
    );
}

#[test]
fn i7_drop_discards_by_default_and_drains_when_asked() {
    for drain in [false, true] {
        let name = threads::unique_name("i7-drop");
        let timer = Timer::new(&name).unwrap();
        timer.set_drain_on_drop(drain);
        assert_eq!(timer.drains_on_drop(), drain);
        let ran = Arc::new(AtomicUsize::new(0));
        let handles: Vec<_> = (1..=3)
            .map(|k| {
                let ran = Arc::clone(&ran);
                timer
                    .schedule(ms(20 * k), move || {
                        ran.fetch_add(1, Ordering::SeqCst);
                    })
                    .unwrap()
            })
            .collect();
        drop(timer);
        threads::assert_gone(&name);
        let (expect_runs, expect_state) = if drain {
            (3, TaskState::Executed)
        } else {
            (0, TaskState::Cancelled)
        };
        assert_eq!(ran.load(Ordering::SeqCst), expect_runs, "drain: {drain}");
        assert!(
            handles.iter().all(|t| t.state() == expect_state),
            "drain: {drain}: {:?}",
            handles.iter().map(|t| t.state()).collect::<Vec<_>>()
        );
    }
}

#[test]
fn i7_scheduled_execution_time_is_each_runs_due_time() {
    assert_eq!(scheduled_execution_time(), None, "not inside a task");
    let timer = Timer::new(&threads::unique_name("i7-set")).unwrap();
    let (tx, rx) = mpsc::channel();
    let first = Instant::now() + ms(5);
    let period = ms(3);
    let task = timer
        .schedule_at_fixed_rate_from(first, period, move || {
            let _ = tx.send(scheduled_execution_time());
        })
        .unwrap();
    let seen: Vec<Option<Instant>> = (0..4)
        .map(|_| rx.recv_timeout(EVENTUALLY).unwrap())
        .collect();
    task.cancel();
    // Fixed rate: run k was due at first + k periods, however late it ran.
    let due: Vec<Option<Instant>> = (0..4).map(|k| Some(first + period * k)).collect();
    assert_eq!(seen, due);
    assert_eq!(scheduled_execution_time(), None, "still not inside a task");
}
