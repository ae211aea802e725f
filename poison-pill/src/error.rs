//! What can go wrong when scheduling: a typed error, never a panic.

use std::fmt;
use std::time::Duration;

/// Why a timer refused a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScheduleError {
    /// `now + delay` does not fit in an `Instant`.
    DelayOverflow(Duration),
    /// The timer was cancelled (or dropped): it takes no new task, whatever
    /// its delay. java.util.Timer throws an `IllegalStateException` here.
    Cancelled,
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::DelayOverflow(delay) => {
                write!(f, "a delay of {delay:?} from now overflows the clock")
            }
            // java.util.Timer's message, word for word.
            ScheduleError::Cancelled => f.write_str("Timer already cancelled."),
        }
    }
}

impl std::error::Error for ScheduleError {}
