//! D7 `cursor_skips_late_job`: a poller that reads only what is new. The
//! node keeps a cursor, the store's time up to which it has scanned, and
//! each round asks only for jobs due after it; a round that finds nothing
//! moves the cursor up to the time it scanned to. A job that becomes
//! visible after that scan with a due time at or below the cursor (its
//! insert committed late, or a client scheduled it into the past) lies
//! where no scan will look again: it waits forever. Cadence's timer queue
//! lost timers this way, written below the level its reader had passed.
//!
//! The fix keeps no cursor: every claim asks for every job that is
//! waiting and due (`claim.rs`), and the index on `(state, due_at)` makes
//! that as cheap as the cursor was meant to.

use kit::pause_point;

use crate::Millis;
use crate::claim::{self, Claim, DUE, SET};
use crate::clock::store_time;
use crate::store::{Store, StoreError};

/// The window: the node's scan found nothing new, and it has not yet moved
/// its cursor up to the time it scanned to.
pub const WINDOW: &str = "durable-timer::cursor_poll: scanned to now, not yet moved the cursor";

// ANCHOR: claim
/// Claims the next job due after `cursor`; if there is none, moves
/// `cursor` up to the store's time of the scan.
///
/// # Errors
/// What the store reports.
pub fn claim(
    store: &mut dyn Store,
    node: &str,
    lease: Millis,
    cursor: &mut Millis,
) -> Result<Option<Claim>, StoreError> {
    let level = store_time(store)?;
    // BUG: reads only what is due after the cursor. (A job whose lease ran
    // out is still taken over: the cursor is about due times only.)
    let found = store.query(
        "SELECT id FROM jobs
          WHERE (state = 'waiting' AND due_at > $1 AND due_at <= $2)
             OR (state = 'running' AND lease_until <= $2)
          ORDER BY due_at LIMIT 1",
        &[(*cursor).into(), level.into()],
    )?;
    let Some(id) = found.first().map(|row| row.text(0).to_owned()) else {
        pause_point(WINDOW);
        // BUG: everything due up to `level` counts as read from now on,
        // whatever commits later.
        *cursor = level;
        return Ok(None);
    };
    let sql = claim::statement(store.dialect(), &format!("id = $3 AND ({DUE})"), SET);
    let rows = store.query(&sql, &[node.into(), lease.into(), id.into()])?;
    Ok(rows.first().map(Claim::from_row))
}
// ANCHOR_END: claim
