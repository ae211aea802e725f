//! What a wheel runs, and where it sends a task that comes due.
//!
//! A wheel only decides *when*; the *where* is an [`Executor`]: stage 6's
//! [`ThreadPool`], so a long task never holds up the ticker (stage 5's I4),
//! or [`OnTicker`], which runs the task on the ticker thread itself (for
//! tests and benchmarks that want no pool in the picture).

use threadpool_executor::ThreadPool;

/// A task: a closure run once, on some thread.
pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// Where a wheel sends a task that comes due.
pub trait Executor: Send + Sync + 'static {
    /// Runs `job`, or queues it to run; gives it back if it cannot (a pool
    /// that has shut down, say), so the wheel can report it instead of
    /// losing it.
    fn execute(&self, job: Job) -> Result<(), Job>;
}

impl Executor for ThreadPool {
    fn execute(&self, job: Job) -> Result<(), Job> {
        self.execute_task(job)
            .map_err(|rejected| rejected.into_task())
    }
}

/// Runs each task on the ticker thread, there and then.
#[derive(Debug, Clone, Copy, Default)]
pub struct OnTicker;

impl Executor for OnTicker {
    fn execute(&self, job: Job) -> Result<(), Job> {
        job();
        Ok(())
    }
}
