//! A correct claim in two statements: the look and the mark inside one
//! `BEGIN IMMEDIATE` transaction. On SQLite the transaction takes the
//! write lock at once and keeps it to the commit, so no other node can
//! claim (or write anything) between the look and the mark: another
//! node's round waits for the lock, and then finds the job taken. The
//! window is inside the lock.

use durable_timer::claim::{DUE, SET};
use durable_timer::{Claim, Millis, Store, StoreError};

use super::round::Claimer;

/// The pause point between the look and the mark, the write lock held.
pub(super) const WINDOW: &str =
    "exercises::catch::d1::transaction: looked in a transaction, not yet marked";

/// Look, then mark, in one `BEGIN IMMEDIATE` transaction.
pub(crate) enum Transaction {}

impl Claimer for Transaction {
    const WINDOW: &'static str = WINDOW;

    fn claim(
        store: &mut dyn Store,
        node: &str,
        lease: Millis,
    ) -> Result<Option<Claim>, StoreError> {
        store.begin()?;
        let claimed = look_and_mark(store, node, lease);
        match claimed {
            Ok(claim) => store.commit().map(|()| claim),
            Err(e) => {
                let _ = store.rollback();
                Err(e)
            }
        }
    }
}

/// The look and the mark, inside the caller's transaction.
fn look_and_mark(
    store: &mut dyn Store,
    node: &str,
    lease: Millis,
) -> Result<Option<Claim>, StoreError> {
    let due = store.query(
        &format!("SELECT id FROM jobs WHERE {DUE} ORDER BY due_at LIMIT 1"),
        &[],
    )?;
    let Some(id) = due.first().map(|row| row.text(0).to_owned()) else {
        return Ok(None);
    };
    kit::pause_point(WINDOW);
    // By id alone, and safe: no other writer can have come between.
    let rows = store.query(
        &format!(
            "UPDATE jobs SET {SET} WHERE id = $3
             RETURNING id, occurrence, fence, period_ms"
        ),
        &[node.into(), lease.into(), id.into()],
    )?;
    Ok(rows.first().map(|row| Claim {
        job: row.text(0).to_owned(),
        occurrence: row.int(1),
        fence: row.int(2),
        period: row.opt_int(3),
    }))
}
