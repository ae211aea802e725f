//! D8 `catch_up_storm`: a recurring job that missed many occurrences
//! (every node was down, or the clock jumped) runs them all. The claim
//! takes the oldest missed occurrence, the completion moves the job one
//! period on, and the next occurrence is due already: 150 missed periods
//! are 150 runs in a burst, for a job whose one run of the latest would
//! have done. The fix computes the latest missed occurrence in the claim,
//! and applies the job's misfire policy (`misfire.rs`).

use kit::pause_point;

use crate::Millis;
use crate::claim::{self, Claim, DUE};
use crate::store::{Store, StoreError};

/// The window: the node is about to claim the oldest missed occurrence.
pub const WINDOW: &str = "durable-timer::every_missed_period: about to claim the oldest occurrence";

// ANCHOR: claim
// ANCHOR: set
/// BUG: a waiting job runs the occurrence it waits for, however old.
const SET_OLDEST: &str = "state = 'running', owner = $1,
    lease_until = {now} + $2, fence = fence + 1,
    occurrence = CASE WHEN state = 'running' THEN occurrence ELSE due_at END";
// ANCHOR_END: set

/// Claims the next due job, at its oldest missed occurrence.
///
/// # Errors
/// What the store reports.
pub fn claim(
    store: &mut dyn Store,
    node: &str,
    lease: Millis,
) -> Result<Option<Claim>, StoreError> {
    pause_point(WINDOW);
    let sql = claim::statement(store.dialect(), DUE, SET_OLDEST);
    let rows = store.query(&sql, &[node.into(), lease.into()])?;
    Ok(rows.first().map(Claim::from_row))
}
// ANCHOR_END: claim
