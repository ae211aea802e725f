//! Catch it, C1 `lost_wakeup`: a timer that can lose the notify of a task
//! scheduled just before its thread waits.
//!
//! One of two versions runs behind this API, and your test cannot tell which
//! except by what the timer does:
//!
//! - the buggy one, the racy timer of *A timer that loses a wake-up*
//!   (`condvar-timer/src/racy.rs`): its thread takes the head under the
//!   queue's lock, lets go, and only then takes the monitor and waits; a
//!   task due sooner, scheduled in between, notifies nobody;
//! - the fixed one, java.util.Timer's way from the same chapter
//!   (`condvar-timer/src/timer_style.rs`): one lock over the queue and the
//!   wait, so nothing can slip in between.
//!
//! Write a test that fails on the first every time, naming C1, and passes on
//! the second every time.

use std::io;
use std::time::Duration;

use super::{Side, side};

pub use super::{Pause, Point, ScheduleError};

/// The race window: the timer thread has looked at the earliest task, which
/// is not due yet, and has not begun to wait for it.
///
/// In one of the versions the thread holds the queue's lock here: a
/// `schedule` from another thread then waits until you release the thread,
/// and one from the thread that holds the pause waits forever. Held once per
/// arm; later passes go through.
pub const WINDOW: Point = Point::new(
    "WINDOW (c1: looked at the earliest task, not yet waiting for it)",
    "condvar-timer::racy: took the head, not yet waiting",
    "condvar-timer::timer_style: peeked the head, not yet waiting",
);

enum Version {
    Buggy(condvar_timer::racy::Timer),
    Fixed(condvar_timer::timer_style::Timer),
}

/// A timer with one thread, which runs each task once its delay has passed.
/// Dropping it stops the thread and waits for it; tasks not yet run are
/// dropped unrun.
pub struct Timer(Version);

impl Timer {
    /// Starts a timer whose thread is named `name` (the name a [`Pause`]
    /// holds it by).
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be started.
    pub fn new(name: &str) -> io::Result<Timer> {
        Ok(Timer(match side() {
            Side::Buggy => Version::Buggy(condvar_timer::racy::Timer::new(name)?),
            Side::Fixed => Version::Fixed(condvar_timer::timer_style::Timer::new(name)?),
        }))
    }

    /// Runs `task` on the timer thread once `delay` has passed.
    ///
    /// # Errors
    /// [`ScheduleError::DelayOverflow`] if now + `delay` overflows the clock.
    pub fn schedule(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        super::calling("schedule");
        match &self.0 {
            Version::Buggy(timer) => Ok(timer.schedule(delay, task)?),
            Version::Fixed(timer) => Ok(timer.schedule(delay, task)?),
        }
    }
}
