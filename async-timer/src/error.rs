//! What the timer refuses with.
//!
//! A [`Sleep`](crate::Sleep) resolves to `Result<(), TimerError>`, not to
//! `()`. Two things can go wrong with a timer, and both are found only
//! where the future meets the driver: a deadline further away than the
//! wheel counts, and a driver that has shut down, which can happen at any
//! moment while a `Sleep` waits. Reporting the first when the `Sleep` is
//! made would still leave the second to the `await`, so both come out of
//! the one place a caller already looks: the output. A `Result` left
//! unused is a compiler warning: stage 7's lesson (W4), a refusal no
//! caller can miss.
//!
//! tokio's `Sleep` outputs `()`, so it has nowhere to put an error: it
//! panics on a driver that has shut down, and takes any deadline, letting
//! one beyond its wheel's range lap the top level (tokio 1.53.1,
//! time/sleep.rs and runtime/time/wheel/mod.rs). `timeout` adds its own
//! outcome, [`TimeoutError::Elapsed`], beside the timer's.

use std::fmt;
use std::time::Duration;

/// Why a timer could not do what it was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimerError {
    /// The deadline is further away than the wheel counts: six levels of
    /// 64 slots, 2^36 ticks (about 2.2 years of 1 ms ticks).
    BeyondRange {
        /// How far away the deadline was when it was given.
        delay: Duration,
        /// The furthest the wheel takes.
        max: Duration,
    },
    /// The driver has shut down: no timer of it will fire again. A `Sleep`
    /// still waiting when it shut down ends with this.
    Shutdown,
    /// An interval of zero: it would tick without end.
    ZeroPeriod,
}

impl fmt::Display for TimerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimerError::BeyondRange { delay, max } => write!(
                f,
                "a deadline {delay:?} away is beyond the wheel's range of {max:?}"
            ),
            TimerError::Shutdown => write!(f, "the timer's driver has shut down"),
            TimerError::ZeroPeriod => write!(f, "an interval's period must be longer than zero"),
        }
    }
}

impl std::error::Error for TimerError {}

/// How a `timeout` ended without the future's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeoutError {
    /// The time ran out before the future was ready.
    Elapsed,
    /// The timer itself failed, so the timeout could not be kept.
    Timer(TimerError),
}

impl fmt::Display for TimeoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeoutError::Elapsed => write!(f, "deadline has elapsed"),
            TimeoutError::Timer(error) => write!(f, "timeout not kept: {error}"),
        }
    }
}

impl std::error::Error for TimeoutError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TimeoutError::Elapsed => None,
            TimeoutError::Timer(error) => Some(error),
        }
    }
}

/// Why a driver could not start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartError {
    /// A tick of zero: deadlines could not be counted in ticks.
    ZeroTick,
    /// The driver's thread could not be started (a name with a NUL byte
    /// in it, say).
    Spawn(String),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::ZeroTick => write!(f, "the tick must be longer than zero"),
            StartError::Spawn(why) => write!(f, "could not start the driver thread: {why}"),
        }
    }
}

impl std::error::Error for StartError {}
