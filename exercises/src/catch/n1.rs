//! Catch it, N1 `busy_wait`: a timer whose thread burns a core while a task
//! waits to be due.
//!
//! One of two versions runs behind this API, and your test cannot tell which
//! except by what the timer does:
//!
//! - the buggy one, the busy loop of *A timer that burns a core*
//!   (`naive/src/busy_loop.rs`): its thread takes the task, finds it not
//!   due, puts it back and takes it again, as fast as it can, until it is
//!   due;
//! - the fixed one, the sleeping timer of *A timer that oversleeps*
//!   (`sleep-based/src/sleep_until.rs`): its thread sleeps until the
//!   earliest task is due.
//!
//! Write a test that fails on the first every time, naming N1, and passes on
//! the second every time.
//!
//! This bug is no race: there is no window to hold a thread in, and this
//! module has no `WINDOW`. What the bug costs is a core, so a test measures
//! the timer thread's CPU while a task is pending (`kit::cpu`). The check
//! runs half its runs with every core busy, where a busy loop gets only a
//! slice of a core: judge it by what the thread *demands*
//! ([`CpuShare::is_busy`](kit::cpu::CpuShare::is_busy)), not by what it got.

use std::io;
use std::time::Duration;

use super::{ScheduleError, Side, side};

enum Version {
    Buggy(naive::Timer),
    Fixed(sleep_based::Timer),
}

/// A timer with one thread, which runs each task once its delay has passed.
/// Dropping it stops the thread and waits for it; tasks not yet run are
/// dropped unrun. (In one version the drop waits until the thread wakes for
/// the earliest task: keep delays short.)
pub struct Timer(Version);

impl Timer {
    /// Starts a timer whose thread is named `name` (the name `kit::cpu`
    /// measures it by).
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be started.
    pub fn new(name: &str) -> io::Result<Timer> {
        Ok(Timer(match side() {
            Side::Buggy => Version::Buggy(naive::Timer::new(name)?),
            Side::Fixed => Version::Fixed(sleep_based::Timer::new(name)?),
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
            Version::Buggy(timer) => timer.schedule(delay, task).map_err(|e| match e {
                naive::ScheduleError::DelayOverflow(d) => ScheduleError::DelayOverflow(d),
            }),
            Version::Fixed(timer) => Ok(timer.schedule(delay, task)?),
        }
    }
}
