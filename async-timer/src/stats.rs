//! What a driver holds and has done, read under its lock: for tests, the
//! book's pictures, and anyone curious.

use std::time::Instant;

use crate::clock::Clock;
use crate::handle::State;

/// A snapshot of a driver, from [`Handle::stats`](crate::Handle::stats).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// Entries waiting in the wheel. A `Sleep` dropped before its deadline
    /// takes its entry out (A3); one that is not dropped keeps it.
    pub pending: usize,
    /// Entries the driver thread has fired, counted once it has woken
    /// their wakers. Timers that were due when filed fire at once, on the
    /// filing thread, and are not counted.
    pub fired: u64,
    /// Times the driver thread has come back from parking: for a deadline,
    /// for an earlier timer filed meanwhile, or to shut down.
    pub wakeups: u64,
    /// What the driver is doing.
    pub plan: Plan,
    /// The start of the tick of the wheel's next occupied slot: a
    /// deadline, or a higher level's slot to cascade from. What the driver
    /// sleeps until once it is done with this turn; `None` if the wheel is
    /// empty.
    pub next: Option<Instant>,
}

/// What the driver thread is doing, as it last published.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Awake: it will look at the wheel again before it sleeps.
    Working,
    /// Asleep (or about to be) with no timer to wait for.
    Idle,
    /// Asleep (or about to be) until this instant: the start of the tick
    /// of the wheel's next occupied slot.
    Until(Instant),
}

impl Stats {
    pub(crate) fn of(clock: &Clock, state: &State) -> Stats {
        Stats {
            pending: state.wheel.len(),
            fired: state.fired,
            wakeups: state.wakeups,
            plan: Plan::of(clock, state.plan),
            next: state
                .wheel
                .next_expiration()
                .and_then(|tick| clock.instant_of(tick)),
        }
    }
}
