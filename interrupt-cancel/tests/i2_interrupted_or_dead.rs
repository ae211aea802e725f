//! I2 `interrupted_or_dead`: a task panics and takes the timer thread with
//! it. Nobody interrupted that thread, so a timer that refuses work only
//! when interrupted goes on accepting tasks that will never run.
//!
//! The scenario: task 1 panics at once; the test waits until the timer
//! thread is gone; then it schedules task 2, due 20 ms later.
//!
//! - interrupted_only.rs: `is_interrupted()` is false, so `schedule`
//!   returns `Ok`, and task 2 never runs: there is no thread to run it.
//! - interrupted_or_dead.rs: it checks `is_finished()` too (the Java Timer
//!   article's `!isAlive()`), and refuses: "Timer already cancelled.".
//!
//! The correctness check: once the thread is dead, `schedule` refuses, or
//! else the task it accepted runs.
#![cfg(not(loom))]

use std::time::Duration;

use interrupt_cancel::error::ScheduleError;
use interrupt_cancel::{interrupted_only, interrupted_or_dead};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

const TASK2_DELAY_MS: u64 = 20;
/// How long after its deadline task 2 may run on a live timer.
const MARGIN_MS: u64 = 500;
/// How long after its deadline the reproducing test looks for task 2 on a
/// timer whose thread is gone.
const LOOK_MS: u64 = 100;

/// Task 1's panic message (its `panic!` spells it out, for the reader).
const ON_PURPOSE: &str = "task 1 panics, on purpose";

trait Version: Sized {
    fn start(name: &str) -> Self;
    fn schedule_task(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError>;
}

impl Version for interrupted_only::Timer {
    fn start(name: &str) -> Self {
        interrupted_only::Timer::new(name).unwrap()
    }
    fn schedule_task(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        self.schedule(delay, task)
    }
}

impl Version for interrupted_or_dead::Timer {
    fn start(name: &str) -> Self {
        interrupted_or_dead::Timer::new(name).unwrap()
    }
    fn schedule_task(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        self.schedule(delay, task)
    }
}

/// What happened after the thread died, and the timer (dropped last: its
/// drop joins the dead thread, whose panic is its result).
struct Run<T> {
    timer: T,
    name: String,
    rec: Recorder,
    /// When the test saw the thread gone.
    dead_at: Duration,
    /// When task 2 was scheduled, and what `schedule` said.
    scheduled_at: Duration,
    accepted: Result<(), ScheduleError>,
}

fn after_the_thread_died<T: Version>(prefix: &str) -> Run<T> {
    threads::report_in_one_line(ON_PURPOSE);
    let name = threads::unique_name(prefix);
    let rec = Recorder::new();
    let timer = T::start(&name);
    let r = rec.clone();
    timer
        .schedule_task(Duration::ZERO, move || {
            r.record("task 1 panics");
            panic!("task 1 panics, on purpose");
        })
        .unwrap();
    rec.eventually("task 1 panics", ms(5000))
        .expect("task 1 ran");
    // The thread has its name by then: "gone" now means it has exited.
    assert!(
        threads::gone_within(&name, ms(5000)),
        "the timer thread survived a panicking task\n{}",
        rec.log()
    );
    let dead_at = rec.record_as("test", "the timer thread is gone");
    let scheduled_at = rec.record_as("test", "schedule task 2");
    let r = rec.clone();
    let accepted = timer.schedule_task(ms(TASK2_DELAY_MS), move || {
        r.record("task 2 ran");
    });
    rec.record_as("test", format!("schedule returned {accepted:?}"));
    Run {
        timer,
        name,
        rec,
        dead_at,
        scheduled_at,
        accepted,
    }
}

/// The correctness check: refused, or run.
fn assert_refused_or_run<T>(run: &Run<T>) {
    if run.accepted.is_err() {
        return;
    }
    let due = run.scheduled_at + ms(TASK2_DELAY_MS);
    let until = due + ms(MARGIN_MS);
    if run
        .rec
        .eventually("task 2 ran", until.saturating_sub(run.rec.elapsed()))
        .is_none()
    {
        panic!(
            "I2 interrupted_or_dead: the timer thread died at {} ms (a task panicked; nobody interrupted it), \
             yet schedule at {} ms returned Ok; the task, due at {} ms, had not run at {} ms\n{}",
            in_ms(run.dead_at),
            in_ms(run.scheduled_at),
            in_ms(due),
            in_ms(run.rec.elapsed()),
            run.rec.log()
        );
    }
}

#[test]
fn i2_interrupted_or_dead_reproduces() {
    let run = after_the_thread_died::<interrupted_only::Timer>("i2-only");
    assert_eq!(
        run.accepted,
        Ok(()),
        "schedule on a dead, never interrupted timer\n{}",
        run.rec.log()
    );
    // No thread is left to run it, and `schedule` starts none: it never
    // runs. Looked for a while past its deadline all the same, not the
    // whole MARGIN_MS the check gives a live timer: no wait would change
    // what a timer without a thread does.
    let due = run.scheduled_at + ms(TASK2_DELAY_MS);
    assert_eq!(
        run.rec.still_absent("task 2 ran", due + ms(LOOK_MS)),
        Ok(()),
        "task 2 ran on a dead timer?\n{}",
        run.rec.log()
    );
    assert_eq!(
        threads::tids_named(&run.name).map(|t| t.len()).ok(),
        Some(0),
        "a thread of the timer's name is back\n{}",
        run.rec.log()
    );
    drop(run.timer);
    threads::assert_gone(&run.name);
}

#[test]
fn i2_interrupted_or_dead_fixed() {
    let run = after_the_thread_died::<interrupted_or_dead::Timer>("i2-dead");
    assert_eq!(
        run.accepted,
        Err(ScheduleError::Cancelled),
        "\n{}",
        run.rec.log()
    );
    assert_eq!(
        run.accepted.unwrap_err().to_string(),
        "Timer already cancelled."
    );
    assert_refused_or_run(&run);
    drop(run.timer);
}

#[test]
#[ignore = "I2 interrupted_or_dead: shows the bug in interrupted_only.rs"]
fn i2_interrupted_or_dead_on_interrupted_only() {
    let run = after_the_thread_died::<interrupted_only::Timer>("i2-only");
    assert_refused_or_run(&run);
    drop(run.timer);
}
