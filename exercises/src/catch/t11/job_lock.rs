//! A correct version of T11's future, written for the exercise: the claim
//! is the job's own lock, taken with `try_lock` and held until the job has
//! returned.
//!
//! The stage's future takes its claim by compare-and-swap on a word of its
//! own, and locks the job only to call it. Here the lock on the job *is*
//! the claim: a `run` that cannot take it at once returns, and one that
//! can holds it from its decision to run, through the job, to the
//! outcome. So the runner held in T11's window holds a lock, as the stage's
//! does not, and yet nobody waits for it: the second `run` only tries the
//! lock, and `cancel`, `is_done` and `get_timeout` never take it (they
//! take the state's lock, which the runner holds only for a moment).
//!
//! Under the claim, `run` looks at the state again before it starts the
//! job: a cancel may have come, or the run that held the claim before may
//! have finished the job and dropped it.

use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex, MutexGuard};
use threadpool_executor::future::{FutureError, FutureState};

use super::{Job, TaskOf, Version, message};

/// The version.
pub(super) enum JobLock {}

impl Version for JobLock {
    const WINDOW: &'static str =
        "exercises::catch::t11::job_lock: took the job's lock, job not started";
    type Of<V: Clone + Send + 'static> = Task<V>;
}

/// What the state's lock guards.
struct Slot<V> {
    state: FutureState,
    outcome: Option<Result<V, String>>,
}

/// Its task.
pub(super) struct Task<V> {
    slot: Mutex<Slot<V>>,
    /// Notified (every waiter) at every move out of `New`.
    done: Condvar,
    /// The job, and the claim: locked by the run that runs it, from its
    /// decision to run until the outcome is kept. `None` once the job ran
    /// or was cancelled: dropped, with whatever it captured.
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
        if self.lock().state.is_done() {
            return;
        }
        // The claim. Another run holds it: that one runs the job, and
        // this one has nothing to do.
        let Some(mut claim) = self.job.try_lock() else {
            return;
        };
        kit::pause_point(JobLock::WINDOW);
        // Under the claim, the look that counts.
        if self.lock().state.is_done() {
            // Cancelled while we decided: the job goes now.
            let job = claim.take();
            drop(claim);
            drop(job);
            return;
        }
        let Some(job) = claim.as_mut() else {
            // Ran already, under an earlier claim.
            return;
        };
        let result = panic::catch_unwind(AssertUnwindSafe(job));
        let job = claim.take();
        {
            let mut slot = self.lock();
            // A cancel that came while the job ran wins: its value goes.
            if slot.state == FutureState::New {
                (slot.state, slot.outcome) = match result {
                    Ok(value) => (FutureState::Normal, Some(Ok(value))),
                    Err(panic) => (FutureState::Exceptional, Some(Err(message(&*panic)))),
                };
                self.done.notify_all();
            }
        }
        drop(claim);
        drop(job);
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
        // Drop the job now, unless a run holds the claim: then that run
        // drops it when it looks again, or when the job returns.
        let job = self.job.try_lock().and_then(|mut claim| claim.take());
        drop(job);
        true
    }

    fn is_done(&self) -> bool {
        self.lock().state.is_done()
    }

    fn get_timeout(&self, timeout: Duration) -> Result<V, FutureError> {
        // A timeout too long for the clock is forever.
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
