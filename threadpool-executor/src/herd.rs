//! The delayed queue without a leader: every idle taker waits, timed, for
//! the head's deadline (T10 `thundering_herd`).
//!
//! It is the obvious way to wait for a deadline, and it is correct: every
//! task runs on time. What it costs is wake-ups. With N idle workers, all N
//! wait for the same deadline and all N wake when it comes; one takes the
//! head, the other N - 1 find the next head not due yet and go back to
//! sleep. Each of those is a thread scheduled, a lock taken, a context
//! switch, for nothing: N wake-ups per task, where one would do. A new
//! head must wake all of them too, since each timed its wait on the old
//! one.
//!
//! The fix is in delayed_queue.rs (`leader_follower`): one leader waits
//! timed, the followers wait untimed, and the leader wakes one follower on
//! its way out. Diff the two loops: the herd's has no `leader`, no hand-on,
//! and its wait always carries the head's deadline.

use std::sync::Arc;

use interrupt_cancel::interrupt::{InterruptToken, Interrupted};

use crate::deadline::Deadline;
use crate::delayed_queue::{Delayed, Shared, State};
use crate::sync::MutexGuard;

// ANCHOR: herd_wait
/// Waits until the head is due, or until `limit`: every taker the same way.
pub(crate) fn wait_for<T: Delayed + ?Sized>(
    shared: &Shared<T>,
    state: &mut MutexGuard<'_, State<T>>,
    limit: Option<Deadline>,
    token: &InterruptToken,
) -> Result<Option<Arc<T>>, Interrupted> {
    loop {
        let now = Deadline::now();
        let head = state.head();
        if head.is_some_and(|due| due <= now) {
            return Ok(state.pop());
        }
        token.check()?;
        if limit.is_some_and(|limit| limit <= now) {
            return Ok(None);
        }
        // BUG (T10): every idle taker waits timed for the head. When it is
        // due they all wake, one takes it, the rest go back to sleep.
        let until = match (head, limit) {
            (Some(due), Some(limit)) => Some(due.min(limit)),
            (due, limit) => due.or(limit),
        };
        shared.park(state, until);
    }
}
// ANCHOR_END: herd_wait

/// What `offer` does for a new head: every taker timed its wait on the old
/// one, so every taker must wake to time it again.
pub(crate) fn new_head<T: Delayed + ?Sized>(shared: &Shared<T>) {
    shared.notify_all();
}
