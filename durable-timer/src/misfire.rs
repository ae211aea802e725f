//! What a recurring job does about the occurrences it missed while no
//! node ran (downtime, or the clock jumped): its misfire policy, explicit
//! for every job.
//!
//! Neither policy runs the missed occurrences one by one, which is D8's
//! catch-up storm: 150 missed periods, 150 runs in a burst. The latest
//! missed occurrence is computed in one step, `due + period * ((now -
//! due) / period)`, the arithmetic in the claim's `SET` (`claim.rs`).

use std::fmt;
use std::str::FromStr;

use crate::store::{Store, StoreError};

/// A recurring job's misfire policy. One-shot jobs ignore it: a one-shot
/// job fires once, however late.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Misfire {
    /// After downtime, run the latest missed occurrence once, then go on
    /// from the next one after now.
    #[default]
    FireOnce,
    /// Run an occurrence only if it is less than one period late;
    /// otherwise run nothing and go on from the next one after now.
    Skip,
}

impl Misfire {
    /// The policy's name in the `jobs.misfire` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Misfire::FireOnce => "fire_once",
            Misfire::Skip => "skip",
        }
    }
}

impl fmt::Display for Misfire {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Misfire {
    type Err = String;

    fn from_str(s: &str) -> Result<Misfire, String> {
        match s {
            "fire_once" => Ok(Misfire::FireOnce),
            "skip" => Ok(Misfire::Skip),
            other => Err(format!("unknown misfire policy {other:?}")),
        }
    }
}

// ANCHOR: skip_missed
/// What [`skip_missed`] runs. `due_at <= {now}` follows from the last
/// test (a period is 1 ms or more), and is what the index `jobs_skip`
/// can seek by: the statement reads the `skip` jobs that are due, not
/// every waiting job.
pub const SKIP_MISSED: &str =
    "UPDATE jobs SET due_at = due_at + period_ms * (({now} - due_at) / period_ms + 1)
      WHERE state = 'waiting' AND misfire = 'skip' AND due_at <= {now}
        AND period_ms IS NOT NULL AND due_at + period_ms <= {now}";

/// Moves every `skip` job that is a period or more late to its first
/// occurrence after now, running nothing. Returns how many moved.
///
/// # Errors
/// What the store reports.
pub fn skip_missed(store: &mut dyn Store) -> Result<u64, StoreError> {
    store.execute(SKIP_MISSED, &[])
}
// ANCHOR_END: skip_missed
