//! Catch it, I6 `panic_kills_timer`: a timer whose thread dies with a task
//! that panics, and which goes on accepting tasks it will never run.
//!
//! Behind this API runs one of several timers, and your test cannot tell
//! which except by what the timer does. Among them:
//!
//! - the interruptible timer of *A timer you can interrupt*
//!   (`interrupt-cancel/src/interrupted_only.rs`): a task's panic ends its
//!   thread; `schedule` refuses only once the timer was cancelled, so a
//!   task scheduled after the panic is accepted, with `Ok`, and never runs;
//! - correct timers that keep their promise after a panic, in different
//!   ways: one catches the panic and its thread goes on, one is a scheduled
//!   pool whose worker survives it, one lets its thread die and starts
//!   another;
//! - timers with other bugs of the course.
//!
//! Write a test that fails on the interruptible timer every time, naming
//! I6, and passes on every correct one every time.
//!
//! This bug is no race: there is no window to hold a thread in, and this
//! module has no `WINDOW`. A test makes a task panic, and then asks of the
//! timer what a caller of `schedule` is owed: a task accepted is run.

// Each build wraps one version; in the others this is compiled, unused.
#[allow(dead_code)]
mod respawn;

use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

use interrupt_cancel::{interrupted_only, timer};
use threadpool_executor::factory::Body;
use threadpool_executor::scheduled::ScheduledThreadPool;

use super::p3::rescued::Rescued;

pub use super::ScheduleError;

/// A task, boxed: the one type every version takes.
type Task = Box<dyn FnOnce() + Send>;

/// What every version behind this API does.
trait Version: Sized {
    /// Starts it, its thread named `name`.
    fn start(name: &str) -> io::Result<Self>;
    /// Runs `task` once `delay` has passed.
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError>;
    /// Stops it.
    fn cancel(&self);
}

/// The chapter's finished timer: the panic is caught and reported, and the
/// thread goes on.
impl Version for timer::Timer {
    fn start(name: &str) -> io::Result<Self> {
        Self::new(name)
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        self.schedule(delay, task).map(drop).map_err(from_stage5)
    }
    fn cancel(&self) {
        self.cancel();
    }
}

/// The scheduled pool of *Timers on a pool*, with one worker named
/// `name`: a task's panic completes its future, and the worker goes on.
impl Version for ScheduledThreadPool {
    fn start(name: &str) -> io::Result<Self> {
        if name.contains('\0') {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a thread name cannot contain NUL",
            ));
        }
        let name: Arc<str> = name.into();
        ScheduledThreadPool::builder()
            .core_pool_size(1)
            .thread_factory(move |body: Body| {
                std::thread::Builder::new()
                    .name(name.to_string())
                    .spawn(body)
            })
            .build()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        // The pool's clock saturates where this API's refuses.
        Instant::now()
            .checked_add(delay)
            .ok_or(ScheduleError::DelayOverflow(delay))?;
        // Refused only once shut down: by `cancel`.
        self.schedule(delay, task)
            .map(drop)
            .map_err(|_| ScheduleError::Cancelled)
    }
    fn cancel(&self) {
        // The tasks that never started are discarded.
        drop(self.shutdown_now());
    }
}

/// A thread that dies with the panic, and a successor that goes on: see
/// its file.
impl Version for respawn::Timer {
    fn start(name: &str) -> io::Result<Self> {
        Self::new(name)
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        self.schedule(delay, task)
    }
    fn cancel(&self) {
        self.cancel();
    }
}

/// I6: the thread dies with the panic, and `schedule` goes on saying `Ok`.
impl Version for interrupted_only::Timer {
    fn start(name: &str) -> io::Result<Self> {
        Self::new(name)
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        self.schedule(delay, task).map_err(from_stage5)
    }
    fn cancel(&self) {
        self.cancel();
    }
}

/// Stage 4's first try: P1 (and P2), and I6 too.
impl Version for Rescued<poison_pill::cancel_flag::Timer> {
    fn start(name: &str) -> io::Result<Self> {
        Ok(Rescued::new(
            poison_pill::cancel_flag::Timer::new(name)?,
            name,
        ))
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        Ok(self.get().schedule(delay, task)?)
    }
    fn cancel(&self) {
        self.get().cancel();
    }
}

/// Stage 4's fix 1: P3 (and P1), and I6 too.
impl Version for Rescued<poison_pill::notify_on_cancel::Timer> {
    fn start(name: &str) -> io::Result<Self> {
        Ok(Rescued::new(
            poison_pill::notify_on_cancel::Timer::new(name)?,
            name,
        ))
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        Ok(self.get().schedule(delay, task)?)
    }
    fn cancel(&self) {
        self.get().cancel();
    }
}

/// Stage 5's refusals, as this API says them: the exercise never shuts a
/// timer down nor schedules a repeating task.
fn from_stage5(e: interrupt_cancel::error::ScheduleError) -> ScheduleError {
    use interrupt_cancel::error::ScheduleError as Stage;
    match e {
        Stage::DelayOverflow(d) => ScheduleError::DelayOverflow(d),
        Stage::Cancelled | Stage::ShutDown => ScheduleError::Cancelled,
        Stage::PeriodOverflow(_) | Stage::ZeroPeriod => {
            unreachable!("a one-shot task has no period: {e}")
        }
    }
}

select!(i6:
    "timer" => timer::Timer,
    "scheduled_pool" => ScheduledThreadPool,
    "respawn" => respawn::Timer,
    "interrupted_only" => interrupted_only::Timer,
    "cancel_flag" => Rescued<poison_pill::cancel_flag::Timer>,
    "notify_on_cancel" => Rescued<poison_pill::notify_on_cancel::Timer>,
);

/// A timer that runs each task once its delay has passed. Dropping it
/// cancels it and waits for its thread.
///
/// A version that a cancel can leave waiting on an empty queue for good
/// (P1) is freed when dropped, after `kit::ms(2000)`, so that no test
/// hangs: the drop then returns late instead of never.
// Boxed: the same size in every build, so that `size_of` tells a test
// nothing of the version.
pub struct Timer(Box<Imp>);

impl Timer {
    /// Starts a timer whose thread is named `name`.
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be started.
    pub fn new(name: &str) -> io::Result<Timer> {
        Ok(Timer(Box::new(Imp::start(name)?)))
    }

    /// Runs `task` once `delay` has passed.
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
        Version::schedule(&*self.0, delay, Box::new(task))
    }

    /// Stops the timer: no task starts from now on, and its thread ends.
    pub fn cancel(&self) {
        super::calling("cancel");
        Version::cancel(&*self.0);
    }
}
