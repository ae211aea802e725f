//! D6 `done_before_run`: the claim marks the job done (a recurring job:
//! waiting for its next occurrence) and commits, and only then does the
//! node run it, as a queue that deletes a message when it takes it. A
//! node that crashes between the two has run nothing, and no one ever
//! will: the job is lost. At most once.
//!
//! The fix holds the job `running` on a lease until the completion
//! commits. Its mirror: a crash after the action, before the completion,
//! runs the job again under the next claim. At least once; and with the
//! effect written once per occurrence in the completion, effectively once.

use kit::pause_point;

use crate::claim::{self, Claim, DUE};
use crate::complete::write_effect;
use crate::store::{Store, StoreError};

/// The window: the node has marked the job done and not yet run it.
pub const WINDOW: &str = "durable-timer::done_before_run: marked the job done, not yet run it";

// ANCHOR: claim
/// BUG: the job's next state, set as the job is claimed.
const SET_DONE: &str = "owner = $1, fence = fence + 1,
    occurrence = CASE WHEN period_ms IS NULL THEN due_at
                      ELSE due_at + period_ms * (({now} - due_at) / period_ms) END,
    state = CASE WHEN period_ms IS NULL THEN 'done' ELSE 'waiting' END,
    due_at = CASE WHEN period_ms IS NULL THEN due_at
                  ELSE due_at + period_ms * (({now} - due_at) / period_ms + 1) END";

/// Claims the next due job, marking it done at once.
///
/// # Errors
/// What the store reports.
pub fn claim(store: &mut dyn Store, node: &str) -> Result<Option<Claim>, StoreError> {
    let sql = claim::statement(store.dialect(), DUE, SET_DONE);
    let rows = store.query(&sql, &[node.into()])?;
    pause_point(WINDOW);
    Ok(rows.first().map(Claim::from_row))
}
// ANCHOR_END: claim

/// Writes the effect (the job was marked done at its claim).
///
/// # Errors
/// What the store reports.
pub fn complete(store: &mut dyn Store, claim: &Claim, node: &str) -> Result<bool, StoreError> {
    write_effect(store, claim, node)?;
    Ok(true)
}
