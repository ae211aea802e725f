//! D1 `check_then_claim`: a claim in two statements. The node looks for a
//! due job, then marks it running by its id, with no condition on its
//! state and no look at what the mark changed. Another node claims, runs
//! and completes the job in between; the mark takes the job back, and it
//! runs twice. Stage 3's lost wake-up was a look and an act let apart on
//! one machine; here the two are apart across processes.

use kit::pause_point;

use crate::Millis;
use crate::claim::Claim;
use crate::store::{Store, StoreError};

/// The window: the node has found a due job and not yet marked it.
pub const WINDOW: &str = "durable-timer::check_then_claim: found a due job, not yet marked it";

// ANCHOR: claim
/// Claims the next due job: look, then mark.
///
/// # Errors
/// What the store reports.
pub fn claim(
    store: &mut dyn Store,
    node: &str,
    lease: Millis,
) -> Result<Option<Claim>, StoreError> {
    let due = store.query(
        "SELECT id FROM jobs WHERE state = 'waiting' AND due_at <= {now}
          ORDER BY due_at LIMIT 1",
        &[],
    )?;
    let Some(id) = due.first().map(|row| row.text(0).to_owned()) else {
        return Ok(None);
    };
    pause_point(WINDOW);
    // BUG: marks the job by id alone: whatever another node did to it
    // since the look, it is running again, for this node.
    let rows = store.query(
        "UPDATE jobs SET state = 'running', owner = $2, lease_until = {now} + $3,
                fence = fence + 1, occurrence = due_at
          WHERE id = $1
         RETURNING id, occurrence, fence, period_ms",
        &[id.into(), node.into(), lease.into()],
    )?;
    Ok(rows.first().map(Claim::from_row))
}
// ANCHOR_END: claim
