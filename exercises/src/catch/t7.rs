//! Catch it, T7 `execute_shutdown_race`: a pool whose `execute` can queue a
//! task while `shutdown` finishes, so that the task is neither run nor
//! rejected.
//!
//! One of two versions runs behind this API, and your test cannot tell which
//! except by what the pool does:
//!
//! - the buggy one, of *A pool of workers*
//!   (`threadpool-executor/src/no_recheck.rs`): `execute` looks at the
//!   pool's state ("running"), then queues the task and returns `Ok`. If
//!   `shutdown` ran to the end in between, the task lies in the queue of a
//!   pool that will never run anything again;
//! - the fixed one, the stage's pool (`threadpool-executor/src/pool.rs`):
//!   after queuing, `execute` looks again, and takes the task back out and
//!   hands it back in the error if the pool is no longer running.
//!
//! Write a test that fails on the first every time, naming T7, and passes on
//! the second every time.

use std::time::Duration;

use threadpool_executor::ThreadPool;
use threadpool_executor::factory::NamedThreads;
use threadpool_executor::pool::Variant;

use super::{Side, side};

pub use super::{Pause, Point};
pub use threadpool_executor::Task;
pub use threadpool_executor::error::{Reason, Rejected};

/// The race window: `execute` has seen the pool running and has not queued
/// its task yet. The thread held here is the one that calls `execute`:
/// name it, and arm the pause with that name.
///
/// In neither version does the held thread hold a lock here. Held once per
/// arm; later passes go through.
pub const WINDOW: Point = Point::new(
    "WINDOW (t7: saw the pool running, task not yet queued)",
    "threadpool-executor::no_recheck: saw the pool running, not yet queued",
    "threadpool-executor::pool: saw the pool running, not yet queued",
);

/// A pool of one worker, started, with an unbounded queue: a task given to
/// `execute` goes to the queue (the worker already exists), and the worker
/// runs it.
pub struct Pool(ThreadPool);

impl Pool {
    /// Starts a pool whose one worker's thread is named after `prefix`.
    ///
    /// # Panics
    /// If the worker cannot be started.
    pub fn new(prefix: &str) -> Pool {
        let variant = match side() {
            Side::Buggy => Variant::NoRecheck,
            Side::Fixed => Variant::Fixed,
        };
        let pool = ThreadPool::builder()
            .core_pool_size(1)
            .maximum_pool_size(1)
            .variant(variant)
            .thread_factory(NamedThreads::with_prefix(prefix))
            .build()
            .expect("a valid configuration");
        assert!(pool.prestart_core_thread(), "start the worker");
        Pool(pool)
    }

    /// Runs `task` on the worker, some time soon.
    ///
    /// # Errors
    /// A [`Rejected`] holding the task, with [`Reason::Shutdown`], when the
    /// pool is shut down: the task comes back to the caller.
    pub fn execute(&self, task: impl FnOnce() + Send + 'static) -> Result<(), Rejected<Task>> {
        super::calling("execute");
        self.0.execute(task)
    }

    /// Takes no new task from now on; queued tasks still run, and the idle
    /// worker leaves once the queue is empty. Does not wait: see
    /// [`Pool::await_termination`].
    pub fn shutdown(&self) {
        super::calling("shutdown");
        self.0.shutdown();
    }

    /// Waits until the pool has terminated (shut down, every task over, the
    /// worker gone), for at most `timeout`. Returns whether it has.
    pub fn await_termination(&self, timeout: Duration) -> bool {
        self.0.await_termination(timeout)
    }

    /// Whether the pool has terminated: nothing will ever run here again.
    pub fn is_terminated(&self) -> bool {
        self.0.is_terminated()
    }

    /// How many tasks wait in the queue.
    pub fn queued(&self) -> usize {
        self.0.queue().len()
    }
}
