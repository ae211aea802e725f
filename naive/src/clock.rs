//! Where "now" comes from.
//!
//! A timer turns "in 50 ms" into a deadline: now + 50 ms. Which clock says
//! "now" matters. java.util.Timer (and the Java Timer article's rebuild of
//! it) read the wall clock, the time of day, which anyone with the right to
//! set the date can move. Set it back a year and every deadline taken from it
//! is a year further away (bug N3). `Instant`, Rust's monotonic clock (Java's
//! `System.nanoTime`), never moves back.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

// ANCHOR: clock
/// A source of "now": the time since the clock's own epoch.
pub trait Clock: Send + Sync + 'static {
    /// Time since this clock's epoch.
    fn now(&self) -> Duration;
}

/// The time of day, as `System.currentTimeMillis`: `SystemTime` since the
/// Unix epoch. Whoever may set the date may move it, backwards too.
#[derive(Debug, Clone, Copy, Default)]
pub struct WallClock;

impl Clock for WallClock {
    fn now(&self) -> Duration {
        // A system clock set before 1970 reads as the epoch itself.
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or(Duration::ZERO)
    }
}
// ANCHOR_END: clock

/// The monotonic clock, as `System.nanoTime`: `Instant` since the clock was
/// created. Nobody can set it; it only moves forward.
#[derive(Debug, Clone, Copy)]
pub struct MonotonicClock {
    epoch: Instant,
}

impl MonotonicClock {
    /// A clock whose epoch is now.
    pub fn new() -> MonotonicClock {
        MonotonicClock {
            epoch: Instant::now(),
        }
    }
}

impl Default for MonotonicClock {
    fn default() -> Self {
        Self::new()
    }
}

// ANCHOR: monotonic
impl Clock for MonotonicClock {
    fn now(&self) -> Duration {
        self.epoch.elapsed()
    }
}
// ANCHOR_END: monotonic

// ANCHOR: settable
/// The wall clock, with the one power the OS gives an administrator that
/// matters here: setting it back.
///
/// Clones share one setting, so a test keeps a handle while the timer holds
/// another.
#[derive(Debug, Clone, Default)]
pub struct SettableWallClock {
    /// How far the clock has been set back, in nanoseconds.
    back_nanos: Arc<AtomicU64>,
}

impl SettableWallClock {
    /// The real wall clock, not yet moved.
    pub fn new() -> SettableWallClock {
        SettableWallClock::default()
    }

    /// Sets the clock back by `by`, as `date -s` would.
    pub fn set_back(&self, by: Duration) {
        let nanos = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
        // ORDERING: Relaxed is enough: the offset is one number, read whole,
        // and no other memory is published with it.
        self.back_nanos.fetch_add(nanos, Ordering::Relaxed);
    }
}

impl Clock for SettableWallClock {
    fn now(&self) -> Duration {
        // ORDERING: see `set_back`.
        let back = Duration::from_nanos(self.back_nanos.load(Ordering::Relaxed));
        WallClock.now().saturating_sub(back)
    }
}
// ANCHOR_END: settable

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_back_moves_every_clone() {
        let clock = SettableWallClock::new();
        let handle = clock.clone();
        let before = clock.now();
        handle.set_back(Duration::from_secs(3600));
        assert!(clock.now() + Duration::from_secs(3000) < before);
    }

    #[test]
    fn the_monotonic_clock_starts_at_zero_and_moves_forward() {
        let clock = MonotonicClock::new();
        let a = clock.now();
        let b = clock.now();
        assert!(a <= b && b < Duration::from_secs(60));
    }
}
