//! A timer's entry: the state a [`Sleep`](crate::Sleep) and the driver
//! share. The `Sleep` holds one `Arc` of it, and the driver's wheel
//! another while the timer waits there.
//!
//! Who touches what, under which lock:
//!
//! - `status` and `waker` are behind the entry's own lock, and only
//!   there. The task polling the `Sleep` reads the status and stores its
//!   waker; the driver thread (or a thread whose `reset` fires the timer
//!   at once) sets the status and takes the waker. The entry's lock is
//!   never held while a waker runs, and never taken while waiting for the
//!   driver's lock, so the two locks cannot deadlock: the driver takes an
//!   entry's lock only after letting go of its own.
//! - Where the entry sits in the wheel is not here: the `Sleep` keeps its
//!   key, and only the `Sleep`'s owner uses it, under the driver's lock.
//!
//! An entry fires once. A `Sleep` reset after its entry left the wheel
//! gets a new entry (its waker moves across), so an entry's status goes
//! from waiting to fired or failed and never back.

use std::task::{Poll, Waker};

use crate::error::TimerError;
use crate::sync::Mutex;

/// Where an entry is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// In the wheel (or on its way there), not yet due.
    Waiting,
    /// Its deadline came: the `Sleep` is ready.
    Fired,
    /// It never will fire: the `Sleep` ends with this error.
    Failed(TimerError),
}

/// See the module docs.
pub(crate) struct Entry {
    /// The only lock on the status and the waker.
    pub(crate) state: Mutex<EntryState>,
}

/// What the entry's lock guards.
pub(crate) struct EntryState {
    pub(crate) status: Status,
    /// The waker of the task that last polled the `Sleep`: what the driver
    /// wakes when the entry fires.
    pub(crate) waker: Option<Waker>,
}

/// The pause point inside the fixed `poll`'s window: between its look at
/// the status and the store of its waker, with the entry's lock held.
pub const POLL_WINDOW: &str = "async-timer::entry: looked at the status, waker not yet stored";

impl Entry {
    /// A waiting entry, with the waker of a task already waiting on it
    /// (when a reset moves a timer to a new entry), or none.
    pub(crate) fn new(waker: Option<Waker>) -> Entry {
        Entry {
            state: Mutex::new(EntryState {
                status: Status::Waiting,
                waker,
            }),
        }
    }

    // ANCHOR: poll
    /// The `Sleep`'s poll: ready if the entry fired (or failed), and
    /// otherwise the task's waker is left for the driver to wake.
    pub(crate) fn poll(&self, waker: &Waker) -> Poll<Result<(), TimerError>> {
        let mut state = self.state.lock();
        match state.status {
            Status::Fired => Poll::Ready(Ok(())),
            Status::Failed(error) => Poll::Ready(Err(error)),
            Status::Waiting => {
                kit::pause_point(POLL_WINDOW);
                // The look and the store are under one lock, the lock the
                // driver takes to fire: it fired before the look, or it
                // will find this waker (A1).
                // A `Sleep` moved to another task is polled with that
                // task's waker: keep the newest, unless both wake the
                // same task anyway (A2).
                if !state.waker.as_ref().is_some_and(|w| w.will_wake(waker)) {
                    state.waker = Some(waker.clone());
                }
                Poll::Pending
            }
        }
    }
    // ANCHOR_END: poll

    // ANCHOR: complete
    /// Ends the entry's wait with `status` (fired, or failed) and hands
    /// back the waker to wake, which the caller wakes after letting go of
    /// every lock: a waker may poll, register a timer, or take any lock
    /// (A7).
    pub(crate) fn complete(&self, status: Status) -> Option<Waker> {
        let mut state = self.state.lock();
        debug_assert_eq!(state.status, Status::Waiting, "an entry ends once");
        state.status = status;
        state.waker.take()
    }
    // ANCHOR_END: complete

    /// The status alone, under the lock, then let go.
    pub(crate) fn status(&self) -> Status {
        self.state.lock().status
    }

    /// Takes the waker out, to move it to a new entry (a reset) or to let
    /// the task go (a drop).
    pub(crate) fn take_waker(&self) -> Option<Waker> {
        self.state.lock().waker.take()
    }
}

/// Wakes `waker` on the driver's thread. A waker that panics must not
/// take the driver, and every other timer, down with it (stage 5's I6).
pub(crate) fn wake(waker: Waker) {
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| waker.wake()));
}
