//! What can go wrong when scheduling: a typed error, never a panic.

use std::fmt;
use std::time::Duration;

/// Why a timer refused a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScheduleError {
    /// `now + delay` does not fit in the clock's range.
    DelayOverflow(Duration),
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::DelayOverflow(delay) => {
                write!(f, "a delay of {delay:?} from now overflows the clock")
            }
        }
    }
}

impl std::error::Error for ScheduleError {}
