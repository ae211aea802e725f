//! D9 `duplicate_occurrence`: two nodes plan the same cron occurrence.
//! Each looks for a job of the schedule at that time, finds none, and
//! inserts one under an id of its own (a node-made id, as a random UUID
//! would be). Both inserts succeed, since the ids differ: two jobs, two
//! runs of one occurrence. `cron.rs` names the job by the schedule and
//! the time, the same on every node, and inserts it if no job has that id,
//! in one statement: the database's unique key decides.

use kit::pause_point;

use crate::clock::store_time;
use crate::cron::Schedule;
use crate::store::{Store, StoreError};

/// The window: the node has looked for the occurrence's job, not yet
/// inserted it.
pub const WINDOW: &str = "durable-timer::check_then_insert: found no job for it, not yet inserted";

// ANCHOR: plan
/// Plans the next occurrence of `schedule` if no job of it is there.
///
/// # Errors
/// What the store reports.
pub fn plan(
    store: &mut dyn Store,
    schedule: &Schedule,
    node: &str,
) -> Result<Option<String>, StoreError> {
    let at = schedule.next_at(store_time(store)?);
    let planned = store.query(
        "SELECT id FROM jobs WHERE due_at = $1 AND id LIKE $2",
        &[at.into(), format!("{}@%", schedule.name).into()],
    )?;
    if !planned.is_empty() {
        return Ok(None);
    }
    pause_point(WINDOW);
    // BUG: an id of this node's making: nothing stops a second insert.
    let id = format!("{}/{node}", schedule.job_id(at));
    store.execute(
        "INSERT INTO jobs (id, due_at, misfire, state) VALUES ($1, $2, 'fire_once', 'waiting')",
        &[id.as_str().into(), at.into()],
    )?;
    Ok(Some(id))
}
// ANCHOR_END: plan
