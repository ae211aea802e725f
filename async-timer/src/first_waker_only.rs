//! `Sleep::poll` that keeps the first waker it was given (A2
//! `stale_waker`).
//!
//! A `Sleep` can change tasks: one branch of a `select!` polls it and
//! loses, and the `Sleep` is handed on; a wrapper moves it into a task it
//! spawns. The new task polls it with its own waker. This version stores
//! a waker only when it has none, so the driver wakes the old task, which
//! may be long gone, and the new one is never woken. The fix
//! (`Entry::poll`) replaces the waker on every poll, unless `will_wake`
//! says the old one wakes the same task (what `futures`' `AtomicWaker`
//! and tokio's timer entry do).

use std::task::{Poll, Waker};

use crate::entry::{Entry, Status};
use crate::error::TimerError;

// ANCHOR: poll
/// The `Sleep`'s poll, keeping the first waker only.
pub(crate) fn poll(entry: &Entry, waker: &Waker) -> Poll<Result<(), TimerError>> {
    let mut state = entry.state.lock();
    match state.status {
        Status::Fired => Poll::Ready(Ok(())),
        Status::Failed(error) => Poll::Ready(Err(error)),
        Status::Waiting => {
            // BUG (A2): a later poll, from another task, is not heard.
            if state.waker.is_none() {
                state.waker = Some(waker.clone());
            }
            Poll::Pending
        }
    }
}
// ANCHOR_END: poll
