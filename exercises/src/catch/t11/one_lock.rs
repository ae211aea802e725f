//! A correct version of T11's future, written for the exercise: one lock
//! guards everything, and the claim is a state of its own, `Running`.
//!
//! The stage's future keeps its state in an atomic word, changed by CAS,
//! and a separate claim word: the state stays `New` while the job runs.
//! Here `run` moves the state from `New` to `Running` under the one lock,
//! and takes the job out of the task as it does: a second `run` sees
//! `Running` and returns. No lock is held in T11's window, and the job
//! runs outside the lock.
//!
//! It also wakes its waiters differently: a move to a final state wakes
//! one waiter, which wakes the next as it leaves; and each waiter waits in
//! slices of a few milliseconds, looking again after each. A wake-up with
//! nothing new is harmless, and a notify that found nobody is made good a
//! slice later.
//!
//! The same file holds a buggy version, [`PanicEscapes`]: a `run` that
//! does not catch the job's panic (see there).

use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};
use threadpool_executor::future::FutureError;

use super::{Job, TaskOf, Version, message};

/// The longest a waiter waits before it looks again unasked.
const SLICE: Duration = Duration::from_millis(5);

/// The version.
pub(super) enum OneLock {}

impl Version for OneLock {
    const WINDOW: &'static str =
        "exercises::catch::t11::one_lock: set the task Running, job not started";
    type Of<V: Clone + Send + 'static> = Task<V, true>;
}

/// Another bug, against T12's rule that a task's panic completes its
/// future with the error: `run` calls the job without catching its panic.
/// The panic leaves `run` (and kills the thread that called it, a pool's
/// worker), the state stays `Running`, and `get_timeout` waits for an
/// outcome that never comes: the panic is lost, and the task is never
/// done.
pub(super) enum PanicEscapes {}

impl Version for PanicEscapes {
    const WINDOW: &'static str = OneLock::WINDOW;
    type Of<V: Clone + Send + 'static> = Task<V, false>;
}

/// Where the task is.
enum State<V> {
    New,
    /// A run has claimed it; the job may not have started yet.
    Running,
    Normal(V),
    Exceptional(String),
    Cancelled,
}

/// What the lock guards.
struct Inner<V> {
    state: State<V>,
    /// The job, until a run takes it out or a cancel drops it.
    job: Option<Job<V>>,
}

/// Its task; `CATCHES` is whether `run` catches the job's panic.
pub(super) struct Task<V, const CATCHES: bool> {
    inner: Mutex<Inner<V>>,
    /// Notified (one waiter, who passes it on) at every move to a final
    /// state.
    changed: Condvar,
}

impl<V: Clone + Send + 'static, const CATCHES: bool> TaskOf<V> for Task<V, CATCHES> {
    fn new(job: Job<V>) -> Self {
        Task {
            inner: Mutex::new(Inner {
                state: State::New,
                job: Some(job),
            }),
            changed: Condvar::new(),
        }
    }

    fn run(&self) {
        let job = {
            let mut inner = self.inner.lock();
            if !matches!(inner.state, State::New) {
                return;
            }
            // The claim: the state itself. A second run sees `Running`.
            inner.state = State::Running;
            inner.job.take()
        };
        kit::pause_point(OneLock::WINDOW);
        // A cancel that came while we decided: the job never starts.
        let cancelled = matches!(self.inner.lock().state, State::Cancelled);
        let Some(mut job) = job.filter(|_| !cancelled) else {
            return;
        };
        let result = if CATCHES {
            panic::catch_unwind(AssertUnwindSafe(&mut job))
        } else {
            // BUG (T12): the panic is not caught. It leaves `run` here, and
            // the state stays `Running` for good.
            Ok(job())
        };
        drop(job);
        let mut inner = self.inner.lock();
        // A cancel that came while the job ran wins: its value goes.
        if matches!(inner.state, State::Running) {
            inner.state = match result {
                Ok(value) => State::Normal(value),
                Err(panic) => State::Exceptional(message(&*panic)),
            };
            self.changed.notify_one();
        }
    }

    fn cancel(&self) -> bool {
        let job = {
            let mut inner = self.inner.lock();
            if !matches!(inner.state, State::New | State::Running) {
                return false;
            }
            inner.state = State::Cancelled;
            self.changed.notify_one();
            // Not started: the job is still here, and goes now. Running:
            // its run took it out, and drops it when it is over.
            inner.job.take()
        };
        drop(job);
        true
    }

    fn is_done(&self) -> bool {
        !matches!(self.inner.lock().state, State::New | State::Running)
    }

    fn get_timeout(&self, timeout: Duration) -> Result<V, FutureError> {
        // A timeout too long for the clock is forever.
        let deadline = Instant::now().checked_add(timeout);
        let mut inner = self.inner.lock();
        loop {
            let outcome = match &inner.state {
                State::New | State::Running => None,
                State::Normal(value) => Some(Ok(value.clone())),
                State::Exceptional(message) => Some(Err(FutureError::Panicked(message.clone()))),
                State::Cancelled => Some(Err(FutureError::Cancelled)),
            };
            if let Some(outcome) = outcome {
                // Pass the wake-up on to the next waiter, if any.
                self.changed.notify_one();
                return outcome;
            }
            let slice = match deadline {
                None => SLICE,
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(FutureError::Timeout);
                    }
                    left.min(SLICE)
                }
            };
            self.changed.wait_for(&mut inner, slice);
        }
    }
}
