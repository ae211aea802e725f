//! The bug (T11), written for the exercise (the stage has no such
//! version): the future of *Timers on a pool* without its runner claim.
//! `run` looks at the state and, seeing it `New`, runs the job; the state
//! leaves `New` only once the job has returned. A look is not a claim: two
//! runs that both look before either has finished both run the job.
//!
//! Everything else is as the correct versions do it: the state and the
//! outcome under a lock, waiters woken at every move out of `New`, and a
//! cancel that drops the job at once.

use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex, MutexGuard};
use threadpool_executor::future::{FutureError, FutureState};

use super::{Job, TaskOf, Version, message};

/// The version.
pub(super) enum Unclaimed {}

impl Version for Unclaimed {
    const WINDOW: &'static str =
        "exercises::catch::t11::unclaimed: saw the task New, job not started";
    type Of<V: Clone + Send + 'static> = Task<V>;
}

/// What the lock guards.
struct Slot<V> {
    state: FutureState,
    outcome: Option<Result<V, String>>,
}

/// Its task. Its state is looked at, and later set, under a lock; but
/// nothing holds the task between the look and the end of the job.
pub(super) struct Task<V> {
    slot: Mutex<Slot<V>>,
    /// Notified at every move out of `New`.
    done: Condvar,
    /// The job, kept (an `FnMut`, it could run again) until a cancel drops
    /// it.
    job: Mutex<Option<Job<V>>>,
}

impl<V> Task<V> {
    fn lock(&self) -> MutexGuard<'_, Slot<V>> {
        self.slot.lock()
    }
}

impl<V: Clone + Send + 'static> TaskOf<V> for Task<V> {
    fn new(job: Job<V>) -> Task<V> {
        Task {
            slot: Mutex::new(Slot {
                state: FutureState::New,
                outcome: None,
            }),
            done: Condvar::new(),
            job: Mutex::new(Some(job)),
        }
    }

    fn run(&self) {
        // BUG (T11): a look, not a claim. Another run can look too, before
        // this one has finished, and run the job again.
        if self.lock().state != FutureState::New {
            return;
        }
        kit::pause_point(Unclaimed::WINDOW);
        let result = {
            let mut job = self.job.lock();
            let Some(job) = job.as_mut() else {
                // Dropped by a cancel.
                return;
            };
            panic::catch_unwind(AssertUnwindSafe(job))
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
        {
            let mut slot = self.lock();
            if slot.state != FutureState::New {
                return false;
            }
            slot.state = FutureState::Cancelled;
            self.done.notify_all();
        }
        // Drop the job now, unless a run holds it right now.
        let job = self.job.try_lock().and_then(|mut job| job.take());
        drop(job);
        true
    }

    fn is_done(&self) -> bool {
        self.lock().state.is_done()
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
