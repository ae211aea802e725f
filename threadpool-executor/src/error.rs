//! The pool's two errors: a configuration it refuses ([`ConfigError`]), and
//! a task it refuses ([`Rejected`]), which always carries the task back.

use std::fmt;
use std::io;

use crate::ctl::CAPACITY;

/// A pool configuration that makes no sense, refused when the pool is built
/// or a setter is called: ThreadPoolExecutor's `IllegalArgumentException`s,
/// typed.
///
/// ```
/// use threadpool_executor::pool::ThreadPool;
/// use threadpool_executor::error::ConfigError;
///
/// let err = ThreadPool::builder().core_pool_size(4).maximum_pool_size(2).build().err();
/// assert_eq!(err, Some(ConfigError::CoreAboveMaximum { core: 4, maximum: 2 }));
/// assert_eq!(
///     err.unwrap().to_string(),
///     "the core pool size (4) is larger than the maximum pool size (2)"
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigError {
    /// Core size above maximum size.
    CoreAboveMaximum {
        /// The core size asked for.
        core: usize,
        /// The maximum size it exceeds.
        maximum: usize,
    },
    /// A maximum size of zero: a pool that could never run anything.
    ZeroMaximum,
    /// A size larger than the ctl word can count.
    TooLarge {
        /// The size asked for.
        size: usize,
    },
    /// Core threads may time out, with a keep-alive of zero: every core
    /// thread would end the moment it is idle, and be started again for
    /// the next task.
    ZeroKeepAliveWithCoreTimeout,
    /// A bounded queue of capacity zero: that is a hand-off queue.
    ZeroCapacity,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::CoreAboveMaximum { core, maximum } => write!(
                f,
                "the core pool size ({core}) is larger than the maximum pool size ({maximum})"
            ),
            ConfigError::ZeroMaximum => f.write_str("the maximum pool size must be at least 1"),
            ConfigError::TooLarge { size } => write!(
                f,
                "a pool size of {size} is more than the {CAPACITY} workers the ctl word can count"
            ),
            ConfigError::ZeroKeepAliveWithCoreTimeout => {
                f.write_str("core threads may time out only with a keep-alive longer than zero")
            }
            ConfigError::ZeroCapacity => f.write_str(
                "a bounded queue needs room for at least one task; for none, use a hand-off queue",
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Why a task was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The pool needed a thread for the task and its thread factory could
    /// not start one, and no worker is left to take the task from the
    /// queue.
    NoThread {
        /// What the factory's error said.
        error: io::ErrorKind,
    },
    /// The pool is shut down (or shutting down): it takes no new task.
    Shutdown,
    /// The queue refused the task and the pool is at its maximum size.
    Saturated {
        /// Workers when it was refused.
        pool_size: usize,
        /// The maximum pool size.
        maximum: usize,
        /// Tasks queued when it was refused.
        queued: usize,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Shutdown => f.write_str("the pool is shut down"),
            Reason::NoThread { error } => write!(
                f,
                "the pool has no thread and its thread factory could not start one ({error})"
            ),
            Reason::Saturated {
                pool_size,
                maximum,
                queued,
            } => write!(
                f,
                "the pool is saturated: {pool_size} of at most {maximum} threads, \
                 and the queue took no more ({queued} queued)"
            ),
        }
    }
}

/// A task the pool would not take, handed back to the caller with the
/// reason: ThreadPoolExecutor's `RejectedExecutionException`, except that
/// the task is never lost with it.
///
/// ```
/// use threadpool_executor::pool::ThreadPool;
/// use threadpool_executor::error::Reason;
///
/// let pool = ThreadPool::builder().build()?;
/// pool.shutdown();
/// let rejected = pool.execute(|| println!("later, elsewhere")).unwrap_err();
/// assert_eq!(rejected.reason(), Reason::Shutdown);
/// assert_eq!(rejected.to_string(), "task rejected: the pool is shut down");
/// let task = rejected.into_task(); // ours again: run it, or drop it
/// task();
/// # Ok::<(), threadpool_executor::error::ConfigError>(())
/// ```
pub struct Rejected<T> {
    task: T,
    reason: Reason,
}

impl<T> Rejected<T> {
    /// A rejection of `task` for `reason`.
    pub fn new(task: T, reason: Reason) -> Rejected<T> {
        Rejected { task, reason }
    }

    /// Why the pool refused it.
    pub fn reason(&self) -> Reason {
        self.reason
    }

    /// The task, back in the caller's hands.
    pub fn into_task(self) -> T {
        self.task
    }
}

impl<T> fmt::Debug for Rejected<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rejected")
            .field("reason", &self.reason)
            .finish_non_exhaustive()
    }
}

impl<T> fmt::Display for Rejected<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "task rejected: {}", self.reason)
    }
}

impl<T> std::error::Error for Rejected<T> {}

/// Why [`invoke_any`](crate::pool::ThreadPool::invoke_any) has no value
/// to give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InvokeError {
    /// No jobs were given: Java's `IllegalArgumentException`.
    NoJobs,
    /// Every job panicked; the last panic's message: Java's
    /// `ExecutionException`.
    AllPanicked(String),
    /// No job returned within the time given; every job was cancelled:
    /// Java's `TimeoutException`.
    Timeout,
    /// The pool refused a job before any returned: Java's
    /// `RejectedExecutionException`.
    Rejected(Reason),
}

impl fmt::Display for InvokeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvokeError::NoJobs => f.write_str("no jobs to invoke"),
            InvokeError::AllPanicked(message) => {
                write!(f, "every job panicked; the last: {message}")
            }
            InvokeError::Timeout => f.write_str("no job returned in time"),
            InvokeError::Rejected(reason) => write!(f, "a job was rejected: {reason}"),
        }
    }
}

impl std::error::Error for InvokeError {}
