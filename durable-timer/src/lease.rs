//! Renewing a lease. A node whose action runs long extends its claim
//! before the lease runs out. The renewal is fenced like the completion,
//! and more: it succeeds only while the lease is still live. A node that
//! finds its lease gone may not take it back, even if no one else has
//! claimed the job yet, because another node may be claiming it at this
//! moment; it demotes itself: it drops the run and writes nothing (D4).

use crate::Millis;
use crate::claim::Claim;
use crate::store::{Store, StoreError};

// ANCHOR: renew
/// Extends `claim`'s lease to `lease` ms from the store's now. Returns
/// `false` if the claim no longer holds a live lease: the node must drop
/// the run.
///
/// # Errors
/// What the store reports.
pub fn renew(store: &mut dyn Store, claim: &Claim, lease: Millis) -> Result<bool, StoreError> {
    let renewed = store.execute(
        "UPDATE jobs SET lease_until = {now} + $3
          WHERE id = $1 AND fence = $2 AND state = 'running'
            AND lease_until > {now}",
        &[claim.job.as_str().into(), claim.fence.into(), lease.into()],
    )?;
    Ok(renewed == 1)
}
// ANCHOR_END: renew
