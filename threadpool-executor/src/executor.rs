//! One trait for the finished versions: the part of Java's
//! `ExecutorService` that every one of them can answer.
//!
//! Stage 5's [`Timer`], the [`ThreadPool`] and the [`ScheduledThreadPool`]
//! each have these calls under their own names and types; the trait puts
//! them behind one shape, so that code (a test, a benchmark, a program
//! moving from one to another) can be written once. Each implementation
//! calls the type's own method: what a call does is documented there.
//!
//! Stage 7's two finished wheels implement it in their own crate, which
//! depends on this one: `wheel::executor::WheelPool` is a wheel and the
//! pool it hands due tasks to (a wheel alone only decides *when*, and its
//! `stop` takes it by value). Stage 8's timer for futures does not: its
//! driver runs no closures, it only wakes tasks that an executor of
//! futures polls, so `execute` and `submit` would be that executor's
//! calls, not the timer's, and `shutdown_now` would have no task to hand
//! back.
//!
//! - `execute` runs a job "soon": at once on a pool, as a zero-delay
//!   task on a timer.
//! - `submit` is built on `execute` the way `AbstractExecutorService`
//!   builds it: the job goes into a [`FutureTask`], and the future of its
//!   value comes back.
//! - `shutdown` takes nothing new and lets what is queued run;
//!   `shutdown_now` also runs nothing more that is queued, asks the
//!   running tasks to stop (stage 5's interrupt), and hands back what never
//!   started.
//!
//! ```
//! use threadpool_executor::ThreadPool;
//! use threadpool_executor::executor::Executor;
//! use std::time::Duration;
//!
//! /// Runs three jobs on any finished version and waits for it to end.
//! fn three_squares(on: &impl Executor) -> Vec<u32> {
//!     let futures: Vec<_> = (1..=3).map(|n| on.submit(move || n * n).unwrap()).collect();
//!     on.shutdown();
//!     assert!(on.await_termination(Duration::from_secs(10)));
//!     futures.iter().map(|f| f.get().unwrap()).collect()
//! }
//!
//! let timer = interrupt_cancel::timer::Timer::new("doc-executor")?;
//! assert_eq!(three_squares(&timer), [1, 4, 9]);
//! assert_eq!(three_squares(&ThreadPool::builder().build()?), [1, 4, 9]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt::Debug;
use std::time::Duration;

use interrupt_cancel::error::ScheduleError;
use interrupt_cancel::timer::{TaskHandle, Timer};

use crate::error::Rejected;
use crate::future::FutureTask;
use crate::pool::ThreadPool;
use crate::scheduled::{ScheduledTask, ScheduledThreadPool};
use crate::submit::{CancelUnrun, Submitted};
use crate::sync::Arc;
use crate::task::Task;

/// A job for [`Executor::execute`].
pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// What every finished version can do: Java's `ExecutorService`, less the
/// calls only a pool has (see the module docs).
pub trait Executor {
    /// What a refusal carries: the job back, or why.
    type Refused: Debug;
    /// What [`shutdown_now`](Executor::shutdown_now) hands back for each
    /// task that never started.
    type Pending;

    /// Runs `job` soon: `Executor.execute(Runnable)`.
    ///
    /// # Errors
    /// The version refused it: it is shut down, or its policy said no.
    fn execute(&self, job: Job) -> Result<(), Self::Refused>;

    /// Runs `job` and returns the future of its value:
    /// `ExecutorService.submit(Callable)`. A panic in the job is the
    /// future's ([`Submitted::take_panic`]). A job the version drops
    /// without running it (a `shutdown_now`, a drop) cancels its future,
    /// whose `get` would otherwise wait forever.
    ///
    /// # Errors
    /// As [`execute`](Executor::execute).
    fn submit<V, F>(&self, job: F) -> Result<Submitted<V>, Self::Refused>
    where
        V: Send + 'static,
        F: FnOnce() -> V + Send + 'static,
    {
        let task = Arc::new(FutureTask::once(job));
        let run = CancelUnrun::new(Arc::clone(&task));
        self.execute(Box::new(move || run.run()))?;
        Ok(Submitted::of(task))
    }

    /// Takes nothing new; what is queued still runs. Does not wait.
    fn shutdown(&self);

    /// Takes nothing new, starts nothing queued, asks the running tasks to
    /// stop, and hands back every task that never started.
    fn shutdown_now(&self) -> Vec<Self::Pending>;

    /// Waits up to `timeout` for every thread to end after a shutdown;
    /// true if they have.
    fn await_termination(&self, timeout: Duration) -> bool;

    /// Whether `shutdown` or `shutdown_now` was called.
    fn is_shutdown(&self) -> bool;

    /// Whether it is shut down and every thread has ended.
    fn is_terminated(&self) -> bool;
}

impl Executor for ThreadPool<Task> {
    type Refused = Rejected<Task>;
    type Pending = Task;

    fn execute(&self, job: Job) -> Result<(), Rejected<Task>> {
        ThreadPool::execute(self, job)
    }

    /// The pool's own `submit`: its future has a
    /// [`task_id`](Submitted::task_id), for `remove` and `purge`.
    fn submit<V, F>(&self, job: F) -> Result<Submitted<V>, Rejected<Task>>
    where
        V: Send + 'static,
        F: FnOnce() -> V + Send + 'static,
    {
        ThreadPool::submit(self, job)
    }

    fn shutdown(&self) {
        ThreadPool::shutdown(self);
    }

    fn shutdown_now(&self) -> Vec<Task> {
        ThreadPool::shutdown_now(self)
    }

    fn await_termination(&self, timeout: Duration) -> bool {
        ThreadPool::await_termination(self, timeout)
    }

    fn is_shutdown(&self) -> bool {
        ThreadPool::is_shutdown(self)
    }

    fn is_terminated(&self) -> bool {
        ThreadPool::is_terminated(self)
    }
}

impl Executor for ScheduledThreadPool {
    type Refused = Rejected<Arc<ScheduledTask>>;
    type Pending = Arc<ScheduledTask>;

    fn execute(&self, job: Job) -> Result<(), Self::Refused> {
        ScheduledThreadPool::execute(self, job)
    }

    fn shutdown(&self) {
        ScheduledThreadPool::shutdown(self);
    }

    fn shutdown_now(&self) -> Vec<Arc<ScheduledTask>> {
        ScheduledThreadPool::shutdown_now(self)
    }

    fn await_termination(&self, timeout: Duration) -> bool {
        ScheduledThreadPool::await_termination(self, timeout)
    }

    fn is_shutdown(&self) -> bool {
        ScheduledThreadPool::is_shutdown(self)
    }

    fn is_terminated(&self) -> bool {
        ScheduledThreadPool::is_terminated(self)
    }
}

/// Stage 5's timer: `execute` is a task due now, on the timer's one
/// thread, after those already due.
impl Executor for Timer {
    type Refused = ScheduleError;
    type Pending = TaskHandle;

    fn execute(&self, job: Job) -> Result<(), ScheduleError> {
        self.schedule(Duration::ZERO, job).map(drop)
    }

    fn shutdown(&self) {
        Timer::shutdown(self);
    }

    fn shutdown_now(&self) -> Vec<TaskHandle> {
        Timer::shutdown_now(self)
    }

    fn await_termination(&self, timeout: Duration) -> bool {
        Timer::await_termination(self, timeout)
    }

    fn is_shutdown(&self) -> bool {
        Timer::is_shutdown(self)
    }

    fn is_terminated(&self) -> bool {
        Timer::is_terminated(self)
    }
}
