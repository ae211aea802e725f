//! What happens to a task the pool will not take (T3): the rejection
//! policies.
//!
//! `execute` rejects a task in two cases: the pool is shut down, or it is
//! saturated (the queue refused the task and the pool is at its maximum
//! size). It then asks its policy, as ThreadPoolExecutor asks its
//! `RejectedExecutionHandler`. Java's four policies, and this project's one
//! rule on top of them: **a task is never lost without a trace.**
//!
//! - [`Abort`] (the default): `execute` returns `Err(`[`Rejected`]`)`, and
//!   the error holds the task. Java throws, and the task is gone with the
//!   exception.
//! - [`CallerRuns`]: the thread that called `execute` runs the task itself,
//!   which slows the submitter down to the pool's pace. After shutdown Java
//!   silently drops the task; here it comes back in `Err(Rejected)`.
//! - [`Discard`]: the task is thrown away and `execute` returns `Ok`. It
//!   goes to the pool's discard hook
//!   ([`Builder::on_discard`](crate::builder::Builder::on_discard)), and is
//!   counted ([`ThreadPool::discarded_count`](crate::pool::ThreadPool::discarded_count)).
//! - [`DiscardOldest`]: the oldest queued task is evicted (it never runs;
//!   it goes to the discard hook) and the new one is tried again. After
//!   shutdown the new one is discarded instead. Java's version retries
//!   forever when there is nothing to evict (a hand-off queue): here, with
//!   nothing to evict, the new task is discarded.
//!
//! Any `Fn(T, &Saturated<T>) -> Result<(), Rejected<T>>` is a policy too.

use crate::error::{Reason, Rejected};
use crate::pool::Core;
use crate::sync::Arc;
use crate::task::Runnable;

/// Decides the fate of a rejected task: Java's `RejectedExecutionHandler`.
pub trait RejectPolicy<T>: Send + Sync + 'static {
    /// Handles `task`, which `pool` just rejected. What this returns is
    /// what `execute` returns.
    ///
    /// # Errors
    /// A [`Rejected`] holding the task, to hand it back to the caller.
    fn rejected(&self, task: T, pool: &Saturated<'_, T>) -> Result<(), Rejected<T>>;
}

impl<T, F> RejectPolicy<T> for F
where
    F: Fn(T, &Saturated<'_, T>) -> Result<(), Rejected<T>> + Send + Sync + 'static,
{
    fn rejected(&self, task: T, pool: &Saturated<'_, T>) -> Result<(), Rejected<T>> {
        self(task, pool)
    }
}

/// The pool, as a policy sees it while it decides: why the task was
/// rejected, and what a policy may do about it.
pub struct Saturated<'a, T> {
    pub(crate) core: &'a Arc<Core<T>>,
    pub(crate) reason: Reason,
}

impl<T: Runnable> Saturated<'_, T> {
    /// Why the task was rejected.
    pub fn reason(&self) -> Reason {
        self.reason
    }

    /// Whether the pool is shut down (now: it may have been shut down
    /// after it rejected the task for being saturated).
    pub fn is_shutdown(&self) -> bool {
        !self.core.ctl.get().is_running()
    }

    /// Hands the task back to `execute`'s caller.
    ///
    /// # Errors
    /// Always: that is what it is for.
    pub fn refuse(&self, task: T) -> Result<(), Rejected<T>> {
        Err(Rejected::new(task, self.reason))
    }

    /// Throws the task away, where it can be found: the pool counts it and
    /// gives it to its discard hook (or drops it, if it has none).
    pub fn discard(&self, task: T) {
        self.core.discard(task);
    }

    /// Takes the oldest queued task out of the queue, if there is one.
    pub fn evict_oldest(&self) -> Option<T> {
        self.core.queue.poll_now()
    }

    /// Tries `execute`'s steps again, without asking the policy if they
    /// fail.
    ///
    /// # Errors
    /// Gives the task back if the pool rejects it again.
    pub fn retry(&self, task: T) -> Result<(), T> {
        self.core
            .execute(task)
            .map(|_ticket| ())
            .map_err(|(task, _)| task)
    }
}

// ANCHOR: policies
/// Hands the task back: `execute` returns `Err(Rejected)`. The default.
#[derive(Debug, Clone, Copy, Default)]
pub struct Abort;

impl<T: Runnable> RejectPolicy<T> for Abort {
    fn rejected(&self, task: T, pool: &Saturated<'_, T>) -> Result<(), Rejected<T>> {
        pool.refuse(task)
    }
}

/// Runs the task on the thread that called `execute`; after shutdown,
/// hands it back instead (Java drops it).
#[derive(Debug, Clone, Copy, Default)]
pub struct CallerRuns;

impl<T: Runnable> RejectPolicy<T> for CallerRuns {
    fn rejected(&self, task: T, pool: &Saturated<'_, T>) -> Result<(), Rejected<T>> {
        if pool.is_shutdown() {
            return pool.refuse(task);
        }
        task.run();
        Ok(())
    }
}

/// Throws the task away, to the discard hook, and returns `Ok`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Discard;

impl<T: Runnable> RejectPolicy<T> for Discard {
    fn rejected(&self, task: T, pool: &Saturated<'_, T>) -> Result<(), Rejected<T>> {
        pool.discard(task);
        Ok(())
    }
}
// ANCHOR_END: policies

/// Evicts the oldest queued task (to the discard hook) and tries the new
/// one again; after shutdown, or with nothing to evict, discards the new
/// one.
#[derive(Debug, Clone, Copy, Default)]
pub struct DiscardOldest;

impl<T: Runnable> RejectPolicy<T> for DiscardOldest {
    fn rejected(&self, mut task: T, pool: &Saturated<'_, T>) -> Result<(), Rejected<T>> {
        while !pool.is_shutdown() {
            let Some(oldest) = pool.evict_oldest() else {
                break; // nothing to make room with: Java would loop here
            };
            pool.discard(oldest);
            match pool.retry(task) {
                Ok(()) => return Ok(()),
                Err(back) => task = back,
            }
        }
        pool.discard(task);
        Ok(())
    }
}
