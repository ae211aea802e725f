//! A worker's exit without replacing a worker that died (T6
//! `dead_worker_not_replaced`).
//!
//! worker.rs's `process_worker_exit`, with one thing missing: a worker that
//! ended abruptly (its task panicked) is not replaced. A worker that
//! leaves normally has already checked, in `get_task`, that it may; one
//! that dies has not, and the pool may need it. With N workers and N
//! panicking tasks, every worker dies, and the tasks queued behind them
//! wait for a worker nobody starts: only the next `execute` would start
//! one, and there may never be a next.

use crate::ctl::RunState;
use crate::pool::Core;
use crate::sync::Arc;
use crate::task::Runnable;
use crate::worker::Worker;

// ANCHOR: process_worker_exit
/// The bookkeeping of a worker that leaves, without the replacement.
pub(crate) fn process_worker_exit<T: Runnable>(
    core: &Arc<Core<T>>,
    worker: &Arc<Worker<T>>,
    abruptly: bool,
) {
    if abruptly {
        // A panic left `get_task` no chance to lower the count.
        core.ctl.decrement();
    }
    {
        let mut workers = core.main.lock();
        workers.completed += worker.progress().0;
        workers.set.retain(|other| !Arc::ptr_eq(other, worker));
    }
    core.try_terminate();
    let c = core.ctl.get();
    // ANCHOR: replacement
    // BUG (T6): only a worker that left normally is looked after. One that
    // died of a panic is gone, and nothing takes its place.
    if c.less_than(RunState::Stop) && !abruptly {
        // ANCHOR_END: replacement
        let mut min = if core.config.allow_core_timeout() {
            0
        } else {
            core.config.core()
        };
        if min == 0 && !core.queue.is_empty() {
            min = 1; // someone must run what is queued
        }
        if c.worker_count() >= min {
            return;
        }
        let _ = core.add_worker(None, false);
    }
}
// ANCHOR_END: process_worker_exit
