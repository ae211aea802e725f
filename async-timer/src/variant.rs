//! Which version of the timer a driver runs, and the switchboard: every
//! hand-over to a buggy version is here, in `impl Variant`, and nowhere
//! else. The buggy ones exist for the lessons: each lives in a file of its
//! own, named for what it is. The fixed code calls the switchboard at the
//! one place a version differs, by a plain call that names no bug (a
//! `Sleep`'s poll calls `variant.poll`), and the switchboard hands over to
//! the fixed function or to the bug's. So the fixed functions the book
//! shows, and the fix diffs made from them, hold only the fix.

use std::sync::Arc;
use std::task::{Poll, Waker};
use std::time::Instant;

use wheel::levels::Key;

use crate::entry::Entry;
use crate::error::TimerError;
use crate::handle::{Handle, State};
use crate::sleep::Sleep;
use crate::sync::MutexGuard;
use crate::{
    driver, first_waker_only, leaky_drop, racy_poll, reset_without_wake, unparks_idle_only,
    wake_under_lock,
};

// ANCHOR: variant
/// Which version of the timer to build; see
/// [`Builder::variant`](crate::Builder::variant).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[doc(hidden)]
pub enum Variant {
    /// The timer as it should be.
    #[default]
    Fixed,
    /// `Sleep::poll` looks at "fired?", lets go of the entry's lock, then
    /// stores its waker (racy_poll.rs): the driver fires in between and
    /// the task sleeps for ever (A1 `lost_waker`).
    RacyPoll,
    /// `Sleep::poll` keeps the first waker it was given
    /// (first_waker_only.rs): a `Sleep` moved to another task wakes the
    /// old one (A2 `stale_waker`).
    FirstWakerOnly,
    /// Dropping a `Sleep` leaves its entry in the wheel until its deadline
    /// (leaky_drop.rs): every timeout that never fires stays (A3
    /// `dropped_sleep_leaks`).
    LeakyDrop,
    /// Filing a timer wakes the driver only if it sleeps with no timer at
    /// all (unparks_idle_only.rs): one asleep until a later deadline sleeps
    /// on until it (A5 `driver_oversleeps`).
    UnparksIdleOnly,
    /// `Sleep::reset` files the new deadline and tells nobody
    /// (reset_without_wake.rs): a reset to the past waits for some other
    /// timer (A6 `reset_to_past_never_wakes`).
    ResetWithoutWake,
    /// The driver wakes wakers while it holds its lock
    /// (wake_under_lock.rs): a waker that files a timer deadlocks (A7
    /// `wake_under_lock`).
    WakeUnderLock,
}
// ANCHOR_END: variant

/// The switch points, one per place a buggy version differs.
impl Variant {
    /// A `Sleep`'s poll of its entry (A1, A2).
    pub(crate) fn poll(self, entry: &Entry, waker: &Waker) -> Poll<Result<(), TimerError>> {
        match self {
            Variant::RacyPoll => racy_poll::poll(entry, waker),
            Variant::FirstWakerOnly => first_waker_only::poll(entry, waker),
            _ => entry.poll(waker),
        }
    }

    /// `Sleep::reset` (A6).
    pub(crate) fn reset(self, sleep: &mut Sleep, deadline: Instant) {
        match self {
            Variant::ResetWithoutWake => reset_without_wake::reset(sleep, deadline),
            _ => sleep.refile(deadline),
        }
    }

    /// A `Sleep`'s drop (A3).
    pub(crate) fn drop_sleep(self, sleep: &mut Sleep) {
        match self {
            Variant::LeakyDrop => leaky_drop::drop_sleep(sleep),
            _ => sleep.take_out_of_wheel(),
        }
    }

    /// Filing an entry in the wheel (A5).
    pub(crate) fn register(
        self,
        handle: &Handle,
        deadline: Instant,
        entry: &Arc<Entry>,
    ) -> Option<Key> {
        match self {
            Variant::UnparksIdleOnly => unparks_idle_only::register(handle, deadline, entry),
            _ => handle.file(deadline, entry),
        }
    }

    /// The driver's firing of what came due (A7). Returns how many fired.
    pub(crate) fn fire_due(
        self,
        mut state: MutexGuard<'_, State>,
        now: u64,
        due: &mut Vec<Arc<Entry>>,
    ) -> u64 {
        match self {
            Variant::WakeUnderLock => wake_under_lock::fire_due(&mut state, now, due),
            _ => driver::fire_due(state, now, due),
        }
    }
}
