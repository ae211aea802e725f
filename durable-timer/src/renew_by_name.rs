//! D4 `renewal_steals_lease`: a renewal that asks "is this job mine?" by
//! the node's name. Names are not claims: a node restarted under the same
//! name, two pods of one stateful set, a stalled node and its successor
//! on the same host all answer to it. A node whose lease ran out while it
//! stalled renews over the claim another node of its name took since, and
//! completes by name too: it writes the effect for a run that is no longer
//! its own, while the holder of the live claim is still running it.
//! `lease.rs` renews by fence, and only a lease still live.

use kit::pause_point;

use crate::Millis;
use crate::claim::Claim;
use crate::complete::{rolled_back, write_effect};
use crate::store::{Store, StoreError};

/// The window: the node has run the job and is about to renew its lease.
pub const WINDOW: &str = "durable-timer::renew_by_name: ran the job, not yet renewed";

// ANCHOR: renew
/// Renews the lease of whatever claim of `claim.job` carries `node`'s name.
///
/// # Errors
/// What the store reports.
pub fn renew(
    store: &mut dyn Store,
    claim: &Claim,
    node: &str,
    lease: Millis,
) -> Result<bool, StoreError> {
    pause_point(WINDOW);
    // BUG: the name, not the claim; and no look at whether the lease is
    // still live.
    let renewed = store.execute(
        "UPDATE jobs SET lease_until = {now} + $3 WHERE id = $1 AND owner = $2",
        &[claim.job.as_str().into(), node.into(), lease.into()],
    )?;
    Ok(renewed == 1)
}
// ANCHOR_END: renew

// ANCHOR: complete
/// Completes whatever claim of `claim.job` carries `node`'s name.
///
/// # Errors
/// What the store reports.
pub fn complete(store: &mut dyn Store, claim: &Claim, node: &str) -> Result<bool, StoreError> {
    store.begin()?;
    let done = store.execute(
        "UPDATE jobs SET owner = NULL, lease_until = NULL,
            state = CASE WHEN period_ms IS NULL THEN 'done' ELSE 'waiting' END,
            due_at = CASE WHEN period_ms IS NULL THEN due_at
                          ELSE occurrence + period_ms END
          WHERE id = $1 AND owner = $2 AND state = 'running'",
        &[claim.job.as_str().into(), node.into()],
    );
    match done {
        Ok(1) => {}
        Ok(_) => return store.rollback().map(|()| false),
        Err(e) => return Err(rolled_back(store, e)),
    }
    if let Err(e) = write_effect(store, claim, node) {
        return Err(rolled_back(store, e));
    }
    store.commit()?;
    Ok(true)
}
// ANCHOR_END: complete
