//! Catch it, T11: a scheduled task's future that can run its job twice.
//!
//! One of two versions runs behind this API, and your test cannot tell which
//! except by what the task does:
//!
//! - the buggy one, written for this exercise (the stage has no such
//!   version; it is below, in this file): the future of *Timers on a pool*
//!   without its runner claim. `run` looks at the state and, seeing it
//!   `New`, runs the job; the state leaves `New` only once the job has
//!   returned. A look is not a claim: two runs that both look before either
//!   has finished both run the job;
//! - the fixed one, the stage's future
//!   (`threadpool-executor/src/future.rs`): `run` takes a claim by
//!   compare-and-swap before it runs the job, and a run that cannot take
//!   it returns at once.
//!
//! Write a test that fails on the first every time, naming T11, and passes
//! on the second every time.

use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};
use threadpool_executor::future::{FutureState, FutureTask};

use super::{Side, side};

pub use super::{Pause, Point};
pub use threadpool_executor::future::FutureError;

/// The buggy version's pause point: the look is done, the job not started.
const UNCLAIMED_POINT: &str = "exercises::catch::t11: saw the task New, job not started";

/// The race window: a thread in `run` has decided to run the job (in one
/// version it has looked at the state, in the other it has taken the
/// claim) and has not started it. The thread held here is the one that
/// calls `run`: name it, and arm the pause with that name.
///
/// In neither version does the held thread hold a lock here. Held once per
/// arm; later passes go through.
pub const WINDOW: Point = Point::new(
    "WINDOW (t11: about to run the job, not started yet)",
    UNCLAIMED_POINT,
    "threadpool-executor::future: claimed the run, job not started",
);

enum Version<V> {
    Buggy(Unclaimed<V>),
    Fixed(FutureTask<V>),
}

/// A job and the future of its result: run it ([`Task::run`]), wait for
/// its value ([`Task::get_timeout`]), or cancel it. However many threads
/// call `run`, the job is meant to run at most once.
pub struct Task<V>(Version<V>);

impl<V: Clone + Send + 'static> Task<V> {
    /// A task that runs `job`.
    pub fn new(job: impl FnMut() -> V + Send + 'static) -> Task<V> {
        Task(match side() {
            Side::Buggy => Version::Buggy(Unclaimed::new(Box::new(job))),
            Side::Fixed => Version::Fixed(FutureTask::new(job)),
        })
    }

    /// Runs the job and keeps its value (or its panic) for `get_timeout`.
    /// Does nothing if the task is done, or (the promise) if another
    /// thread is running it right now.
    pub fn run(&self) {
        super::calling("run");
        match &self.0 {
            Version::Buggy(task) => task.run(),
            Version::Fixed(task) => task.run(),
        }
    }

    /// Cancels the task unless it is done: a task not started never runs.
    /// Returns whether this call cancelled it.
    pub fn cancel(&self) -> bool {
        super::calling("cancel");
        match &self.0 {
            Version::Buggy(task) => task.cancel(),
            Version::Fixed(task) => task.cancel(false),
        }
    }

    /// Whether the task is done: ran, panicked, or was cancelled.
    pub fn is_done(&self) -> bool {
        match &self.0 {
            Version::Buggy(task) => task.lock().state.is_done(),
            Version::Fixed(task) => task.is_done(),
        }
    }

    /// Waits until the task is done, for at most `timeout`, then returns
    /// its value, its panic, or its cancellation.
    ///
    /// # Errors
    /// [`FutureError::Panicked`], [`FutureError::Cancelled`], or
    /// [`FutureError::Timeout`] if it is not done in time.
    pub fn get_timeout(&self, timeout: Duration) -> Result<V, FutureError> {
        match &self.0 {
            Version::Buggy(task) => task.get_timeout(timeout),
            Version::Fixed(task) => task.get_timeout(timeout),
        }
    }
}

/// What the buggy version's lock guards.
struct Slot<V> {
    state: FutureState,
    outcome: Option<Result<V, String>>,
}

/// The buggy version: the stage's future without the claim. Its state is
/// looked at, and later set, under a lock; but nothing holds the task
/// between the look and the end of the job.
struct Unclaimed<V> {
    slot: Mutex<Slot<V>>,
    /// Notified at every move out of `New`.
    done: Condvar,
    job: Mutex<Box<dyn FnMut() -> V + Send>>,
}

impl<V: Clone> Unclaimed<V> {
    fn new(job: Box<dyn FnMut() -> V + Send>) -> Unclaimed<V> {
        Unclaimed {
            slot: Mutex::new(Slot {
                state: FutureState::New,
                outcome: None,
            }),
            done: Condvar::new(),
            job: Mutex::new(job),
        }
    }

    fn lock(&self) -> parking_lot::MutexGuard<'_, Slot<V>> {
        self.slot.lock()
    }

    fn run(&self) {
        // BUG (T11): a look, not a claim. Another run can look too, before
        // this one has finished, and run the job again.
        if self.lock().state != FutureState::New {
            return;
        }
        kit::pause_point(UNCLAIMED_POINT);
        let result = {
            let mut job = self.job.lock();
            panic::catch_unwind(AssertUnwindSafe(|| (*job)()))
        };
        let mut slot = self.lock();
        if slot.state == FutureState::New {
            (slot.state, slot.outcome) = match result {
                Ok(value) => (FutureState::Normal, Some(Ok(value))),
                Err(panic) => (FutureState::Exceptional, Some(Err(message(&*panic)))),
            };
            self.done.notify_all();
        }
    }

    fn cancel(&self) -> bool {
        let mut slot = self.lock();
        if slot.state != FutureState::New {
            return false;
        }
        slot.state = FutureState::Cancelled;
        self.done.notify_all();
        true
    }

    fn get_timeout(&self, timeout: Duration) -> Result<V, FutureError> {
        let deadline = Instant::now().checked_add(timeout);
        let mut slot = self.lock();
        while slot.state == FutureState::New {
            match deadline {
                Some(deadline) if deadline <= Instant::now() => return Err(FutureError::Timeout),
                Some(deadline) => {
                    self.done.wait_until(&mut slot, deadline);
                }
                None => self.done.wait(&mut slot),
            }
        }
        match (&slot.state, &slot.outcome) {
            (FutureState::Normal, Some(Ok(value))) => Ok(value.clone()),
            (FutureState::Exceptional, Some(Err(message))) => {
                Err(FutureError::Panicked(message.clone()))
            }
            _ => Err(FutureError::Cancelled),
        }
    }
}

/// A panic's message, as the stage's future keeps it.
fn message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with a payload that is not a string".to_owned())
}
