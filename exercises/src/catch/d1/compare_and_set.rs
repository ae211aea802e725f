//! A correct claim in two statements, with no lock held between them: a
//! look that notes the job's fence and due time, then a mark that goes in
//! only if both are still what the look saw and the job is still due, its
//! rows counted. Every claim bumps the fence, so a job another node
//! claimed in between, even one that has since gone back to waiting for
//! its next occurrence, no longer matches: the mark changes no row, and
//! this node claimed nothing.

use durable_timer::claim::{DUE, SET};
use durable_timer::{Claim, Millis, Store, StoreError};

use super::round::Claimer;

/// The pause point between the look and the mark, no lock held.
pub(super) const WINDOW: &str =
    "exercises::catch::d1::compare_and_set: noted the job's fence, not yet marked";

/// Look, then mark if nothing changed.
pub(crate) enum CompareAndSet {}

impl Claimer for CompareAndSet {
    const WINDOW: &'static str = WINDOW;

    fn claim(
        store: &mut dyn Store,
        node: &str,
        lease: Millis,
    ) -> Result<Option<Claim>, StoreError> {
        let due = store.query(
            &format!("SELECT id, fence, due_at FROM jobs WHERE {DUE} ORDER BY due_at LIMIT 1"),
            &[],
        )?;
        let Some((id, fence, due_at)) = due
            .first()
            .map(|row| (row.text(0).to_owned(), row.int(1), row.int(2)))
        else {
            return Ok(None);
        };
        kit::pause_point(WINDOW);
        let rows = store.query(
            &format!(
                "UPDATE jobs SET {SET}
                  WHERE id = $3 AND fence = $4 AND due_at = $5 AND ({DUE})
                 RETURNING id, occurrence, fence, period_ms"
            ),
            &[
                node.into(),
                lease.into(),
                id.into(),
                fence.into(),
                due_at.into(),
            ],
        )?;
        // No row: another node claimed the job since the look.
        Ok(rows.first().map(|row| Claim {
            job: row.text(0).to_owned(),
            occurrence: row.int(1),
            fence: row.int(2),
            period: row.opt_int(3),
        }))
    }
}
