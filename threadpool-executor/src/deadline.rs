//! A point on the pool's clock: when a scheduled task is due.
//!
//! The scheduled pool orders its tasks by deadline, so it needs a time it
//! can compare, store in a task, and compute with. Java keeps a task's
//! trigger time as a `long` of `System.nanoTime()` and decides which task
//! comes first with `a - b < 0`. Signed times that can wrap, and a
//! comparison by subtraction, are what T15 (`fixed_delay_overflow`,
//! JDK-8051859, and JDK-6725789 before it) is made of: with a delay near
//! `Long.MAX_VALUE`, a sum or a difference overflows, a far task compares
//! as earlier than everything else, and nothing behind it ever runs.
//!
//! A [`Deadline`] is the same idea with the two traps removed:
//!
//! - it counts nanoseconds since one process-wide origin, taken the first
//!   time the clock is read, so it is never negative and a `u64` of
//!   nanoseconds lasts 584 years;
//! - [`Deadline::after`] saturates at [`Deadline::FOREVER`] instead of
//!   wrapping: a delay too long for the clock means "never";
//! - deadlines are **compared, never subtracted** (`Ord` is derived from the
//!   number), and a duration between two of them is asked for with
//!   [`Deadline::saturating_duration_since`], which is zero when the
//!   "earlier" one is the later.
//!
//! The clock is the stage's sync facade's (src/sync.rs): the monotonic
//! clock normally, frozen under loom, where "now" is always due and any
//! later deadline never comes.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::sync;

/// A point on the pool's clock, in nanoseconds since the clock's origin.
///
/// ```
/// use std::time::Duration;
/// use threadpool_executor::deadline::Deadline;
///
/// let now = Deadline::now();
/// let soon = now.after(Duration::from_millis(5));
/// assert!(now < soon);
/// assert_eq!(soon.saturating_duration_since(now), Duration::from_millis(5));
/// assert_eq!(now.saturating_duration_since(soon), Duration::ZERO);
/// // Too far for the clock is forever, not a wrap into the past (T15).
/// assert_eq!(soon.after(Duration::MAX), Deadline::FOREVER);
/// assert_eq!(Deadline::FOREVER.to_instant(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Deadline(u64);

/// The instant every deadline counts from: the first time anyone asked.
fn origin() -> Instant {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    *ORIGIN.get_or_init(sync::now)
}

/// A duration as whole nanoseconds, saturating at `u64::MAX`.
fn nanos_of(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

impl Deadline {
    /// Never: later than every deadline the clock can reach.
    pub const FOREVER: Deadline = Deadline(u64::MAX);

    /// Now, on the stage's clock (frozen under loom).
    pub fn now() -> Deadline {
        let origin = origin();
        // The clock reaches FOREVER only after 584 years; stop just short
        // of it so that "now" is never "never".
        Deadline(nanos_of(sync::now().saturating_duration_since(origin)).min(u64::MAX - 1))
    }

    // ANCHOR: deadline_after
    /// `delay` after this deadline. Saturates: a delay too long for the
    /// clock gives [`Deadline::FOREVER`], never a wrap into the past (the
    /// overflow of T15).
    pub fn after(self, delay: Duration) -> Deadline {
        Deadline(self.0.saturating_add(nanos_of(delay)))
    }
    // ANCHOR_END: deadline_after

    /// The deadline `nanos` nanoseconds after the clock's origin.
    pub fn from_nanos(nanos: u64) -> Deadline {
        Deadline(nanos)
    }

    /// Nanoseconds since the clock's origin.
    pub fn as_nanos(self) -> u64 {
        self.0
    }

    /// How long after `earlier` this is; zero if `earlier` is in fact the
    /// later one. The one way to get a duration out of two deadlines.
    pub fn saturating_duration_since(self, earlier: Deadline) -> Duration {
        Duration::from_nanos(self.0.saturating_sub(earlier.0))
    }

    /// How long from now until this deadline; zero if it has passed.
    pub fn remaining(self) -> Duration {
        self.saturating_duration_since(Deadline::now())
    }

    /// This deadline as an `Instant`, for a timed wait; `None` if the
    /// platform's `Instant` cannot hold it ([`Deadline::FOREVER`] among
    /// them): wait without a time limit then.
    pub fn to_instant(self) -> Option<Instant> {
        if self == Deadline::FOREVER {
            return None;
        }
        origin().checked_add(Duration::from_nanos(self.0))
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn after_saturates_and_durations_never_go_negative() {
        let d = Deadline::from_nanos(u64::MAX - 10);
        assert_eq!(d.after(Duration::from_nanos(5)).as_nanos(), u64::MAX - 5);
        assert_eq!(d.after(Duration::from_nanos(11)), Deadline::FOREVER);
        assert_eq!(d.after(Duration::MAX), Deadline::FOREVER);
        let a = Deadline::from_nanos(100);
        let b = Deadline::from_nanos(250);
        assert_eq!(b.saturating_duration_since(a), Duration::from_nanos(150));
        assert_eq!(a.saturating_duration_since(b), Duration::ZERO);
        assert!(a < b && b < Deadline::FOREVER);
    }

    #[test]
    fn now_moves_forward_and_round_trips_through_instant() {
        let a = Deadline::now();
        let b = Deadline::now();
        assert!(a <= b);
        let soon = a.after(Duration::from_secs(1));
        let instant = soon.to_instant().expect("representable");
        assert_eq!(instant - a.to_instant().unwrap(), Duration::from_secs(1));
        assert!(soon.remaining() <= Duration::from_secs(1));
        assert_eq!(Deadline::from_nanos(0).remaining(), Duration::ZERO);
        assert!(Deadline::now() < Deadline::FOREVER);
    }
}
