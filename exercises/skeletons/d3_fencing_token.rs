//! Exercise D3: a completion that a stalled node can still write.
//!
//! The completion of *A timer that outlives its process*, without its
//! fence. A node claims a job on a lease, records its delivery, runs it,
//! and then completes it: in one transaction, the job is done (or waits
//! for its next occurrence) and the occurrence's effect is written. This
//! completion goes in by the job's id alone. A node that stalls past its
//! lease between running the job and completing it (a long GC pause, a
//! SIGSTOP, a starved VM) wakes after another node has claimed the job,
//! run it and completed it, and writes the effect a second time (D3).
//!
//! Your job: make the store refuse the stale node's write. Every claim
//! bumps the job's fencing token (`fence`) and hands it to the node in its
//! [`Claim`]; a completion that no longer holds the job must change
//! nothing, write no effect, and return `Ok(false)`. Keep the public API,
//! and keep the `kit::pause_point(WINDOW)` call first: the check holds
//! node a there, past the end of its lease, while node b claims the job,
//! runs it and completes it.
//!
//! Check: `cargo xtask exercise check d3`. Hints: `cargo xtask exercise hint d3`.

use durable_timer::{Claim, Store, StoreError};

/// Where the check holds a node: it has run the job and is about to
/// complete it.
pub const WINDOW: &str = "exercise d3: ran the job, not yet completed it";

/// Completes `claim` for `node`: a one-shot job is done, a recurring one
/// waits for its next occurrence, and the occurrence's effect is written.
/// Returns `false`, writing nothing, if the claim no longer holds the job.
///
/// # Errors
/// What the store reports; the transaction was rolled back.
pub fn complete(store: &mut dyn Store, claim: &Claim, node: &str) -> Result<bool, StoreError> {
    kit::pause_point(WINDOW);
    store.begin()?;
    // TODO(D3): complete only if this claim still holds the job: the job
    // still carries the claim's fence, and is still running. If the UPDATE
    // changed no row, roll back and return `Ok(false)`, writing no effect.
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
            &[
                claim.job.as_str().into(),
                claim.occurrence.into(),
                claim.fence.into(),
                node.into(),
            ],
        )
    });
    if let Err(e) = effect {
        let _ = store.rollback();
        return Err(e);
    }
    store.commit()?;
    Ok(true)
}
