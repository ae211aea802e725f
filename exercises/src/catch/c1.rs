//! Catch it, C1 `lost_wakeup`: a timer that can lose the notify of a task
//! scheduled just before its thread waits.
//!
//! Behind this API runs one of several timers, and your test cannot tell
//! which except by what the timer does. Among them:
//!
//! - the racy timer of *A timer that loses a wake-up*
//!   (`condvar-timer/src/racy.rs`): its thread takes the head under the
//!   queue's lock, lets go, and only then takes the monitor and waits; a
//!   task due sooner, scheduled in between, notifies nobody;
//! - correct timers that close the window in different ways: one lock over
//!   the queue and the wait (java.util.Timer's way), a semaphore that keeps
//!   a notify nobody waited for (so a `schedule` made in the window returns
//!   at once), and the poison-pill timer of *A timer that will not stop*;
//! - timers with other bugs of the course.
//!
//! Write a test that fails on the racy one every time, naming C1, and passes
//! on every correct one every time.

use std::io;
use std::time::Duration;

use super::one_thread::Version;

pub use super::{Pause, Point, ScheduleError};

/// The race window: the timer thread has looked at the earliest task, which
/// is not due yet, and has not begun to wait for it.
///
/// In some versions the thread holds the queue's lock here: a `schedule`
/// from another thread then waits until you release the thread, and one
/// from the thread that holds the pause waits forever. In others it holds
/// none, and a `schedule` returns at once. Held once per arm; later passes
/// go through.
pub const WINDOW: Point = Point::new(
    "WINDOW (c1: looked at the earliest task, not yet waiting for it)",
    <Imp as Version>::WINDOW,
);

select!(c1:
    "timer_style" => condvar_timer::timer_style::Timer,
    "something_changed" => condvar_timer::something_changed::TimerQueue,
    "poison_pill" => poison_pill::poison_pill::Timer,
    "racy" => condvar_timer::racy::Timer,
    "sleep_until" => sleep_based::Timer,
    "busy_loop" => naive::Timer,
);

/// A timer with one thread, which runs each task once its delay has passed.
/// (Boxed, so that its size is the same whichever version runs.)
/// Dropping it stops the thread and waits for it; tasks not yet run do not
/// run.
pub struct Timer(Box<Imp>);

impl Timer {
    /// Starts a timer whose thread is named `name` (the name a [`Pause`]
    /// holds it by).
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be started.
    pub fn new(name: &str) -> io::Result<Timer> {
        Ok(Timer(Box::new(Imp::start(name)?)))
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
        Version::schedule(&*self.0, delay, Box::new(task))
    }
}
