//! `Interval`: a `Sleep` reset one period on at every tick.
//!
//! When the consumer is late by less than a period, the next tick keeps
//! its place in the schedule. When it has missed whole ticks (it stalled,
//! or the executor did, A4), the interval must choose, and
//! [`MissedTickBehavior`] names the three choices as tokio does; they are
//! stage 5's fixed rate and fixed delay (I5), and one more. A8 counts them.
//!
//! (tokio 1.53.1 applies the behaviour as soon as a tick is more than
//! 5 ms late; this one when a whole period has been missed, so a tick
//! a little late never moves the schedule.)

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use crate::error::TimerError;
use crate::sleep::Sleep;

/// What an [`Interval`] does about the ticks its consumer missed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MissedTickBehavior {
    /// Every missed tick comes, back to back, until the schedule is caught
    /// up: fixed rate (`scheduleAtFixedRate`). The default.
    #[default]
    Burst,
    /// One tick now, then one period after it: the schedule moves by the
    /// stall. Fixed delay (`scheduleWithFixedDelay`).
    Delay,
    /// One tick now, then the next tick of the old schedule: the missed
    /// ones are dropped, the rhythm is kept.
    Skip,
}

// ANCHOR: next_tick
impl MissedTickBehavior {
    /// The tick after one due at `due`, handed out at `now`.
    pub fn next_tick(self, due: Instant, now: Instant, period: Duration) -> Instant {
        let on_schedule = due + period;
        if now < on_schedule {
            return on_schedule; // late by less than a period: nothing missed
        }
        match self {
            MissedTickBehavior::Burst => on_schedule,
            MissedTickBehavior::Delay => now + period,
            MissedTickBehavior::Skip => {
                // The first tick of the schedule strictly after now.
                let periods = (now - due).as_nanos() / period.as_nanos() + 1;
                u64::try_from(period.as_nanos() * periods)
                    .ok()
                    .and_then(|nanos| due.checked_add(Duration::from_nanos(nanos)))
                    .unwrap_or(now + period)
            }
        }
    }
}
// ANCHOR_END: next_tick

/// Ticks every period, from [`Handle::interval`](crate::Handle::interval).
#[derive(Debug)]
pub struct Interval {
    sleep: Sleep,
    period: Duration,
    missed: MissedTickBehavior,
}

impl Interval {
    pub(crate) fn new(sleep: Sleep, period: Duration) -> Interval {
        Interval {
            sleep,
            period,
            missed: MissedTickBehavior::default(),
        }
    }

    /// The period between ticks.
    pub fn period(&self) -> Duration {
        self.period
    }

    /// What it does about missed ticks.
    pub fn missed_tick_behavior(&self) -> MissedTickBehavior {
        self.missed
    }

    /// Sets what it does about missed ticks, from the next tick on.
    pub fn set_missed_tick_behavior(&mut self, behavior: MissedTickBehavior) {
        self.missed = behavior;
    }

    // ANCHOR: poll_tick
    /// Ready with the instant the tick was due at, once it is due.
    ///
    /// # Errors
    /// The timer's, as a [`Sleep`]'s (the driver shut down, say).
    pub fn poll_tick(&mut self, cx: &mut Context<'_>) -> Poll<Result<Instant, TimerError>> {
        if let Err(error) = std::task::ready!(Pin::new(&mut self.sleep).poll(cx)) {
            return Poll::Ready(Err(error));
        }
        let due = self.sleep.deadline();
        let now = self.sleep.handle.now();
        // A next tick already past fires at once: a burst is one poll per
        // missed tick, with no round trip to the driver.
        self.sleep
            .reset(self.missed.next_tick(due, now, self.period));
        Poll::Ready(Ok(due))
    }
    // ANCHOR_END: poll_tick

    /// Waits for the next tick; returns the instant it was due at.
    ///
    /// # Errors
    /// As [`poll_tick`](Interval::poll_tick).
    pub async fn tick(&mut self) -> Result<Instant, TimerError> {
        std::future::poll_fn(|cx| self.poll_tick(cx)).await
    }
}
