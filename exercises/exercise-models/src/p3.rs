//! P3 `cancel_notify_race` (*A timer that will not stop*): cancelling a
//! timer whose thread waits for a far deadline.
//!
//! Racy: `poison_pill::notify_on_cancel`, whose `cancel` sets a flag and
//! notifies the monitor the thread waits on for the head's deadline; the
//! thread reads the flag at the top of its loop, before it takes the head
//! and waits. Fixed: `poison_pill::poison_pill`, whose `cancel` puts a pill
//! into the queue the thread does all its waiting in.
//!
//! The racy version has a second bug, P1 `cancel_hangs_idle`: a thread
//! blocked in `take` on an empty queue never hears the notify. A model that
//! finds P1 instead of P3 is told so by the grader.

use std::time::Duration;

use poison_pill::{notify_on_cancel, poison_pill as pill};

pub use poison_pill::error::ScheduleError;

use crate::subject::{Subject, subject};

/// A cancellable timer with one thread: notify_on_cancel.rs's or
/// poison_pill.rs's, the grader's choice.
pub struct Timer(Version);

enum Version {
    Racy(notify_on_cancel::Timer),
    Fixed(pill::Timer),
}

impl Timer {
    /// Starts the timer's thread.
    ///
    /// # Panics
    /// If the thread cannot be started, or the grader chose no version.
    pub fn new() -> Timer {
        let name = "model-p3";
        Timer(match subject() {
            Subject::Racy => {
                Version::Racy(notify_on_cancel::Timer::new(name).expect("start the timer"))
            }
            Subject::Fixed => Version::Fixed(pill::Timer::new(name).expect("start the timer")),
        })
    }

    /// Runs `task` on the timer's thread once `delay` has passed. Under
    /// loom, `Duration::ZERO` is due at once and [`crate::FAR`] never.
    ///
    /// # Errors
    /// [`ScheduleError::Cancelled`] once the timer is cancelled;
    /// [`ScheduleError::DelayOverflow`] if the deadline overflows the clock.
    pub fn schedule<F>(&self, delay: Duration, task: F) -> Result<(), ScheduleError>
    where
        F: FnOnce() + Send + 'static,
    {
        match &self.0 {
            Version::Racy(timer) => timer.schedule(delay, task),
            Version::Fixed(timer) => timer.schedule(delay, task),
        }
    }

    /// Asks the timer to stop, and returns at once; later calls do nothing.
    /// Dropping the timer cancels it too, then joins its thread: the drop
    /// returns once the thread has ended.
    pub fn cancel(&self) {
        match &self.0 {
            Version::Racy(timer) => timer.cancel(),
            Version::Fixed(timer) => timer.cancel(),
        }
    }
}

impl Default for Timer {
    fn default() -> Timer {
        Timer::new()
    }
}
