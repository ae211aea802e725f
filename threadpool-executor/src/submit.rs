//! ExecutorService's calls on top of `execute`: `submit`, which hands
//! back a future of the job's result; `invoke_all`, which runs many and
//! waits for all; and `invoke_any`, which runs many and takes the first
//! that returns.
//!
//! Each is built the way the JDK builds them in `AbstractExecutorService`:
//! the job goes into a [`FutureTask`], and the pool runs the task.
//! Nothing here touches the pool's insides: a rejected job comes back in
//! the `Err` exactly as `execute`'s does.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::error::{InvokeError, Rejected};
use crate::future::{FutureError, FutureState, FutureTask};
use crate::pool::{Core, ThreadPool};
use crate::sync::Arc;
use crate::task::{Task, TaskId};
use std::sync::Weak;

/// The future of a job given to [`ThreadPool::submit`]: wait for its
/// value, cancel it, or take its panic.
///
/// ```
/// use threadpool_executor::ThreadPool;
///
/// let pool = ThreadPool::builder().build()?;
/// let answer = pool.submit(|| 6 * 7).unwrap();
/// assert_eq!(answer.get(), Ok(42));
///
/// let failed = pool.submit(|| -> u32 { std::panic::panic_any(7_u8) }).unwrap();
/// assert!(failed.get().is_err());
/// // The payload itself, as Java's ExecutionException carries its cause.
/// let payload = failed.take_panic().unwrap();
/// assert_eq!(payload.downcast_ref::<u8>(), Some(&7));
/// # Ok::<(), threadpool_executor::error::ConfigError>(())
/// ```
pub struct Submitted<V> {
    task: Arc<FutureTask<V>>,
    /// The pool that took it, and under which id: for
    /// [`Submitted::task_id`], and for `purge` to hear of a cancel.
    origin: Option<Origin>,
}

/// Where a [`ThreadPool::submit`]ted job went.
struct Origin {
    pool: Weak<Core<Task>>,
    id: TaskId,
}

impl<V> Submitted<V> {
    /// The future of `task`, which the caller has handed to a version to
    /// run.
    pub(crate) fn of(task: Arc<FutureTask<V>>) -> Submitted<V> {
        Submitted { task, origin: None }
    }

    /// Which task of the pool runs the job: the id
    /// [`ThreadPool::remove`] takes and
    /// [`ThreadPool::shutdown_now_with_ids`] hands back. `None` for a
    /// future that came from another version (through the
    /// [`Executor`](crate::executor::Executor) trait).
    ///
    /// ```
    /// use threadpool_executor::ThreadPool;
    /// use threadpool_executor::future::FutureError;
    /// use std::sync::mpsc;
    ///
    /// let pool = ThreadPool::builder().core_pool_size(1).maximum_pool_size(1).build()?;
    /// let (go, wait) = mpsc::channel::<()>();
    /// pool.execute(move || wait.recv().unwrap()).unwrap();
    /// let queued = pool.submit(|| 1).unwrap();
    /// assert!(pool.remove(queued.task_id().unwrap()));
    /// assert_eq!(queued.get(), Err(FutureError::Cancelled), "it will never run");
    /// go.send(()).unwrap();
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    pub fn task_id(&self) -> Option<TaskId> {
        self.origin.as_ref().map(|origin| origin.id)
    }

    /// Waits until the job is done, then returns a clone of its value.
    ///
    /// # Errors
    /// [`FutureError::Panicked`] with the panic's message (the payload:
    /// [`take_panic`](Submitted::take_panic)), or
    /// [`FutureError::Cancelled`].
    pub fn get(&self) -> Result<V, FutureError>
    where
        V: Clone,
    {
        self.task.get()
    }

    /// As [`get`](Submitted::get), waiting at most `timeout`.
    ///
    /// # Errors
    /// As `get`, and [`FutureError::Timeout`] if the job is not done in
    /// time (it goes on; cancel it if it should not).
    pub fn get_timeout(&self, timeout: Duration) -> Result<V, FutureError>
    where
        V: Clone,
    {
        self.task.get_timeout(timeout)
    }

    /// Waits at most `timeout` (`None`: no limit) and hands the value to
    /// `read` where it lies, for a value that is not `Clone`.
    ///
    /// # Errors
    /// As [`get_timeout`](Submitted::get_timeout).
    pub fn get_with<R>(
        &self,
        timeout: Option<Duration>,
        read: impl FnOnce(&V) -> R,
    ) -> Result<R, FutureError> {
        self.task.get_with(timeout, read)
    }

    /// Cancels the job unless it is done; with `may_interrupt`, a running
    /// job is interrupted (it sees it through
    /// [`interrupt::check`](crate::interrupt::check)). Returns whether this
    /// call cancelled it.
    pub fn cancel(&self, may_interrupt: bool) -> bool {
        let cancelled = self.task.cancel(may_interrupt);
        if cancelled
            && let Some(origin) = &self.origin
            && let Some(pool) = origin.pool.upgrade()
        {
            // It may still be queued: `purge` will look for it.
            pool.cancelled_while_queued(origin.id);
        }
        cancelled
    }

    /// Whether the job is done: returned, panicked, or cancelled.
    pub fn is_done(&self) -> bool {
        self.task.is_done()
    }

    /// Whether the job was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.task.is_cancelled()
    }

    /// Where the job is in its life.
    pub fn state(&self) -> FutureState {
        self.task.state()
    }

    /// The payload the job panicked with, once: see
    /// [`FutureTask::take_panic`].
    pub fn take_panic(&self) -> Option<Box<dyn std::any::Any + Send>> {
        self.task.take_panic()
    }

    fn wait(&self, deadline: Option<Instant>) -> bool {
        let timeout = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        self.task.get_with(timeout, |_| ()) != Err(FutureError::Timeout)
    }
}

impl<V> std::fmt::Debug for Submitted<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Submitted")
            .field("state", &self.state())
            .finish()
    }
}

impl ThreadPool<Task> {
    // ANCHOR: submit
    /// Runs `job` on the pool and returns the future of its value: Java's
    /// `submit(Callable)`. (`submit(Runnable)` is a job that returns `()`.)
    /// A job that panics does not end its worker: the panic is the
    /// future's, as Java's `FutureTask` keeps a task's exception.
    ///
    /// ```
    /// let pool = threadpool_executor::ThreadPool::builder().build()?;
    /// let answer = pool.submit(|| 6 * 7).unwrap();
    /// let failed = pool.submit(|| -> u32 { panic!("boom") }).unwrap();
    /// assert_eq!(answer.get(), Ok(42));
    /// assert!(failed.get().is_err(), "the panic is the future's");
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    ///
    /// # Errors
    /// As [`ThreadPool::execute`]: the pool's policy refused it, and the
    /// task (which would run the job) comes back in the error.
    pub fn submit<V, F>(&self, job: F) -> Result<Submitted<V>, Rejected<Task>>
    where
        V: Send + 'static,
        F: FnOnce() -> V + Send + 'static,
    {
        let task = Arc::new(FutureTask::once(job));
        let run = CancelUnrun::new(Arc::clone(&task));
        let id = self.execute_with_id(move || run.run())?;
        Ok(Submitted {
            task,
            origin: Some(Origin {
                pool: Arc::downgrade(self.core()),
                id,
            }),
        })
    }
    // ANCHOR_END: submit

    /// Runs every job and waits until each is done (returned, panicked):
    /// Java's `invokeAll`. The futures come back in the order of `jobs`.
    ///
    /// ```
    /// let pool = threadpool_executor::ThreadPool::builder().build()?;
    /// let done = pool.invoke_all((1..=3).map(|n| move || n * n)).unwrap();
    /// let squares: Vec<u32> = done.iter().map(|f| f.get().unwrap()).collect();
    /// assert_eq!(squares, [1, 4, 9]);
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    ///
    /// # Errors
    /// If the pool refuses a job, every job already submitted is cancelled
    /// (interrupting those running) and the refusal comes back.
    pub fn invoke_all<V, F>(
        &self,
        jobs: impl IntoIterator<Item = F>,
    ) -> Result<Vec<Submitted<V>>, Rejected<Task>>
    where
        V: Send + 'static,
        F: FnOnce() -> V + Send + 'static,
    {
        self.invoke_all_until(jobs, None)
    }

    /// As [`invoke_all`](ThreadPool::invoke_all), waiting at most
    /// `timeout` in all: jobs not done by then are cancelled (interrupting
    /// those running), as Java's timed `invokeAll` does. As there, a job
    /// whose turn to be submitted comes after the deadline is not
    /// submitted at all: its future comes back cancelled. So a zero
    /// timeout is no error (Java allows zero and negative ones): it runs
    /// nothing and hands back every future cancelled.
    ///
    /// ```
    /// use std::time::Duration;
    /// use threadpool_executor::ThreadPool;
    ///
    /// let pool = ThreadPool::builder().build()?;
    /// let jobs: Vec<fn() -> u32> = vec![|| 1, || 2];
    /// let futures = pool.invoke_all_timeout(jobs, Duration::ZERO).unwrap();
    /// assert!(futures.iter().all(|f| f.is_cancelled()));
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    ///
    /// # Errors
    /// As `invoke_all`.
    pub fn invoke_all_timeout<V, F>(
        &self,
        jobs: impl IntoIterator<Item = F>,
        timeout: Duration,
    ) -> Result<Vec<Submitted<V>>, Rejected<Task>>
    where
        V: Send + 'static,
        F: FnOnce() -> V + Send + 'static,
    {
        // A timeout too long for the clock is no limit.
        self.invoke_all_until(jobs, Instant::now().checked_add(timeout))
    }

    fn invoke_all_until<V, F>(
        &self,
        jobs: impl IntoIterator<Item = F>,
        deadline: Option<Instant>,
    ) -> Result<Vec<Submitted<V>>, Rejected<Task>>
    where
        V: Send + 'static,
        F: FnOnce() -> V + Send + 'static,
    {
        let mut all = Vec::new();
        for job in jobs {
            if deadline.is_some_and(|deadline| deadline <= Instant::now()) {
                // Out of time before its turn: Java's timed invokeAll
                // does not execute it either.
                let never = Arc::new(FutureTask::once(job));
                never.cancel(false);
                all.push(Submitted::of(never));
                continue;
            }
            match self.submit(job) {
                Ok(submitted) => all.push(submitted),
                Err(rejected) => {
                    cancel_all(&all);
                    return Err(rejected);
                }
            }
        }
        for submitted in &all {
            if !submitted.wait(deadline) {
                cancel_all(&all);
                break;
            }
        }
        Ok(all)
    }

    // ANCHOR: invoke_any
    /// Runs every job and returns the value of the first that returns
    /// without panicking, cancelling the rest (interrupting those
    /// running): Java's `invokeAny`.
    ///
    /// ```
    /// use threadpool_executor::ThreadPool;
    /// use threadpool_executor::error::InvokeError;
    ///
    /// let pool = ThreadPool::builder().core_pool_size(2).maximum_pool_size(2).build()?;
    /// let jobs: Vec<fn() -> u32> = vec![|| panic!("no luck"), || 7];
    /// assert_eq!(pool.invoke_any(jobs), Ok(7));
    /// let none: Vec<fn() -> u32> = Vec::new();
    /// assert_eq!(pool.invoke_any(none), Err(InvokeError::NoJobs));
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    ///
    /// # Errors
    /// [`InvokeError::NoJobs`] for no jobs (Java throws
    /// `IllegalArgumentException`), [`InvokeError::AllPanicked`] with the
    /// last panic's message if every job panicked (Java's
    /// `ExecutionException`), [`InvokeError::Rejected`] if the pool
    /// refused a job and none had returned yet.
    pub fn invoke_any<V, F>(&self, jobs: impl IntoIterator<Item = F>) -> Result<V, InvokeError>
    where
        V: Send + 'static,
        F: FnOnce() -> V + Send + 'static,
    {
        self.invoke_any_until(jobs, None)
    }
    // ANCHOR_END: invoke_any

    /// As [`invoke_any`](ThreadPool::invoke_any), waiting at most
    /// `timeout` for a job to return. A zero timeout is no error (Java
    /// allows zero and negative ones): every job is submitted, and the
    /// call answers [`InvokeError::Timeout`] unless one has returned by
    /// the time it looks.
    ///
    /// ```
    /// use std::time::Duration;
    /// use threadpool_executor::error::InvokeError;
    ///
    /// let pool = threadpool_executor::ThreadPool::builder().build()?;
    /// let quick: Vec<fn() -> u32> = vec![|| 7];
    /// assert_eq!(pool.invoke_any_timeout(quick, Duration::from_secs(10)), Ok(7));
    /// let never = vec![|| threadpool_executor::interrupt::current().unwrap().sleep(Duration::MAX)];
    /// let late = pool.invoke_any_timeout(never, Duration::from_millis(5));
    /// assert_eq!(late.err(), Some(InvokeError::Timeout), "and the job is interrupted");
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    ///
    /// # Errors
    /// As `invoke_any`, and [`InvokeError::Timeout`] if none returned in
    /// time (every job is then cancelled): Java's `TimeoutException`.
    pub fn invoke_any_timeout<V, F>(
        &self,
        jobs: impl IntoIterator<Item = F>,
        timeout: Duration,
    ) -> Result<V, InvokeError>
    where
        V: Send + 'static,
        F: FnOnce() -> V + Send + 'static,
    {
        self.invoke_any_until(jobs, Instant::now().checked_add(timeout))
    }

    fn invoke_any_until<V, F>(
        &self,
        jobs: impl IntoIterator<Item = F>,
        deadline: Option<Instant>,
    ) -> Result<V, InvokeError>
    where
        V: Send + 'static,
        F: FnOnce() -> V + Send + 'static,
    {
        // Each job reports how it ended on one channel; the first value
        // wins. Java's ExecutorCompletionService plays this part.
        let (done, outcomes) = mpsc::channel();
        let mut all: Vec<Submitted<()>> = Vec::new();
        let mut refused = None;
        for job in jobs {
            let done = done.clone();
            let submitted = self.submit(move || {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                let _ = done.send(outcome);
            });
            match submitted {
                Ok(submitted) => all.push(submitted),
                Err(rejected) => {
                    refused = Some(rejected.reason());
                    break;
                }
            }
        }
        drop(done);
        if all.is_empty() {
            return Err(refused.map_or(InvokeError::NoJobs, InvokeError::Rejected));
        }
        let mut last_panic = None;
        let outcome = loop {
            let next = match deadline {
                Some(deadline) => outcomes
                    .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                    .map_err(|e| e == mpsc::RecvTimeoutError::Timeout),
                None => outcomes.recv().map_err(|_| false),
            };
            match next {
                Ok(Ok(value)) => break Ok(value),
                Ok(Err(panic)) => {
                    last_panic = Some(crate::builder::panic_message(&*panic).to_owned())
                }
                Err(true) => break Err(InvokeError::Timeout),
                // Every job ended (or was cancelled) without a value.
                Err(false) => {
                    break Err(match (refused, last_panic) {
                        (Some(reason), None) => InvokeError::Rejected(reason),
                        (_, message) => InvokeError::AllPanicked(message.unwrap_or_default()),
                    });
                }
            }
        };
        cancel_all(&all);
        outcome
    }
}

/// What the pool's task holds of a submitted job: dropped unrun (removed,
/// handed back by `shutdown_now` and dropped, discarded), it cancels the
/// job's future, whose `get` would otherwise wait forever.
pub(crate) struct CancelUnrun<V>(Option<Arc<FutureTask<V>>>);

impl<V> CancelUnrun<V> {
    pub(crate) fn new(task: Arc<FutureTask<V>>) -> CancelUnrun<V> {
        CancelUnrun(Some(task))
    }

    pub(crate) fn run(mut self) {
        if let Some(task) = self.0.take() {
            task.run();
        }
    }
}

impl<V> Drop for CancelUnrun<V> {
    fn drop(&mut self) {
        if let Some(task) = self.0.take() {
            task.cancel(false);
        }
    }
}

/// Cancels every job not done yet, interrupting those running.
fn cancel_all<V>(all: &[Submitted<V>]) {
    for submitted in all {
        submitted.cancel(true);
    }
}
