//! D5 `clock_skew`: the node's clock as the time authority. The claim is
//! the fixed one, word for word, except that "now" is the node's own
//! clock, sent as a parameter, where the fixed claim says `{now}`, the
//! store's. Clocks of machines disagree (Quartz's clustering docs ask for
//! clocks within a second of each other); a node whose clock runs ahead
//! fires jobs early, and takes over leases that have not run out.

use kit::pause_point;

use crate::Millis;
use crate::claim::{self, Claim, DUE, SET};
use crate::store::{Store, StoreError};

/// The window: the node has read its own clock and not yet claimed.
pub const WINDOW: &str = "durable-timer::node_clock: read its own clock, not yet claimed";

// ANCHOR: claim
/// Claims the next job due by the node's clock, reading `now` from it.
///
/// # Errors
/// What the store reports.
pub fn claim(
    store: &mut dyn Store,
    node: &str,
    lease: Millis,
    now: Millis,
) -> Result<Option<Claim>, StoreError> {
    pause_point(WINDOW);
    // BUG: the node's time ($3) judges what is due and when leases end.
    let sql = claim::statement(store.dialect(), DUE, SET).replace("{now}", "$3");
    let rows = store.query(&sql, &[node.into(), lease.into(), now.into()])?;
    Ok(rows.first().map(Claim::from_row))
}
// ANCHOR_END: claim
