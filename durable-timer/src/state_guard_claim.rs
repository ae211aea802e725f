//! D2 `recurring_aba`: the half fix of D1. The mark is guarded, `WHERE
//! state = 'waiting'`, and its rows counted, as Quartz guards a trigger's
//! state and Sidekiq's poller counts its ZREM. It stops a second claim of
//! a one-shot job. But a recurring job goes back to `waiting` when its
//! occurrence completes: the node that looked at occurrence T1, held while
//! another ran T1 and rescheduled the job for T2, finds it waiting again,
//! the guard matches, and T1 runs twice. The state came back to the value
//! the guard expects (A, B, A): the guard must name the occurrence, or
//! the look and the mark must be one statement, as in `claim.rs`.

use kit::pause_point;

use crate::Millis;
use crate::claim::Claim;
use crate::store::{Store, StoreError};

/// The window: the node has found a due occurrence and not yet marked it.
pub const WINDOW: &str =
    "durable-timer::state_guard_claim: found a due occurrence, not yet marked it";

// ANCHOR: claim
/// Claims the next due job: look, then mark if it is still waiting.
///
/// # Errors
/// What the store reports.
pub fn claim(
    store: &mut dyn Store,
    node: &str,
    lease: Millis,
) -> Result<Option<Claim>, StoreError> {
    let due = store.query(
        "SELECT id, due_at FROM jobs WHERE state = 'waiting' AND due_at <= {now}
          ORDER BY due_at LIMIT 1",
        &[],
    )?;
    let Some((id, due_at)) = due.first().map(|row| (row.text(0).to_owned(), row.int(1))) else {
        return Ok(None);
    };
    pause_point(WINDOW);
    // BUG: `waiting` again is not `waiting` still: the guard cannot tell
    // the occurrence it looked at from the next one.
    let rows = store.query(
        "UPDATE jobs SET state = 'running', owner = $2, lease_until = {now} + $3,
                fence = fence + 1, occurrence = $4
          WHERE id = $1 AND state = 'waiting'
         RETURNING id, occurrence, fence, period_ms",
        &[id.into(), node.into(), lease.into(), due_at.into()],
    )?;
    Ok(rows.first().map(Claim::from_row))
}
// ANCHOR_END: claim
