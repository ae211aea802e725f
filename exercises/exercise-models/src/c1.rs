//! C1 `lost_wakeup` (*A timer that loses a wake-up*): a timer with one
//! thread built on wait/notify.
//!
//! Racy: `condvar_timer::racy`, which takes the head out of the queue,
//! lets go of the queue's lock, and only then waits on a separate monitor
//! for the head's deadline. Fixed: `condvar_timer::timer_style`, which
//! looks at the head and waits under the one lock a client needs to
//! insert.

use std::time::Duration;

use condvar_timer::{racy, timer_style};

pub use condvar_timer::error::ScheduleError;

use crate::subject::{Subject, subject};

/// A timer with one thread: racy.rs's or timer_style.rs's, the grader's
/// choice.
pub struct Timer(Version);

enum Version {
    Racy(racy::Timer),
    Fixed(timer_style::Timer),
}

impl Timer {
    /// Starts the timer's thread.
    ///
    /// # Panics
    /// If the thread cannot be started, or the grader chose no version.
    pub fn new() -> Timer {
        let name = "model-c1";
        Timer(match subject() {
            Subject::Racy => Version::Racy(racy::Timer::new(name).expect("start the timer")),
            Subject::Fixed => {
                Version::Fixed(timer_style::Timer::new(name).expect("start the timer"))
            }
        })
    }

    /// Runs `task` on the timer's thread once `delay` has passed. Under
    /// loom, `Duration::ZERO` is due at once and [`crate::FAR`] never.
    /// When the new task is due before every queued one, `schedule`
    /// notifies the thread, so that it stops waiting for the later one.
    ///
    /// # Errors
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
}

impl Default for Timer {
    fn default() -> Timer {
        Timer::new()
    }
}

// Dropping a `Timer` drops the version inside: it stops the thread and
// joins it. Tasks still queued are dropped without running.
