//! What the scheduler's API refuses with. Bad input is a typed error,
//! never a panic, and a refused call changes nothing.

use std::fmt;

use crate::Millis;
use crate::store::StoreError;

/// The latest due time a job may have: the last millisecond of the year
/// 9999. Far enough for any schedule, and small enough that a due time
/// plus a period never overflows a BIGINT.
pub const MAX_DUE: Millis = 253_402_300_799_999;

/// Why a call of [`Jobs`](crate::Jobs) was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobError {
    /// A due time before the Unix epoch or after [`MAX_DUE`].
    DeadlineOutOfRange {
        /// The due time asked for.
        at: Millis,
        /// The latest one taken.
        max: Millis,
    },
    /// A recurring job's period is zero, negative, or longer than
    /// [`MAX_DUE`].
    BadPeriod {
        /// The period asked for, in ms.
        period: Millis,
    },
    /// No job has this id.
    UnknownJob {
        /// The id asked for.
        id: String,
    },
    /// A job with this id exists already (in any state: an id names one
    /// job for ever, so that a retried call cannot schedule it twice).
    AlreadyExists {
        /// The id asked for.
        id: String,
    },
    /// The store failed; nothing was changed.
    Store(StoreError),
}

impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JobError::DeadlineOutOfRange { at, max } => {
                write!(f, "due time {at} ms is out of range (0 to {max} ms)")
            }
            JobError::BadPeriod { period } => {
                write!(f, "period {period} ms: a period is at least 1 ms")
            }
            JobError::UnknownJob { id } => write!(f, "no job {id:?}"),
            JobError::AlreadyExists { id } => write!(f, "job {id:?} exists already"),
            JobError::Store(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for JobError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            JobError::Store(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StoreError> for JobError {
    fn from(e: StoreError) -> JobError {
        JobError::Store(e)
    }
}
