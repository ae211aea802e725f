//! T16 `zero_core_threads` (JDK-7091003), the first bug: a scheduled pool
//! with zero core threads never runs a delayed task.
//!
//! A scheduled task is never handed to a new worker as its first task (it
//! is not due yet): it is queued, and then a worker is started to wait for
//! it. Java 6 started one with `prestartCoreThread`, which starts a worker
//! only *below core size*. With a core size of zero, that is never: the
//! task sits in the queue, and no thread exists to take it. (A plain
//! ThreadPoolExecutor does not have this hole: its `execute` starts a
//! worker whenever the pool has none, T7's re-check.)
//!
//! The fix (scheduled.rs, `ensure_prestart`) starts one worker anyway when
//! the pool has none. What that worker then does while it waits is the
//! second bug: see [`crate::zero_keep_alive`].

use crate::pool::Core;
use crate::scheduled::ScheduledTask;
use crate::sync::Arc;

// ANCHOR: prestart_core_only
/// Starts a worker only below core size.
pub(crate) fn ensure_prestart(core: &Arc<Core<Arc<ScheduledTask>>>) {
    if core.ctl.get().worker_count() < core.config.core() {
        let _ = core.add_worker(None, true);
    }
    // Core size 0: nothing. The task waits for a thread that never comes.
}
// ANCHOR_END: prestart_core_only
