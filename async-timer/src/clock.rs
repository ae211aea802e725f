//! Time, for the driver: instants turned into the wheel's tick numbers,
//! and back.
//!
//! Tick `n` begins at `start + n * tick`. A deadline is rounded *up* to
//! the first tick at or after it, and "now" *down* to the tick that has
//! begun, so the driver, firing every tick at or before now, never fires
//! a timer early: at most one tick late (stage 7's W6).
//!
//! The clock is real (the monotonic clock) or manual: a manual clock
//! moves only when [`ManualClock::advance`] moves it, as tokio's paused
//! clock does. A test can then count what an interval does after a stall
//! of exactly k periods (A8), and a loom model, which has no clock of its
//! own, can let time pass.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use wheel::levels::RANGE;

use crate::handle::Shared;
use crate::sync::{self, AtomicU64};

/// The driver's time source. Set at start, read by every thread.
pub(crate) struct Clock {
    /// Tick 0.
    start: Instant,
    tick: Duration,
    /// A manual clock's time since `start`, in nanoseconds; `None` for the
    /// real clock. Written only by `advance`, read by anyone.
    manual: Option<AtomicU64>,
}

impl Clock {
    /// A clock starting now; `manual` for one that moves only when told.
    pub(crate) fn new(tick: Duration, manual: bool) -> Clock {
        Clock {
            start: sync::now(),
            tick,
            manual: manual.then(|| AtomicU64::new(0)),
        }
    }

    /// Whether only `advance` moves this clock.
    pub(crate) fn is_manual(&self) -> bool {
        self.manual.is_some()
    }

    /// The length of one tick.
    pub(crate) fn tick(&self) -> Duration {
        self.tick
    }

    /// The current time.
    pub(crate) fn now(&self) -> Instant {
        match &self.manual {
            None => sync::now(),
            // ORDERING: SeqCst, as `advance` writes it: the time a thread
            // reads is never older than an advance it has seen finish.
            Some(nanos) => self.start + Duration::from_nanos(nanos.load(Ordering::SeqCst)),
        }
    }

    /// The tick that has begun at `at`: rounded down.
    pub(crate) fn tick_floor(&self, at: Instant) -> u64 {
        let nanos = at.saturating_duration_since(self.start).as_nanos();
        u64::try_from(nanos / self.tick.as_nanos()).unwrap_or(u64::MAX)
    }

    /// The first tick at or after `deadline`: rounded up, so never early.
    pub(crate) fn tick_ceil(&self, deadline: Instant) -> u64 {
        let nanos = deadline.saturating_duration_since(self.start).as_nanos();
        u64::try_from(nanos.div_ceil(self.tick.as_nanos())).unwrap_or(u64::MAX)
    }

    /// The tick that has begun now.
    pub(crate) fn now_tick(&self) -> u64 {
        self.tick_floor(self.now())
    }

    /// When tick `n` begins; `None` past what an `Instant` holds.
    pub(crate) fn instant_of(&self, n: u64) -> Option<Instant> {
        let nanos = self.tick.as_nanos().checked_mul(u128::from(n))?;
        let since = Duration::from_nanos(u64::try_from(nanos).ok()?);
        self.start.checked_add(since)
    }

    /// The furthest deadline the wheel takes: `tick * (2^36 - 1)` from now.
    pub(crate) fn max_delay(&self) -> Duration {
        let nanos = self.tick.as_nanos().saturating_mul(u128::from(RANGE - 1));
        u64::try_from(nanos).map_or(Duration::MAX, Duration::from_nanos)
    }

    /// Moves a manual clock forward; the real clock ignores it.
    fn advance(&self, by: Duration) {
        if let Some(nanos) = &self.manual {
            let by = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
            // ORDERING: see `now`.
            let _ = nanos.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                Some(n.saturating_add(by))
            });
        }
    }
}

/// The hand that moves a driver's manual clock (see
/// [`Builder::manual_clock`](crate::Builder::manual_clock)). Cheap to
/// clone.
#[derive(Clone)]
pub struct ManualClock {
    pub(crate) shared: Arc<Shared>,
}

impl ManualClock {
    /// The manual clock's time now.
    pub fn now(&self) -> Instant {
        self.shared.clock.now()
    }

    // ANCHOR: advance
    /// Moves the clock forward by `by`, and wakes the driver if the clock
    /// has reached the tick it sleeps until: exactly when a timed park on
    /// a real clock would have timed out, and no sooner. Returns at once;
    /// the driver fires what came due on its own thread.
    pub fn advance(&self, by: Duration) {
        let shared = &self.shared;
        shared.clock.advance(by);
        let state = shared.state.lock();
        let driver = (shared.clock.now_tick() >= state.plan)
            .then(|| state.driver.clone())
            .flatten();
        drop(state);
        if let Some(driver) = driver {
            driver.unpark();
        }
    }
    // ANCHOR_END: advance
}

impl std::fmt::Debug for ManualClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ManualClock")
            .field("now", &self.now())
            .finish()
    }
}
