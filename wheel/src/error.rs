//! What a wheel refuses with. A configuration it cannot run is a
//! [`ConfigError`]; a task it cannot take is a [`Refused`], and the task
//! comes back inside it: the CAS hashed wheel timer post's `add` returned
//! `false`, which a caller can ignore and lose the task (W4), while an
//! `Err` holding the task cannot be ignored without dropping it on purpose.

use std::fmt;
use std::time::Duration;

use crate::job::Job;

/// A wheel configuration that cannot work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigError {
    /// A tick of zero: the ticker would never sleep.
    ZeroTick,
    /// A wheel with no slots.
    ZeroSlots,
    /// Slots that hold no task at all.
    ZeroCapacity,
    /// More cells (slots × capacity) than the wheel will allocate.
    TooLarge {
        /// The slots asked for.
        slots: usize,
        /// The tasks a slot holds, as asked for.
        capacity: usize,
        /// The most cells the wheel allocates.
        max: usize,
    },
    /// The thread the wheel needs could not be started.
    Spawn(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::ZeroTick => write!(f, "the tick must be longer than zero"),
            ConfigError::ZeroSlots => write!(f, "a wheel needs at least one slot"),
            ConfigError::ZeroCapacity => write!(f, "a slot must hold at least one task"),
            ConfigError::TooLarge {
                slots,
                capacity,
                max,
            } => write!(
                f,
                "{slots} slots of {capacity} tasks is more than the {max} cells a wheel allocates"
            ),
            ConfigError::Spawn(why) => write!(f, "could not start the ticker thread: {why}"),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Why a wheel refused a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The slot the task falls in holds `capacity` tasks already (W4).
    SlotFull {
        /// The slot's index.
        slot: usize,
        /// How many tasks a slot holds.
        capacity: usize,
    },
    /// The delay is longer than this wheel can count.
    BeyondRange {
        /// The delay asked for.
        delay: Duration,
        /// The longest delay the wheel takes.
        max: Duration,
    },
    /// The wheel has been stopped.
    Stopped,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::SlotFull { slot, capacity } => {
                write!(f, "slot {slot} is full ({capacity} tasks)")
            }
            Reason::BeyondRange { delay, max } => {
                write!(
                    f,
                    "a delay of {delay:?} is beyond the wheel's range of {max:?}"
                )
            }
            Reason::Stopped => write!(f, "the wheel has been stopped"),
        }
    }
}

/// A task the wheel would not take, handed back with the reason.
pub struct Refused {
    reason: Reason,
    job: Job,
}

impl Refused {
    /// A refusal of `job` for `reason`.
    pub fn new(reason: Reason, job: Job) -> Refused {
        Refused { reason, job }
    }

    /// Why the task was refused.
    pub fn reason(&self) -> Reason {
        self.reason
    }

    /// The task, ours again: run it elsewhere, retry, or drop it on purpose.
    pub fn into_job(self) -> Job {
        self.job
    }
}

impl fmt::Debug for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Refused")
            .field("reason", &self.reason)
            .finish_non_exhaustive()
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "task refused: {}", self.reason)
    }
}

impl std::error::Error for Refused {}
