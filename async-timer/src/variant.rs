//! Which version of the timer a driver runs. The buggy ones exist for the
//! lessons: each lives in a file of its own, named for what it is, and
//! the fixed code hands over to it at the one place it differs.

// ANCHOR: variant
/// Which version of the timer to build; see
/// [`Builder::variant`](crate::Builder::variant).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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
