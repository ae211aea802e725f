//! Building a pool: its sizes, keep-alive, queue, thread factory, rejection
//! policy and hooks, checked once (bad input is a typed error, never a
//! panic).

use std::any::Any;
use std::time::Duration;

use crate::ctl::CAPACITY;
use crate::error::ConfigError;
use crate::factory::{NamedThreads, ThreadFactory};
use crate::pool::{Core, Settings, ThreadPool, Variant};
use crate::queue::{TaskQueue, WorkQueue};
use crate::reject::{Abort, RejectPolicy};
use crate::task::Runnable;

type Hook = Box<dyn Fn() + Send + Sync>;
type MessageHook = Box<dyn Fn(&str) + Send + Sync>;
type BeforeHook<T> = Box<dyn Fn(&Execution<'_>, &T) + Send + Sync>;
type AfterHook = Box<dyn Fn(&Execution<'_>, Option<&str>) + Send + Sync>;
type DiscardHook<T> = Box<dyn Fn(T) + Send + Sync>;

/// What the before and after hooks are told of the run they surround.
/// Java passes `beforeExecute` the worker thread and the task, and
/// `afterExecute` the task and what it threw; here the before hook also
/// gets the task itself, and the pair (`worker`, `number`) names one run,
/// so an after hook can tell which before it follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Execution<'a> {
    /// The worker thread's name (`pool-N-thread-M` from the default
    /// factory; empty if the factory's thread has none).
    pub worker: &'a str,
    /// Which of that worker's tasks this is: 1 for its first.
    pub number: u64,
}

/// The pool's hooks; each is optional.
pub(crate) struct Hooks<T> {
    pub(crate) before_execute: Option<BeforeHook<T>>,
    pub(crate) after_execute: Option<AfterHook>,
    pub(crate) on_panic: Option<MessageHook>,
    pub(crate) on_shutdown: Option<Hook>,
    pub(crate) terminated: Option<Hook>,
    pub(crate) on_discard: Option<DiscardHook<T>>,
}

/// A panic's message, as the hooks receive it.
pub(crate) fn panic_message(panic: &(dyn Any + Send)) -> &str {
    if let Some(message) = panic.downcast_ref::<&str>() {
        message
    } else if let Some(message) = panic.downcast_ref::<String>() {
        message
    } else {
        "a panic with a payload that is not a string"
    }
}

/// A pool's configuration, checked by [`Builder::build`]. The defaults:
/// one core thread, at most one thread, a keep-alive of 60 s, core threads
/// that never time out, an unbounded queue, threads named `pool-N-thread-M`,
/// and the [`Abort`] policy.
///
/// ```
/// use std::time::Duration;
/// use threadpool_executor::pool::ThreadPool;
/// use threadpool_executor::queue::TaskQueue;
/// use threadpool_executor::reject::CallerRuns;
///
/// let pool = ThreadPool::builder()
///     .core_pool_size(2)
///     .maximum_pool_size(4)
///     .keep_alive(Duration::from_secs(1))
///     .queue(TaskQueue::bounded(16)?)
///     .reject_policy(CallerRuns)
///     .build()?;
/// pool.execute(|| {}).unwrap();
/// # Ok::<(), threadpool_executor::error::ConfigError>(())
/// ```
pub struct Builder<T> {
    core: usize,
    maximum: usize,
    keep_alive: Duration,
    allow_core_timeout: bool,
    queue: Option<Box<dyn WorkQueue<T>>>,
    factory: Option<Box<dyn ThreadFactory>>,
    policy: Box<dyn RejectPolicy<T>>,
    hooks: Hooks<T>,
    variant: Variant,
}

impl<T: Runnable> Default for Builder<T> {
    fn default() -> Self {
        Builder::new()
    }
}

impl<T: Runnable> Builder<T> {
    /// The defaults; see the type's docs.
    pub fn new() -> Builder<T> {
        Builder {
            core: 1,
            maximum: 1,
            keep_alive: Duration::from_secs(60),
            allow_core_timeout: false,
            queue: None,
            factory: None,
            policy: Box::new(Abort),
            hooks: Hooks {
                before_execute: None,
                after_execute: None,
                on_panic: None,
                on_shutdown: None,
                terminated: None,
                on_discard: None,
            },
            variant: Variant::Fixed,
        }
    }

    /// Threads kept even when idle (unless core threads may time out).
    pub fn core_pool_size(mut self, core: usize) -> Self {
        self.core = core;
        self
    }

    /// The most threads the pool may have. It starts more than core size
    /// only when the queue refuses a task.
    pub fn maximum_pool_size(mut self, maximum: usize) -> Self {
        self.maximum = maximum;
        self
    }

    /// How long a thread above core size (or any thread, if core threads
    /// may time out) waits idle for a task before it ends.
    pub fn keep_alive(mut self, keep_alive: Duration) -> Self {
        self.keep_alive = keep_alive;
        self
    }

    /// Whether core threads end after the keep-alive too, so the pool can
    /// shrink to zero. Needs a keep-alive longer than zero.
    pub fn allow_core_thread_timeout(mut self, allow: bool) -> Self {
        self.allow_core_timeout = allow;
        self
    }

    /// The work queue (default: [`TaskQueue::unbounded`]).
    pub fn queue(mut self, queue: impl WorkQueue<T> + 'static) -> Self {
        self.queue = Some(Box::new(queue));
        self
    }

    /// Where threads come from (default: [`NamedThreads::new`]).
    pub fn thread_factory(mut self, factory: impl ThreadFactory) -> Self {
        self.factory = Some(Box::new(factory));
        self
    }

    /// What happens to a rejected task (default: [`Abort`]).
    pub fn reject_policy(mut self, policy: impl RejectPolicy<T>) -> Self {
        self.policy = Box::new(policy);
        self
    }

    /// Runs on the worker thread before each task, given the run and the
    /// task: Java's `beforeExecute`. If it panics, the task is dropped
    /// unrun, the after hook is not called (as Java skips `afterExecute`),
    /// the task still counts as completed, and the worker ends with the
    /// panic and is replaced, as if the task had panicked.
    pub fn before_execute(
        mut self,
        hook: impl Fn(&Execution<'_>, &T) + Send + Sync + 'static,
    ) -> Self {
        self.hooks.before_execute = Some(Box::new(hook));
        self
    }

    /// Runs on the worker thread after each task that ran, with the
    /// panic's message if it panicked (`None` if it returned): Java's
    /// `afterExecute`. Not called for a task whose before hook panicked:
    /// that task never ran.
    ///
    /// ```
    /// use std::sync::mpsc;
    /// use threadpool_executor::pool::ThreadPool;
    ///
    /// let (tx, rx) = mpsc::channel();
    /// let pool = ThreadPool::builder()
    ///     .after_execute(move |run, panic| {
    ///         let _ = tx.send((run.number, panic.map(str::to_owned)));
    ///     })
    ///     .build()?;
    /// pool.execute(|| {}).unwrap();
    /// assert_eq!(rx.recv().unwrap(), (1, None));
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    pub fn after_execute(
        mut self,
        hook: impl Fn(&Execution<'_>, Option<&str>) + Send + Sync + 'static,
    ) -> Self {
        self.hooks.after_execute = Some(Box::new(hook));
        self
    }

    /// Receives the message of every panic that ended a worker, after the
    /// worker was replaced (T6). Without it the thread ends panicking, as
    /// Java's worker thread ends with its exception, and the message is
    /// the one Rust's panic hook printed.
    pub fn on_panic(mut self, hook: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.hooks.on_panic = Some(Box::new(hook));
        self
    }

    /// Runs in `shutdown` and `shutdown_now`, once the state has moved:
    /// Java's `onShutdown`, where a scheduled pool drops its delayed tasks.
    pub fn on_shutdown(mut self, hook: impl Fn() + Send + Sync + 'static) -> Self {
        self.hooks.on_shutdown = Some(Box::new(hook));
        self
    }

    /// Runs once, when the pool terminates (in state TIDYING): Java's
    /// `terminated`.
    pub fn on_terminated(mut self, hook: impl Fn() + Send + Sync + 'static) -> Self {
        self.hooks.terminated = Some(Box::new(hook));
        self
    }

    /// Receives every task a policy discards ([`Discard`],
    /// [`DiscardOldest`]); without it they are dropped. Either way they
    /// are counted.
    ///
    /// [`Discard`]: crate::reject::Discard
    /// [`DiscardOldest`]: crate::reject::DiscardOldest
    pub fn on_discard(mut self, hook: impl Fn(T) + Send + Sync + 'static) -> Self {
        self.hooks.on_discard = Some(Box::new(hook));
        self
    }

    /// Which version of the pool to build: [`Variant::Fixed`] unless a
    /// lesson asks for one of the buggy ones. Hidden from the docs, as the
    /// buggy versions are: it is for the tests and the exercises.
    #[doc(hidden)]
    pub fn variant(mut self, variant: Variant) -> Self {
        self.variant = variant;
        self
    }

    // ANCHOR: check
    /// Checks the configuration and builds the pool. No thread starts
    /// until the first task (or a prestart).
    ///
    /// # Errors
    /// A [`ConfigError`] naming what is wrong.
    pub fn build(self) -> Result<ThreadPool<T>, ConfigError> {
        check_sizes(self.core, self.maximum)?;
        check_keep_alive(self.keep_alive, self.allow_core_timeout)?;
        let queue = self
            .queue
            .unwrap_or_else(|| Box::new(TaskQueue::unbounded()));
        let factory = self
            .factory
            .unwrap_or_else(|| Box::new(NamedThreads::new()));
        Ok(ThreadPool::from_core(Core::new(Settings {
            core: self.core,
            maximum: self.maximum,
            keep_alive: self.keep_alive,
            allow_core_timeout: self.allow_core_timeout,
            queue,
            factory,
            policy: self.policy,
            hooks: self.hooks,
            variant: self.variant,
        })))
    }
    // ANCHOR_END: check
}

/// `core <= maximum`, `maximum >= 1`, both countable by the ctl word.
pub(crate) fn check_sizes(core: usize, maximum: usize) -> Result<(), ConfigError> {
    if maximum == 0 {
        return Err(ConfigError::ZeroMaximum);
    }
    if let Some(size) = [core, maximum].into_iter().find(|&size| size > CAPACITY) {
        return Err(ConfigError::TooLarge { size });
    }
    if core > maximum {
        return Err(ConfigError::CoreAboveMaximum { core, maximum });
    }
    Ok(())
}

/// Core threads may time out only after a keep-alive longer than zero.
pub(crate) fn check_keep_alive(
    keep_alive: Duration,
    allow_core_timeout: bool,
) -> Result<(), ConfigError> {
    if allow_core_timeout && keep_alive.is_zero() {
        return Err(ConfigError::ZeroKeepAliveWithCoreTimeout);
    }
    Ok(())
}
