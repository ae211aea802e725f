//! Starting a job's action, and completing it.
//!
//! The action runs outside the database (an email goes out), so nothing
//! can take it back: a node records a delivery before it runs it, and a
//! node that crashes, or stalls past its lease, before it completes, has
//! its occurrence run again by the next claim. That is at-least-once
//! delivery, and no version can do better.
//!
//! The effect in the database is another matter. The completion writes
//! it in the same transaction as the job's new state, and only if this
//! claim still holds the job: its fence is the job's, and the job is still
//! running. A stale node's completion changes no row and is rolled back
//! (D3). The effect is written once per occurrence: effectively once.

use crate::claim::Claim;
use crate::store::{Store, StoreError};

// ANCHOR: deliver
/// Records that `node` starts the action of `claim` (its delivery).
///
/// # Errors
/// What the store reports.
pub fn deliver(store: &mut dyn Store, claim: &Claim, node: &str) -> Result<(), StoreError> {
    store.execute(
        "INSERT INTO deliveries (job_id, occurrence, fence, node, at)
         VALUES ($1, $2, $3, $4, {now})",
        &[
            claim.job.as_str().into(),
            claim.occurrence.into(),
            claim.fence.into(),
            node.into(),
        ],
    )?;
    Ok(())
}
// ANCHOR_END: deliver

/// Completes `claim`: a one-shot job is done, a recurring one waits for
/// its next occurrence; and the occurrence's effect is written. Returns
/// `false`, writing nothing, if the claim no longer holds the job.
///
/// # Errors
/// What the store reports; the transaction was rolled back.
// ANCHOR: complete
pub fn complete(store: &mut dyn Store, claim: &Claim, node: &str) -> Result<bool, StoreError> {
    store.begin()?;
    let done = store.execute(
        "UPDATE jobs SET owner = NULL, lease_until = NULL,
            state = CASE WHEN period_ms IS NULL THEN 'done' ELSE 'waiting' END,
            due_at = CASE WHEN period_ms IS NULL THEN due_at
                          ELSE occurrence + period_ms END
          WHERE id = $1 AND fence = $2 AND state = 'running'",
        &[claim.job.as_str().into(), claim.fence.into()],
    );
    match done {
        Ok(1) => {}
        Ok(_) => return store.rollback().map(|()| false), // fenced out
        Err(e) => return Err(rolled_back(store, e)),
    }
    // Not racy: the UPDATE above holds the job's row (PostgreSQL locks it
    // to the end of the transaction; SQLite has one writer at a time), so
    // no other completion of this job runs between the look and the write.
    if let Err(e) = write_effect(store, claim, node) {
        return Err(rolled_back(store, e));
    }
    store.commit()?;
    Ok(true)
}
// ANCHOR_END: complete

// ANCHOR: effect
/// The occurrence's effect, unless it is there already.
pub(crate) fn write_effect(
    store: &mut dyn Store,
    claim: &Claim,
    node: &str,
) -> Result<u64, StoreError> {
    store.execute(
        "INSERT INTO effects (job_id, occurrence, fence, node, at)
         SELECT CAST($1 AS TEXT), CAST($2 AS BIGINT), CAST($3 AS BIGINT), CAST($4 AS TEXT), {now}
          WHERE NOT EXISTS (SELECT 1 FROM effects
                             WHERE job_id = CAST($1 AS TEXT) AND occurrence = CAST($2 AS BIGINT))",
        &effect_row(claim, node),
    )
}
// ANCHOR_END: effect

/// The effect's values: job, occurrence, fence, node.
pub(crate) fn effect_row(claim: &Claim, node: &str) -> [crate::Value; 4] {
    [
        claim.job.as_str().into(),
        claim.occurrence.into(),
        claim.fence.into(),
        node.into(),
    ]
}

/// Rolls back after `e`, and returns `e` (a failed rollback adds nothing:
/// the transaction ends with the connection anyway).
pub(crate) fn rolled_back(store: &mut dyn Store, e: StoreError) -> StoreError {
    let _ = store.rollback();
    e
}
