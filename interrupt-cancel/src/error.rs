//! Why a timer refuses a task: a typed error with a message, never a panic.

use std::fmt;
use std::time::Duration;

/// Why a timer refused a task.
///
/// ```
/// use interrupt_cancel::error::ScheduleError;
/// use interrupt_cancel::timer::Timer;
/// use std::time::Duration;
///
/// let timer = Timer::new("doc-errors")?;
/// let err = timer.schedule_at_fixed_rate(Duration::ZERO, Duration::ZERO, || {}).unwrap_err();
/// assert_eq!(err, ScheduleError::ZeroPeriod);
/// timer.cancel();
/// let err = timer.schedule(Duration::ZERO, || {}).unwrap_err();
/// assert_eq!(err.to_string(), "Timer already cancelled.");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScheduleError {
    /// `now + delay` does not fit in an `Instant`.
    DelayOverflow(Duration),
    /// The first run plus one period does not fit in an `Instant`.
    PeriodOverflow(Duration),
    /// A repeating task needs a period longer than zero.
    ZeroPeriod,
    /// The timer was cancelled, or its thread has died: java.util.Timer's
    /// `IllegalStateException`.
    Cancelled,
    /// The timer was shut down: it runs the one-shot tasks it holds, and
    /// takes no new ones (`Timer::shutdown`).
    ShutDown,
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::DelayOverflow(delay) => {
                write!(f, "a delay of {delay:?} from now overflows the clock")
            }
            ScheduleError::PeriodOverflow(period) => {
                write!(
                    f,
                    "a period of {period:?} after the first run overflows the clock"
                )
            }
            ScheduleError::ZeroPeriod => {
                f.write_str("the period of a repeating task must be longer than zero")
            }
            // java.util.Timer's message, word for word.
            ScheduleError::Cancelled => f.write_str("Timer already cancelled."),
            ScheduleError::ShutDown => {
                f.write_str("the timer is shut down: it runs what it holds and takes nothing new")
            }
        }
    }
}

impl std::error::Error for ScheduleError {}
