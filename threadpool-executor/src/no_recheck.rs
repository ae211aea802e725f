//! `execute` without the look after queuing (T7 `execute_shutdown_race`).
//!
//! The same three steps as pool.rs, with one thing missing: once the task
//! is queued, `execute` returns. Between its look at the state ("running")
//! and its offer, `shutdown` can run to the end: the queue was empty, the
//! workers left, the pool terminated. The offer still succeeds (a queue
//! knows nothing of the pool), and the task lies in the queue of a pool
//! that will never run anything again. `execute` said `Ok`: the task was
//! neither run nor rejected. The pause point holds `execute` in exactly
//! that window.
//!
//! The same missing look strands a pool with core size 0: the task is
//! queued, no worker exists, and nothing starts one.

use crate::error::Reason;
use crate::pool::Core;
use crate::queue::Ticket;
use crate::sync::Arc;
use crate::task::Runnable;

// ANCHOR: execute
/// ThreadPoolExecutor's three steps, without the re-check.
pub(crate) fn execute<T: Runnable>(
    core: &Arc<Core<T>>,
    task: T,
) -> Result<Option<Ticket>, (T, Reason)> {
    let mut c = core.ctl.get();
    // 1. Below core size: a new worker, with this task as its first.
    let mut task = task;
    if c.worker_count() < core.config.core() {
        match core.add_worker(Some(task), true) {
            Ok(()) => return Ok(None),
            Err(not_added) => task = not_added.task.expect("our first task"),
        }
        c = core.ctl.get();
    }
    // 2. Running: queue it.
    if c.is_running() {
        kit::pause_point("threadpool-executor::no_recheck: saw the pool running, not yet queued");
        match core.queue.offer(task) {
            // ANCHOR: queued
            // BUG (T7): queued is not taken. The pool may have shut down
            // since `c` was read, and no worker may be left to take it.
            Ok(ticket) => return Ok(Some(ticket)),
            // ANCHOR_END: queued
            Err(back) => task = back,
        }
    }
    // 3. Not queued: a worker above core size, or a rejection.
    match core.add_worker(Some(task), false) {
        Ok(()) => Ok(None),
        Err(not_added) => Err((not_added.task.expect("our first task"), not_added.reason)),
    }
}
// ANCHOR_END: execute
