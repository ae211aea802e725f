//! The scheduler as a user sees it: [`Jobs`] over a store. Schedule a job
//! once or every period, cancel it, ask how it stands. The nodes
//! (`node.rs`) fire what it schedules.
//!
//! Nothing accepted is lost: a job is done, cancelled, or still in the
//! table, whichever node crashes when.

use std::str::FromStr;

use crate::error::{JobError, MAX_DUE};
use crate::misfire::Misfire;
use crate::store::{Row, Store};
use crate::{Millis, schema};

/// Where a job stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Waiting for its next occurrence.
    Waiting,
    /// A node has claimed it and runs it.
    Running,
    /// A one-shot job that ran.
    Done,
    /// Cancelled.
    Cancelled,
}

/// A job's row, as [`Jobs::status`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// Where it stands.
    pub state: State,
    /// Its next occurrence (a done one-shot job: the one that ran).
    pub due_at: Millis,
    /// Its period; `None` for a one-shot job.
    pub period: Option<Millis>,
    /// Its misfire policy.
    pub misfire: Misfire,
    /// The node running it, if one is.
    pub owner: Option<String>,
    /// How many times it was claimed: the fencing token of the last claim.
    pub fence: i64,
    /// The occurrence being run, or last run.
    pub occurrence: Option<Millis>,
}

/// The scheduler's API, on one connection to the store.
pub struct Jobs {
    store: Box<dyn Store>,
}

impl Jobs {
    /// The API on `store`, creating the tables if they are missing.
    ///
    /// # Errors
    /// [`JobError::Store`] if the store fails.
    pub fn new(mut store: Box<dyn Store>) -> Result<Jobs, JobError> {
        schema::create(store.as_mut())?;
        Ok(Jobs { store })
    }

    /// Schedules the one-shot job `id` at `at` (ms since the Unix epoch).
    ///
    /// # Errors
    /// [`JobError::DeadlineOutOfRange`], [`JobError::AlreadyExists`], or
    /// [`JobError::Store`].
    pub fn schedule_once(&mut self, id: &str, at: Millis) -> Result<(), JobError> {
        check_due(at)?;
        self.insert(id, at, None, Misfire::FireOnce)
    }

    /// Schedules the job `id` every `period` ms from `first`, handling
    /// missed occurrences by `misfire`.
    ///
    /// # Errors
    /// [`JobError::DeadlineOutOfRange`], [`JobError::BadPeriod`],
    /// [`JobError::AlreadyExists`], or [`JobError::Store`].
    pub fn schedule_every(
        &mut self,
        id: &str,
        first: Millis,
        period: Millis,
        misfire: Misfire,
    ) -> Result<(), JobError> {
        check_due(first)?;
        if !(1..=MAX_DUE).contains(&period) {
            return Err(JobError::BadPeriod { period });
        }
        self.insert(id, first, Some(period), misfire)
    }

    fn insert(
        &mut self,
        id: &str,
        at: Millis,
        period: Option<Millis>,
        misfire: Misfire,
    ) -> Result<(), JobError> {
        let added = self.store.execute(
            "INSERT INTO jobs (id, due_at, period_ms, misfire, state)
             VALUES ($1, $2, $3, $4, 'waiting') ON CONFLICT (id) DO NOTHING",
            &[id.into(), at.into(), period.into(), misfire.as_str().into()],
        )?;
        match added {
            1 => Ok(()),
            _ => Err(JobError::AlreadyExists { id: id.to_owned() }),
        }
    }

    /// Cancels the job `id`. Returns `false` if it had already ended (done
    /// or cancelled). A node running it when it is cancelled finds its
    /// completion refused: its effect is not written.
    ///
    /// # Errors
    /// [`JobError::UnknownJob`], or [`JobError::Store`].
    pub fn cancel(&mut self, id: &str) -> Result<bool, JobError> {
        let cancelled = self.store.execute(
            "UPDATE jobs SET state = 'cancelled', owner = NULL, lease_until = NULL
              WHERE id = $1 AND state IN ('waiting', 'running')",
            &[id.into()],
        )?;
        if cancelled == 1 {
            return Ok(true);
        }
        self.status(id).map(|_| false)
    }

    /// The job `id` as it stands.
    ///
    /// # Errors
    /// [`JobError::UnknownJob`], or [`JobError::Store`].
    pub fn status(&mut self, id: &str) -> Result<Status, JobError> {
        let rows = self.store.query(
            "SELECT state, due_at, period_ms, misfire, owner, fence, occurrence
               FROM jobs WHERE id = $1",
            &[id.into()],
        )?;
        let row = rows
            .first()
            .ok_or_else(|| JobError::UnknownJob { id: id.to_owned() })?;
        Ok(status(row))
    }
}

/// A due time in range, or why not.
fn check_due(at: Millis) -> Result<(), JobError> {
    if (0..=MAX_DUE).contains(&at) {
        Ok(())
    } else {
        Err(JobError::DeadlineOutOfRange { at, max: MAX_DUE })
    }
}

fn status(row: &Row) -> Status {
    let state = match row.text(0) {
        "running" => State::Running,
        "done" => State::Done,
        "cancelled" => State::Cancelled,
        _ => State::Waiting,
    };
    let owner = match row.0.get(4) {
        Some(crate::Value::Text(name)) => Some(name.clone()),
        _ => None,
    };
    Status {
        state,
        due_at: row.int(1),
        period: row.opt_int(2),
        misfire: Misfire::from_str(row.text(3)).unwrap_or_default(),
        owner,
        fence: row.int(5),
        occurrence: row.opt_int(6),
    }
}
