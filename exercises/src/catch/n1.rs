//! Catch it, N1 `busy_wait`: a timer whose thread burns a core while a task
//! waits to be due.
//!
//! Behind this API runs one of several timers, and your test cannot tell
//! which except by what the timer does. Among them:
//!
//! - the busy loop of *A timer that burns a core*
//!   (`naive/src/busy_loop.rs`): its thread takes the task, finds it not
//!   due, puts it back and takes it again, as fast as it can, until it is
//!   due;
//! - correct timers, whose threads block until the earliest task is due:
//!   on a condition variable, on a semaphore, on a poison-pill queue;
//! - timers with other bugs of the course.
//!
//! Write a test that fails on the busy loop every time, naming N1, and
//! passes on every correct one every time.
//!
//! This bug is no race: there is no window to hold a thread in, and this
//! module has no `WINDOW`. What the bug costs is a core, so a test measures
//! the timer thread's CPU while a task is pending (`kit::cpu`). The check
//! runs half its runs with every core busy, where a busy loop gets only a
//! slice of a core: judge it by what the thread *demands*
//! ([`CpuShare::is_busy`](kit::cpu::CpuShare::is_busy)), not by what it got.

use std::io;
use std::time::Duration;

use super::one_thread::Version;

pub use super::ScheduleError;

select!(n1:
    "timer_style" => condvar_timer::timer_style::Timer,
    "something_changed" => condvar_timer::something_changed::TimerQueue,
    "poison_pill" => poison_pill::poison_pill::Timer,
    "busy_loop" => naive::Timer,
    "sleep_until" => sleep_based::Timer,
    "racy" => condvar_timer::racy::Timer,
);

/// A timer with one thread, which runs each task once its delay has passed.
/// (Boxed, so that its size is the same whichever version runs.)
/// Dropping it stops the thread and waits for it; tasks not yet run do not
/// run.
pub struct Timer(Box<Imp>);

impl Timer {
    /// Starts a timer whose thread is named `name` (the name `kit::cpu`
    /// measures it by).
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
