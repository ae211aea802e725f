//! Catch it, T11: a scheduled task's future that can run its job twice.
//!
//! Behind this API runs one of several futures, and your test cannot tell
//! which except by what the task does. Among them:
//!
//! - the future of *Timers on a pool* without its runner claim, written for
//!   this exercise (the stage has no such version): `run` looks at the
//!   state and, seeing it `New`, runs the job; the state leaves `New` only
//!   once the job has returned. A look is not a claim: two runs that both
//!   look before either has finished both run the job;
//! - correct futures that claim the run in different ways: a
//!   compare-and-swap on a claim word (the stage's,
//!   `threadpool-executor/src/future.rs`), a `try_lock` on the job's own
//!   lock, held while the job runs, and a state of its own (`Running`) set
//!   under the one lock that guards everything else; they also wake their
//!   waiters differently;
//! - futures with other bugs of the course.
//!
//! Write a test that fails on the one without the claim every time, naming
//! T11, and passes on every correct one every time.

mod job_lock;
mod keeps_job;
mod one_lock;
mod unclaimed;

use std::time::Duration;

use threadpool_executor::future::FutureTask;

pub use super::{Pause, Point};
pub use threadpool_executor::future::FutureError;

/// The race window: a thread in `run` has decided to run the job (it has
/// looked at the state, or taken a claim) and has not started it. The
/// thread held here is the one that calls `run`: name it, and arm the
/// pause with that name.
///
/// In some versions the held thread holds the job's lock here; in others
/// it holds no lock. Either way nothing else waits for it: a `run` from
/// another thread returns at once, `cancel` and `is_done` answer at once,
/// and `get_timeout` waits only for what it always waits for, the task to
/// be done. Held once per arm; later passes go through.
pub const WINDOW: Point = Point::new(
    "WINDOW (t11: about to run the job, not started yet)",
    <Imp as Version>::WINDOW,
);

/// A version's code, as a pointer (see `keep_every_version`): its task's
/// constructor, for one value type, and beside it every other method,
/// kept too (`run` holds the version's pause point).
fn constructor<T: Version>() -> *const () {
    std::hint::black_box([
        <T::Of<u8> as TaskOf<u8>>::run as *const (),
        <T::Of<u8> as TaskOf<u8>>::cancel as *const (),
        <T::Of<u8> as TaskOf<u8>>::is_done as *const (),
        <T::Of<u8> as TaskOf<u8>>::get_timeout as *const (),
    ]);
    <T::Of<u8> as TaskOf<u8>>::new as *const ()
}

select!(t11 keep constructor:
    "fixed" => Stage,
    "job_lock" => job_lock::JobLock,
    "one_lock" => one_lock::OneLock,
    "unclaimed" => unclaimed::Unclaimed,
    "keeps_job" => keeps_job::KeepsJob,
    "panic_escapes" => one_lock::PanicEscapes,
);

/// A job, boxed: what every version runs.
type Job<V> = Box<dyn FnMut() -> V + Send>;

/// One version behind this API: its pause point, and its task type for
/// each value type.
trait Version {
    /// Its `kit::pause_point` where `run` has decided to run the job and
    /// has not started it.
    const WINDOW: &'static str;
    /// Its task, for values of type `V`.
    type Of<V: Clone + Send + 'static>: TaskOf<V>;
}

/// What every version's task does; see [`Task`].
trait TaskOf<V>: Send + Sync {
    /// A task that runs `job`.
    fn new(job: Job<V>) -> Self;
    /// Runs the job, at most once however many threads call it.
    fn run(&self);
    /// Cancels the task unless it is done.
    fn cancel(&self) -> bool;
    /// Ran, panicked, or was cancelled.
    fn is_done(&self) -> bool;
    /// Waits at most `timeout` for the task to be done.
    fn get_timeout(&self, timeout: Duration) -> Result<V, FutureError>;
}

/// Correct: the stage's future (`threadpool-executor/src/future.rs`): `run`
/// takes a claim by compare-and-swap before it runs the job, and a run that
/// cannot take it returns at once. No lock is held in the window.
enum Stage {}

impl Version for Stage {
    const WINDOW: &'static str = "threadpool-executor::future: claimed the run, job not started";
    type Of<V: Clone + Send + 'static> = FutureTask<V>;
}

impl<V: Clone + Send + 'static> TaskOf<V> for FutureTask<V> {
    fn new(job: Job<V>) -> Self {
        FutureTask::new(job)
    }
    fn run(&self) {
        FutureTask::run(self);
    }
    fn cancel(&self) -> bool {
        FutureTask::cancel(self, false)
    }
    fn is_done(&self) -> bool {
        FutureTask::is_done(self)
    }
    fn get_timeout(&self, timeout: Duration) -> Result<V, FutureError> {
        FutureTask::get_timeout(self, timeout)
    }
}

/// A job and the future of its result: run it ([`Task::run`]), wait for
/// its value ([`Task::get_timeout`]), or cancel it. However many threads
/// call `run`, the job is meant to run at most once. (Boxed, so that its
/// size is the same whichever version runs.)
pub struct Task<V: Clone + Send + 'static>(Box<<Imp as Version>::Of<V>>);

impl<V: Clone + Send + 'static> Task<V> {
    /// A task that runs `job`.
    pub fn new(job: impl FnMut() -> V + Send + 'static) -> Task<V> {
        Task(Box::new(TaskOf::new(Box::new(job))))
    }

    /// Runs the job and keeps its value (or its panic: `run` itself
    /// returns) for `get_timeout`. Does nothing if the task is done, or
    /// (the promise) if another thread is running it right now: then it
    /// returns at once, without waiting for that thread.
    pub fn run(&self) {
        super::calling("run");
        TaskOf::run(&*self.0);
    }

    /// Cancels the task unless it is done: a task not started never runs,
    /// and `get_timeout` answers [`FutureError::Cancelled`]. A job already
    /// running runs on, and its value is thrown away. The job, and whatever
    /// it captured, is dropped: at once, or, if a run holds it right now,
    /// when that run is over. Returns whether this call cancelled it.
    pub fn cancel(&self) -> bool {
        super::calling("cancel");
        TaskOf::cancel(&*self.0)
    }

    /// Whether the task is done: ran, panicked, or was cancelled.
    pub fn is_done(&self) -> bool {
        TaskOf::is_done(&*self.0)
    }

    /// Waits until the task is done, for at most `timeout`, then returns
    /// its value, its panic, or its cancellation.
    ///
    /// # Errors
    /// [`FutureError::Panicked`], [`FutureError::Cancelled`], or
    /// [`FutureError::Timeout`] if it is not done in time.
    pub fn get_timeout(&self, timeout: Duration) -> Result<V, FutureError> {
        TaskOf::get_timeout(&*self.0, timeout)
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
