//! P6 (semantics): after `cancel`, the fixed versions behave as
//! java.util.Timer does.
//!
//! - `schedule` returns [`ScheduleError::Cancelled`], whose message is
//!   java.util.Timer's: "Timer already cancelled.".
//! - Queued tasks are discarded: none starts after `cancel` returns, even
//!   tasks already due, even tasks due right after.
//! - A running task is not interrupted: it finishes.
//! - `cancel` waits for nothing: it returns while a task is still running.
//!   Dropping the timer is a cancel followed by a join: the drop returns
//!   once the running task has finished and the thread has ended.
//! - `cancel` may be called again (it does nothing), and from inside a task
//!   (it does not deadlock; that task is the last to run). A task may even
//!   drop the timer's last owner: the thread cannot join itself, so that
//!   drop only cancels, and the thread ends when the task returns.
//! - Bad input is a typed error: an overflowing delay, a NUL in the name.
//!
//! Each check is a module with one test per version: the three fixed ones,
//! and for the situations where a task is running (the article's first
//! two), the two buggy ones too: there the thread is not blocked, so even a
//! bare flag is read in time.
#![cfg(not(loom))]

mod support;

use std::sync::{Arc, mpsc};
use std::time::Duration;

use kit::{Recorder, ms, threads};
use poison_pill::error::ScheduleError;
use poison_pill::{cancel_flag, disconnect, notify_on_cancel, poison_pill as pill, timer_style};
use support::{FAR_MS, HOLD_MS, MARGIN_MS, Situation, TRIES, Version, cancel_in, spawn};

/// Runs `check` on poison_pill.rs, disconnect.rs and timer_style.rs, as
/// the tests `<check>::poison_pill`, `<check>::disconnect`,
/// `<check>::timer_style`.
macro_rules! on_fixed_versions {
    ($check:ident) => {
        mod $check {
            use super::*;
            #[test]
            fn poison_pill() {
                super::$check::<pill::Timer>("p6-pill");
            }
            #[test]
            fn disconnect() {
                super::$check::<disconnect::Timer>("p6-disc");
            }
            #[test]
            fn timer_style() {
                super::$check::<timer_style::Timer>("p6-tstyle");
            }
        }
    };
}

/// As `on_fixed_versions`, and on cancel_flag.rs and notify_on_cancel.rs.
macro_rules! on_every_version {
    ($check:ident) => {
        mod $check {
            use super::*;
            #[test]
            fn cancel_flag() {
                super::$check::<cancel_flag::Timer>("p6-flag");
            }
            #[test]
            fn notify_on_cancel() {
                super::$check::<notify_on_cancel::Timer>("p6-notify");
            }
            #[test]
            fn poison_pill() {
                super::$check::<pill::Timer>("p6-pill");
            }
            #[test]
            fn disconnect() {
                super::$check::<disconnect::Timer>("p6-disc");
            }
            #[test]
            fn timer_style() {
                super::$check::<timer_style::Timer>("p6-tstyle");
            }
        }
    };
}

fn start<T: Version>(prefix: &str) -> (T, String, Recorder) {
    let name = threads::unique_name(prefix);
    let timer = T::start(&name).expect("start the timer");
    (timer, name, Recorder::new())
}

/// A task that records `what` when it runs.
fn record(rec: &Recorder, what: &'static str) -> impl FnOnce() + Send + 'static {
    let rec = rec.clone();
    move || {
        rec.record(what);
    }
}

fn p6_schedule_after_cancel_is_an_error<T: Version>(prefix: &str) {
    let (timer, name, rec) = start::<T>(prefix);
    timer.cancel_timer();
    for delay in [Duration::ZERO, ms(FAR_MS)] {
        let err = timer
            .schedule_task(delay, record(&rec, "task ran"))
            .expect_err("a cancelled timer takes no task");
        assert_eq!(err, ScheduleError::Cancelled);
        assert_eq!(err.to_string(), "Timer already cancelled.");
    }
    drop(timer);
    threads::assert_gone(&name);
    assert_eq!(rec.count("task ran"), 0, "{}", rec.log());
}
on_fixed_versions!(p6_schedule_after_cancel_is_an_error);

/// The article's situation 1: a task runs, nothing else is queued.
fn p6_running_task_is_not_interrupted<T: Version>(prefix: &str) {
    let run = cancel_in::<T>(prefix, Situation::RunningQueueEmpty);
    // cancel returned while the task was still running (cancel_in checks
    // it had not finished), and the task finished after that.
    assert!(run.running_finished_after_cancel, "{}", run.rec.log());
    run.assert_clean_stop(&format!("P6 {}", T::FILE));
}
on_every_version!(p6_running_task_is_not_interrupted);

/// The article's situation 2: a task runs, and three more are queued, due
/// at once. None of them starts.
fn p6_queued_tasks_never_run<T: Version>(prefix: &str) {
    let run = cancel_in::<T>(prefix, Situation::RunningQueued);
    assert!(run.running_finished_after_cancel, "{}", run.rec.log());
    run.assert_clean_stop(&format!("P6 {}", T::FILE));
}
on_every_version!(p6_queued_tasks_never_run);

/// The article's situation 4, with tasks due right after the cancel (100
/// and 150 ms) and one far out: the thread ends at once and runs none.
fn p6_tasks_due_right_after_cancel_never_run<T: Version>(prefix: &str) {
    cancel_in::<T>(prefix, Situation::IdleQueued).assert_clean_stop(&format!("P6 {}", T::FILE));
}
on_fixed_versions!(p6_tasks_due_right_after_cancel_never_run);

fn p6_cancel_is_idempotent<T: Version>(prefix: &str) {
    let (timer, name, rec) = start::<T>(prefix);
    timer
        .schedule_task(ms(FAR_MS), record(&rec, "task ran"))
        .unwrap();
    for _ in 0..3 {
        timer.cancel_timer();
    }
    assert_eq!(
        timer.schedule_task(Duration::ZERO, record(&rec, "task ran")),
        Err(ScheduleError::Cancelled)
    );
    let before = rec.record("drop called");
    drop(timer); // a fourth cancel, and the join
    let after = rec.record("drop returned");
    threads::assert_gone(&name);
    assert!(after - before <= ms(MARGIN_MS), "{}", rec.log());
    assert_eq!(rec.count("task ran"), 0, "{}", rec.log());
}
on_fixed_versions!(p6_cancel_is_idempotent);

fn p6_cancel_from_inside_a_task<T: Version>(prefix: &str) {
    let (timer, name, rec) = start::<T>(prefix);
    let timer = Arc::new(timer);
    let (gate, gate_rx) = mpsc::channel::<()>();
    {
        // A weak handle: the test keeps the only owner, and so the drop
        // that joins the thread.
        let weak = Arc::downgrade(&timer);
        let rec = rec.clone();
        timer
            .schedule_task(Duration::ZERO, move || {
                let _ = gate_rx.recv();
                if let Some(timer) = weak.upgrade() {
                    timer.cancel_timer();
                }
                rec.record("cancel returned inside the task");
            })
            .unwrap();
    }
    // Queued behind the first task before it cancels: discarded.
    timer
        .schedule_task(Duration::ZERO, record(&rec, "next task ran"))
        .unwrap();
    drop(gate);
    assert!(
        rec.eventually("cancel returned inside the task", ms(5000))
            .is_some(),
        "cancel did not return inside the task: a deadlock?\n{}",
        rec.log()
    );
    assert_eq!(
        timer.schedule_task(Duration::ZERO, record(&rec, "next task ran")),
        Err(ScheduleError::Cancelled)
    );
    let timer = Arc::into_inner(timer).expect("the test holds the only owner");
    drop(timer);
    threads::assert_gone(&name);
    assert_eq!(rec.count("next task ran"), 0, "{}", rec.log());
}
on_fixed_versions!(p6_cancel_from_inside_a_task);

fn p6_drop_from_inside_a_task<T: Version>(prefix: &str) {
    let (timer, name, rec) = start::<T>(prefix);
    let timer = Arc::new(timer);
    let (gate, gate_rx) = mpsc::channel::<()>();
    {
        let last_owner = Arc::clone(&timer);
        let rec = rec.clone();
        timer
            .schedule_task(Duration::ZERO, move || {
                let _ = gate_rx.recv();
                drop(last_owner);
                rec.record("dropped the last owner inside the task");
            })
            .unwrap();
    }
    timer
        .schedule_task(Duration::ZERO, record(&rec, "next task ran"))
        .unwrap();
    // From here the task holds the last owner.
    drop(timer);
    drop(gate);
    assert!(
        rec.eventually("dropped the last owner inside the task", ms(5000))
            .is_some(),
        "the drop inside the task did not return: a thread joining itself?\n{}",
        rec.log()
    );
    // That drop could not join the thread it ran on, so nobody joins it:
    // the thread ends by itself once the task returns, and this checks it
    // is gone.
    threads::assert_gone(&name);
    assert_eq!(rec.count("next task ran"), 0, "{}", rec.log());
}
on_fixed_versions!(p6_drop_from_inside_a_task);

/// The drop must come before the first task is due (100 ms), or the test
/// shows nothing: a machine that keeps the test's thread from its core
/// that long gets the scenario set up again, on a new timer (at most
/// `TRIES` times).
fn p6_dropping_the_timer_cancels<T: Version>(prefix: &str) {
    for _ in 0..TRIES {
        let (timer, name, rec) = start::<T>(prefix);
        for delay in [100, 150, FAR_MS] {
            timer
                .schedule_task(ms(delay), record(&rec, "task ran"))
                .unwrap();
        }
        let before = rec.record("drop called");
        drop(timer);
        let after = rec.record("drop returned");
        threads::assert_gone(&name);
        if before >= ms(100) {
            continue; // not the scenario: the first task was due already
        }
        assert!(after - before <= ms(MARGIN_MS), "{}", rec.log());
        assert_eq!(rec.count("task ran"), 0, "{}", rec.log());
        return;
    }
    panic!(
        "precondition: the drop came after the first task was due, {TRIES} times; try \
         KIT_TIME_SCALE=3"
    );
}
on_fixed_versions!(p6_dropping_the_timer_cancels);

fn p6_drop_waits_for_the_running_task<T: Version>(prefix: &str) {
    let (timer, name, rec) = start::<T>(prefix);
    let (gate, gate_rx) = mpsc::channel::<()>();
    {
        let rec = rec.clone();
        timer
            .schedule_task(Duration::ZERO, move || {
                rec.record("task started");
                let _ = gate_rx.recv();
                rec.record("task finished");
            })
            .unwrap();
    }
    rec.eventually("task started", ms(5000))
        .expect("the task started");
    let dropper = {
        let rec = rec.clone();
        spawn("dropper", move || {
            rec.record("drop called");
            drop(timer);
            rec.record("drop returned");
        })
    };
    rec.eventually("drop called", ms(5000))
        .expect("the dropper started");
    // The dropper blocks in the drop (asleep, in the join) while the task
    // runs: the task cannot finish before the gate opens. A drop that did
    // not wait would return instead; that, and a return before the task
    // finished, are both caught below.
    let dropper_name = dropper.thread().name().expect("a named dropper").to_owned();
    threads::asleep_within(&[&dropper_name], ms(HOLD_MS));
    assert_eq!(
        rec.at("drop returned"),
        None,
        "the drop returned while the task was running\n{}",
        rec.log()
    );
    drop(gate);
    dropper.join().expect("the dropper thread");
    threads::assert_gone(&name);
    let finished = rec.at("task finished").expect("the task finished");
    let returned = rec.at("drop returned").expect("the drop returned");
    assert!(finished <= returned, "{}", rec.log());
}
on_fixed_versions!(p6_drop_waits_for_the_running_task);

fn p6_overflowing_delay_is_an_error<T: Version>(prefix: &str) {
    let (timer, name, rec) = start::<T>(prefix);
    assert_eq!(
        timer.schedule_task(Duration::MAX, record(&rec, "never")),
        Err(ScheduleError::DelayOverflow(Duration::MAX))
    );
    // The timer is unharmed.
    timer
        .schedule_task(Duration::ZERO, record(&rec, "task ran"))
        .unwrap();
    assert!(
        rec.eventually("task ran", ms(5000)).is_some(),
        "{}",
        rec.log()
    );
    drop(timer);
    threads::assert_gone(&name);
    assert_eq!(rec.count("never"), 0);
}
on_fixed_versions!(p6_overflowing_delay_is_an_error);

fn p6_nul_in_the_name_is_an_error<T: Version>(_prefix: &str) {
    let err = T::start("bad\0name")
        .err()
        .expect("a NUL in the name is refused");
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
}
on_fixed_versions!(p6_nul_in_the_name_is_an_error);
