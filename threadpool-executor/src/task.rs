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
