//! D3 `stale_lease_write`: a completion with no fence. A node stalls past
//! its lease (a long GC pause, a SIGSTOP, a starved VM) between running
//! the job and completing it. Its lease runs out, another node claims the
//! job, runs it and completes it. The first one wakes and completes too,
//! by the job's id: it writes the effect a second time. Nothing in the
//! node can notice the stall; the store must refuse the write. That is
//! the fencing token of `complete.rs`, bumped by every claim.

use kit::pause_point;

use crate::claim::Claim;
use crate::complete::{effect_row, rolled_back};
use crate::store::{Store, StoreError};

/// The window: the node has run the job and is about to complete it.
pub const WINDOW: &str = "durable-timer::unfenced_write: ran the job, not yet completed it";

/// Completes `claim` by the job's id, and writes its effect.
///
/// # Errors
/// What the store reports.
// ANCHOR: complete
pub fn complete(store: &mut dyn Store, claim: &Claim, node: &str) -> Result<bool, StoreError> {
    pause_point(WINDOW);
    store.begin()?;
    // BUG: by id alone; whoever claimed the job since, this write goes in.
    let done = store.execute(
        "UPDATE jobs SET owner = NULL, lease_until = NULL,
            state = CASE WHEN period_ms IS NULL THEN 'done' ELSE 'waiting' END,
            due_at = CASE WHEN period_ms IS NULL THEN due_at
                          ELSE occurrence + period_ms END
          WHERE id = $1",
        &[claim.job.as_str().into()],
    );
    let effect = done.and_then(|_| {
        store.execute(
            "INSERT INTO effects (job_id, occurrence, fence, node, at)
             VALUES ($1, $2, $3, $4, {now})",
            &effect_row(claim, node),
        )
    });
    if let Err(e) = effect {
        return Err(rolled_back(store, e));
    }
    store.commit()?;
    Ok(true)
}
// ANCHOR_END: complete
