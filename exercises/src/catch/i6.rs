//! Catch it, I6 `panic_kills_timer`: a timer whose thread dies with a task
//! that panics, and which goes on accepting tasks it will never run.
//!
//! One of two versions runs behind this API, and your test cannot tell which
//! except by what the timer does:
//!
//! - the buggy one, the interruptible timer of *A timer you can interrupt*
//!   (`interrupt-cancel/src/interrupted_only.rs`): a task's panic ends its
//!   thread; `schedule` refuses only once the timer was cancelled, so a
//!   task scheduled after the panic is accepted, with `Ok`, and never runs;
//! - the fixed one, the chapter's finished Timer
//!   (`interrupt-cancel/src/timer.rs`): the panic is caught and reported,
//!   and the thread goes on running tasks.
//!
//! Write a test that fails on the first every time, naming I6, and passes on
//! the second every time.
//!
//! This bug is no race: there is no window to hold a thread in, and this
//! module has no `WINDOW`. A test makes a task panic, and then asks of the
//! timer what a caller of `schedule` is owed: a task accepted is run.

use std::io;
use std::time::Duration;

use interrupt_cancel::{interrupted_only, timer};

use super::{ScheduleError, Side, side};

enum Version {
    Buggy(interrupted_only::Timer),
    Fixed(timer::Timer),
}

/// A timer with one thread, which runs each task once its delay has
/// passed. Dropping it cancels it and waits for its thread.
pub struct Timer(Version);

impl Timer {
    /// Starts a timer whose thread is named `name`.
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be started.
    pub fn new(name: &str) -> io::Result<Timer> {
        Ok(Timer(match side() {
            Side::Buggy => Version::Buggy(interrupted_only::Timer::new(name)?),
            Side::Fixed => Version::Fixed(timer::Timer::new(name)?),
        }))
    }

    /// Runs `task` on the timer thread once `delay` has passed.
    ///
    /// # Errors
    /// [`ScheduleError::Cancelled`] if the timer takes no more tasks;
    /// [`ScheduleError::DelayOverflow`] if now + `delay` overflows the clock.
    pub fn schedule(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        super::calling("schedule");
        let result = match &self.0 {
            Version::Buggy(timer) => timer.schedule(delay, task),
            Version::Fixed(timer) => timer.schedule(delay, task).map(drop),
        };
        result.map_err(|e| {
            use interrupt_cancel::error::ScheduleError as Stage;
            match e {
                Stage::DelayOverflow(d) => ScheduleError::DelayOverflow(d),
                Stage::Cancelled => ScheduleError::Cancelled,
                Stage::ShutDown => unreachable!("the exercise never shuts its timer down"),
                Stage::PeriodOverflow(_) | Stage::ZeroPeriod => {
                    unreachable!("a one-shot task has no period: {e}")
                }
            }
        })
    }

    /// Stops the timer: no task starts from now on, and its thread ends.
    pub fn cancel(&self) {
        super::calling("cancel");
        match &self.0 {
            Version::Buggy(timer) => timer.cancel(),
            Version::Fixed(timer) => timer.cancel(),
        }
    }
}
