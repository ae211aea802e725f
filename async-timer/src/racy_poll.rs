//! `Sleep::poll` with a look and a store under two holds of the lock
//! (A1 `lost_waker`): stage 3's lost wake-up (C1), with a `Waker` where
//! the condition variable was.
//!
//! It looks at the entry ("fired?"), lets go of the entry's lock, and
//! then stores its waker. If the driver fires the entry in between, it
//! finds no waker and wakes nobody; the waker is then stored in an entry
//! that will never fire again, and the task sleeps for ever. The fix
//! (`entry.rs`, `Entry::poll`) looks and stores under one hold of the
//! lock the driver fires under. (The other known fix, `AtomicWaker`'s:
//! store the waker first, then look again.)

use std::task::{Poll, Waker};

use crate::entry::{Entry, Status};
use crate::error::TimerError;

/// The pause point in the window: the look is done, the lock let go, the
/// waker not stored yet.
pub const WINDOW: &str = "async-timer::racy_poll: looked at the status, waker not yet stored";

// ANCHOR: poll
/// The `Sleep`'s poll, racy.
pub(crate) fn poll(entry: &Entry, waker: &Waker) -> Poll<Result<(), TimerError>> {
    match entry.status() {
        Status::Fired => Poll::Ready(Ok(())),
        Status::Failed(error) => Poll::Ready(Err(error)),
        Status::Waiting => {
            kit::pause_point(WINDOW);
            // BUG (A1): the lock was let go after the look. The driver may
            // have fired the entry since, found no waker, and gone on.
            entry.state.lock().waker = Some(waker.clone());
            Poll::Pending
        }
    }
}
// ANCHOR_END: poll
