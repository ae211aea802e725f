//! What a pool runs: anything [`Runnable`], and [`Task`], a boxed closure,
//! the usual one.
//!
//! ThreadPoolExecutor runs `Runnable`s, and ScheduledThreadPoolExecutor
//! hands the same machinery its own kind (a task that knows its deadline).
//! So the pool, its queue and its rejection policies are generic over the
//! item they carry; [`ThreadPool`](crate::pool::ThreadPool) with no type
//! argument carries [`Task`]s.

/// Something a worker can run, once.
pub trait Runnable: Send + 'static {
    /// Runs it on the calling (worker) thread.
    fn run(self);
}

/// A boxed closure: what [`ThreadPool::execute`](crate::pool::ThreadPool::execute)
/// takes. A closure that captures nothing boxes without allocating.
pub type Task = Box<dyn FnOnce() + Send + 'static>;

impl Runnable for Task {
    fn run(self) {
        self()
    }
}

/// Which task a pool took: what [`ThreadPool::execute_with_id`] and
/// [`Submitted::task_id`] give, what [`ThreadPool::remove`] takes, and what
/// [`ThreadPool::shutdown_now_with_ids`] pairs each task it hands back
/// with. Java finds a task by the object itself; a closure has no identity
/// of its own, so the pool gives each one this.
///
/// Two ids are equal only if they name the same task of the same pool. A
/// task that never went to the queue (a new worker took it at once, or
/// the policy ran or discarded it) has an id too, but no queue holds it:
/// `remove` answers `false` for it, as Java's does for a task already
/// started.
///
/// [`ThreadPool::execute_with_id`]: crate::pool::ThreadPool::execute_with_id
/// [`ThreadPool::remove`]: crate::pool::ThreadPool::remove
/// [`ThreadPool::shutdown_now_with_ids`]: crate::pool::ThreadPool::shutdown_now_with_ids
/// [`Submitted::task_id`]: crate::submit::Submitted::task_id
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TaskId {
    /// Which pool: a number no other pool in the process has.
    pub(crate) pool: u64,
    pub(crate) place: Place,
}

/// Where `execute` left the task, numbered so that no two tasks of a pool
/// share a place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Place {
    /// In the queue, under the queue's ticket.
    Queued(u64),
    /// Not in the queue: the pool's count of such tasks.
    Elsewhere(u64),
}

impl TaskId {
    /// Whether `execute` left the task in the queue (it may have been
    /// taken since): only such a task can be removed.
    ///
    /// ```
    /// use threadpool_executor::ThreadPool;
    ///
    /// let pool = ThreadPool::builder().core_pool_size(1).maximum_pool_size(1).build()?;
    /// let first = pool.execute_with_id(|| {}).unwrap();
    /// assert!(!first.was_queued(), "below core size: a new worker took it");
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    pub fn was_queued(&self) -> bool {
        matches!(self.place, Place::Queued(_))
    }

    /// The queue's ticket, if `execute` queued the task.
    pub(crate) fn ticket(&self) -> Option<crate::queue::Ticket> {
        match self.place {
            Place::Queued(ticket) => Some(crate::queue::Ticket(ticket)),
            Place::Elsewhere(_) => None,
        }
    }
}
