//! The usual pools, as Java's `Executors` builds them (T9): each is a
//! [`Builder`] already set, to build as it is or to change first (a
//! thread factory, a hook).
//!
//! | preset | core | max | keep-alive | queue |
//! |---|---|---|---|---|
//! | [`fixed`]`(n)` | n | n | 0 | unbounded |
//! | [`single`] | 1 | 1 | 0 | unbounded |
//! | [`cached`] | 0 | [`CAPACITY`] | 60 s | hand-off |
//! | [`scheduled`]`(n)` | n | [`CAPACITY`] | 10 ms | delayed (by deadline) |
//!
//! `fixed` and `single` never grow, by design: their maximum is their core
//! size, which is what an unbounded queue allows anyway (T2). `cached`
//! starts a thread for every task that finds no idle one, and lets idle
//! threads go after a minute: nothing waits, and nothing bounds the
//! threads.

use std::time::Duration;

use crate::builder::Builder;
use crate::ctl::CAPACITY;
use crate::queue::TaskQueue;
use crate::scheduled::{ScheduledBuilder, ScheduledThreadPool};
use crate::task::Task;

/// `n` threads, an unbounded queue: `Executors.newFixedThreadPool(n)`.
///
/// ```
/// let pool = threadpool_executor::presets::fixed(3).build()?;
/// assert_eq!((pool.core_pool_size(), pool.maximum_pool_size()), (3, 3));
/// # Ok::<(), threadpool_executor::error::ConfigError>(())
/// ```
pub fn fixed(n: usize) -> Builder<Task> {
    Builder::new()
        .core_pool_size(n)
        .maximum_pool_size(n)
        .keep_alive(Duration::ZERO)
        .queue(TaskQueue::unbounded())
}

/// One thread, an unbounded queue: tasks run one at a time, in order:
/// `Executors.newSingleThreadExecutor()`.
pub fn single() -> Builder<Task> {
    fixed(1)
}

/// No core thread, as many as needed, a hand-off queue, idle threads gone
/// after 60 s: `Executors.newCachedThreadPool()`.
///
/// ```
/// let pool = threadpool_executor::presets::cached().build()?;
/// assert_eq!(pool.core_pool_size(), 0);
/// assert_eq!(pool.keep_alive(), std::time::Duration::from_secs(60));
/// # Ok::<(), threadpool_executor::error::ConfigError>(())
/// ```
pub fn cached() -> Builder<Task> {
    Builder::new()
        .core_pool_size(0)
        .maximum_pool_size(CAPACITY)
        .keep_alive(Duration::from_secs(60))
        .queue(TaskQueue::hand_off())
}

/// `n` threads that run tasks after a delay or periodically:
/// `Executors.newScheduledThreadPool(n)`. See [`crate::scheduled`].
///
/// ```
/// let pool = threadpool_executor::presets::scheduled(2).build()?;
/// assert_eq!(pool.core_pool_size(), 2);
/// # Ok::<(), threadpool_executor::error::ConfigError>(())
/// ```
pub fn scheduled(n: usize) -> ScheduledBuilder {
    ScheduledThreadPool::builder().core_pool_size(n)
}
