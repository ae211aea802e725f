//! Cron: a schedule every node knows (from its configuration, as every
//! node of a cluster reads the same file), whose occurrences become
//! one-shot jobs. Each node plans the next occurrence, so that it is
//! planned even if some nodes are down; so several nodes plan the same one.
//!
//! The fix is a name: the occurrence's job has an id made from the
//! schedule and the time, `"{schedule}@{at}"`, the same on every node, and
//! is inserted if no job has it yet, in one statement. A second node's
//! insert changes no row (D9 inserts under a name of its own after a
//! look: two jobs, two runs).

use kit::pause_point;

use crate::Millis;
use crate::clock::store_time;
use crate::store::{Store, StoreError};

/// A node's thread, planning: it has computed the next occurrence and not
/// yet inserted its job.
pub const PLANNING: &str = "durable-timer::cron: computed the next occurrence, not yet inserted";

/// A recurring schedule whose occurrences are planned as one-shot jobs:
/// at `first`, then every `period` ms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// The schedule's name, the start of its jobs' ids.
    pub name: String,
    /// Its first occurrence.
    pub first: Millis,
    /// The time between occurrences, in ms (at least 1).
    pub period: Millis,
}

impl Schedule {
    /// The first occurrence at or after `now`.
    pub fn next_at(&self, now: Millis) -> Millis {
        if now <= self.first {
            return self.first;
        }
        let period = self.period.max(1);
        let periods = (now - self.first + period - 1) / period; // rounded up
        self.first.saturating_add(periods.saturating_mul(period))
    }

    /// The id of the job for the occurrence at `at`.
    pub fn job_id(&self, at: Millis) -> String {
        format!("{}@{at}", self.name)
    }
}

// ANCHOR: plan
/// Inserts the next occurrence of `schedule` (at or after the store's
/// now) as a one-shot job, unless one is there. Returns its id if this
/// call inserted it.
///
/// # Errors
/// What the store reports.
pub fn plan(store: &mut dyn Store, schedule: &Schedule) -> Result<Option<String>, StoreError> {
    let at = schedule.next_at(store_time(store)?);
    let id = schedule.job_id(at);
    pause_point(PLANNING);
    let inserted = store.execute(
        "INSERT INTO jobs (id, due_at, misfire, state) VALUES ($1, $2, 'fire_once', 'waiting')
         ON CONFLICT (id) DO NOTHING",
        &[id.as_str().into(), at.into()],
    )?;
    Ok((inserted == 1).then_some(id))
}
// ANCHOR_END: plan
