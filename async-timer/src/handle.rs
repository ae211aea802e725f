//! The handle: how a task reaches the driver. A [`Handle`] makes timers
//! ([`sleep`](Handle::sleep), [`timeout`](Handle::timeout),
//! [`interval`](Handle::interval)); the timers file their entries in the
//! wheel through it, from any thread.
//!
//! Who touches what, under which lock: everything in [`State`] is behind
//! the driver's lock, `Shared::state`. Any thread takes it to file,
//! move or take out an entry (a `Sleep` being created, reset or
//! dropped); the driver thread takes it to advance the wheel and to
//! publish the tick it will sleep until. Nobody holds it while a waker
//! runs (A7), nor while taking an entry's lock: an entry is fired, and
//! its waker taken, only after this lock is let go, so the two locks are
//! never held together. (wake_under_lock.rs, A7's bug, does hold both.)

use std::sync::Arc;
use std::time::{Duration, Instant};

use wheel::levels::{Key, Levels};

use crate::clock::Clock;
use crate::entry::{Entry, Status};
use crate::error::{TimeoutError, TimerError};
use crate::interval::Interval;
use crate::sleep::Sleep;
use crate::stats::{Plan, Stats};
use crate::sync::{Mutex, thread};
use crate::timeout;
use crate::variant::Variant;

/// The value of [`State::plan`] while the driver is awake: it will look
/// at the wheel again before it sleeps, so nobody need wake it.
pub(crate) const AWAKE: u64 = 0;
/// The value of [`State::plan`] while the driver sleeps with no timer.
pub(crate) const IDLE: u64 = u64::MAX;

/// What the driver thread, every handle, every `Sleep` and the manual
/// clock share.
pub(crate) struct Shared {
    /// Set at start, never changed; read by anyone without a lock.
    pub(crate) clock: Clock,
    /// Which version of the timer this is (see [`Variant`]). Set at start.
    pub(crate) variant: Variant,
    /// The driver's lock.
    pub(crate) state: Mutex<State>,
}

/// What the driver's lock guards.
pub(crate) struct State {
    /// The waiting entries, filed by deadline tick: stage 7's levels.
    pub(crate) wheel: Levels<Arc<Entry>>,
    /// The tick the driver sleeps until, [`AWAKE`] or [`IDLE`]. Written by
    /// the driver thread only; read by a thread filing a timer, which
    /// wakes the driver if its timer is due sooner (A5), and by a manual
    /// clock's advance.
    pub(crate) plan: u64,
    /// Set once, by the driver's owner. After it, nothing is filed.
    pub(crate) shut_down: bool,
    /// The driver thread, to unpark. Set once, at start.
    pub(crate) driver: Option<thread::Thread>,
    /// Entries the driver has fired, counted once their wakers have run.
    pub(crate) fired: u64,
    /// Times the driver has come back from parking.
    pub(crate) wakeups: u64,
}

/// Makes timers on one driver, from any thread. Cheap to clone, `Send`
/// and `Sync`. After the driver shuts down, every timer it makes ends with
/// [`TimerError::Shutdown`].
#[derive(Clone)]
pub struct Handle {
    pub(crate) shared: Arc<Shared>,
}

/// Where a deadline goes, decided under the driver's lock.
pub(crate) enum Filing {
    /// Already due: fire it now, no need for the wheel.
    Due,
    /// Into the wheel, at this tick.
    Wheel(u64),
    /// Nowhere: the timer ends with this error.
    Refused(TimerError),
}

impl Handle {
    /// A timer that is ready once `delay` has passed: at the first tick at
    /// or after `now + delay`, so never early and at most a tick late.
    ///
    /// Its output is `Err(BeyondRange)` for a delay beyond
    /// [`max_delay`](Handle::max_delay), and `Err(Shutdown)` if the driver
    /// shut down before it fired.
    pub fn sleep(&self, delay: Duration) -> Sleep {
        let now = self.now();
        let deadline = now.checked_add(delay).unwrap_or(now);
        let mut sleep = Sleep::unregistered(self.clone(), deadline);
        if delay > self.max_delay() {
            let max = self.max_delay();
            sleep.refuse(TimerError::BeyondRange { delay, max });
        } else {
            sleep.key = self.register(deadline, &sleep.entry);
        }
        sleep
    }

    /// A timer that is ready at `deadline`; at once if it has passed.
    /// See [`sleep`](Handle::sleep).
    pub fn sleep_until(&self, deadline: Instant) -> Sleep {
        let mut sleep = Sleep::unregistered(self.clone(), deadline);
        sleep.key = self.register(deadline, &sleep.entry);
        sleep
    }

    /// Runs `future` for at most `limit`: `Ok` with its output if it is
    /// ready first, `Err(Elapsed)` if the time runs out first. The limit
    /// counts from this call, not from the first poll.
    ///
    /// # Errors
    /// [`TimeoutError::Elapsed`], or [`TimeoutError::Timer`] if the timer
    /// could not keep the limit (beyond the wheel's range, or the driver
    /// shut down) while the future was not ready.
    pub fn timeout<F: Future>(
        &self,
        limit: Duration,
        future: F,
    ) -> impl Future<Output = Result<F::Output, TimeoutError>> + use<F> {
        timeout::race(self.sleep(limit), future)
    }

    /// An interval that ticks at once, then every `period`. When its
    /// consumer falls behind, it bursts by default; see
    /// [`MissedTickBehavior`](crate::MissedTickBehavior).
    ///
    /// # Errors
    /// [`TimerError::ZeroPeriod`], or [`TimerError::BeyondRange`] for a
    /// period beyond [`max_delay`](Handle::max_delay).
    pub fn interval(&self, period: Duration) -> Result<Interval, TimerError> {
        self.interval_at(self.now(), period)
    }

    /// An interval whose first tick is at `start`, then every `period`.
    ///
    /// # Errors
    /// As [`interval`](Handle::interval).
    pub fn interval_at(&self, start: Instant, period: Duration) -> Result<Interval, TimerError> {
        if period.is_zero() {
            return Err(TimerError::ZeroPeriod);
        }
        let max = self.max_delay();
        if period > max {
            return Err(TimerError::BeyondRange { delay: period, max });
        }
        Ok(Interval::new(self.sleep_until(start), period))
    }

    /// The driver's time now: the monotonic clock, or its manual clock.
    pub fn now(&self) -> Instant {
        self.shared.clock.now()
    }

    /// The driver's tick: every deadline is rounded up to a whole tick.
    pub fn tick(&self) -> Duration {
        self.shared.clock.tick()
    }

    /// The furthest away a deadline may be: `tick * (2^36 - 1)`.
    pub fn max_delay(&self) -> Duration {
        self.shared.clock.max_delay()
    }

    /// What the driver holds and has done; takes the driver's lock.
    pub fn stats(&self) -> Stats {
        Stats::of(&self.shared.clock, &self.shared.state.lock())
    }

    /// As [`stats`](Handle::stats), but `None` if the driver's lock is
    /// held at this instant instead of waiting for it. A waker can call it
    /// to learn whether it runs under the driver's lock, where filing a
    /// timer would deadlock (A7).
    pub fn try_stats(&self) -> Option<Stats> {
        let state = self.shared.state.try_lock()?;
        Some(Stats::of(&self.shared.clock, &state))
    }

    /// Where `deadline` goes: due now, into the wheel at its tick, or
    /// nowhere.
    pub(crate) fn filing(&self, state: &State, deadline: Instant) -> Filing {
        let clock = &self.shared.clock;
        let now = clock.now();
        if state.shut_down {
            Filing::Refused(TimerError::Shutdown)
        } else if deadline <= now {
            Filing::Due
        } else if deadline - now > clock.max_delay() {
            let (delay, max) = (deadline - now, clock.max_delay());
            Filing::Refused(TimerError::BeyondRange { delay, max })
        } else {
            Filing::Wheel(clock.tick_ceil(deadline))
        }
    }

    /// Files `entry` to fire at `deadline`, returning its key in the
    /// wheel; `None` if it fired at once or was refused. The one place a
    /// deadline enters the wheel.
    pub(crate) fn register(&self, deadline: Instant, entry: &Arc<Entry>) -> Option<Key> {
        self.shared.variant.register(self, deadline, entry)
    }

    // ANCHOR: register
    /// `register`: into the wheel, or fired at once, or refused. Either
    /// way the entry's waker, if it has one, is woken: after a reset, its
    /// task is waiting (A6).
    pub(crate) fn file(&self, deadline: Instant, entry: &Arc<Entry>) -> Option<Key> {
        let mut state = self.shared.state.lock();
        let status = match self.filing(&state, deadline) {
            Filing::Wheel(tick) => {
                let key = state.wheel.insert(tick, Arc::clone(entry));
                // The driver sleeps until `plan`: wake it if this timer is
                // due sooner, or it would sleep through it (A5).
                if tick < state.plan
                    && let Some(driver) = &state.driver
                {
                    driver.unpark();
                }
                return Some(key);
            }
            // Already due: fired here and now, without the driver (A6).
            Filing::Due => Status::Fired,
            Filing::Refused(error) => Status::Failed(error),
        };
        drop(state);
        if let Some(waker) = entry.complete(status) {
            waker.wake();
        }
        None
    }
    // ANCHOR_END: register

    /// Takes the entry `key` names out of the wheel, if it is still there:
    /// O(1), by key. The entry (and the waker in it, whose drop may run a
    /// task's destructor) is dropped after the lock is let go.
    pub(crate) fn deregister(&self, key: Key) {
        let removed = self.shared.state.lock().wheel.cancel(key);
        drop(removed);
    }
}

impl std::fmt::Debug for Handle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handle")
            .field("tick", &self.tick())
            .field("variant", &self.shared.variant)
            .finish_non_exhaustive()
    }
}

impl Plan {
    /// The plan a driver published, as instants.
    pub(crate) fn of(clock: &Clock, plan: u64) -> Plan {
        match plan {
            AWAKE => Plan::Working,
            IDLE => Plan::Idle,
            tick => clock.instant_of(tick).map_or(Plan::Idle, Plan::Until),
        }
    }
}
