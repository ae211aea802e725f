//! The driver waking wakers while it holds its lock (A7
//! `wake_under_lock`).
//!
//! A waker is the executor's code. Some executors poll the task inline
//! when it is woken; a task's waker may file a new timer, or drop the last
//! handle of something that does. Run under the driver's lock, any of
//! them takes the lock again: with a lock that is not reentrant, as
//! parking_lot's and std's are not, the driver thread deadlocks on
//! itself, and every timer of the process stops. A slow waker, short of
//! that, holds every thread that files a timer. The fix (`driver.rs`,
//! `fire_due`) takes the due entries out, lets go of the lock, then wakes.
//! tokio's driver does the same, in batches of 32 wakers ("To avoid
//! deadlock, we must do this with the lock temporarily dropped", tokio
//! 1.53.1, runtime/time/mod.rs; the comment and the batches came with
//! tokio #3080, its timer on intrusive lists).

use std::sync::Arc;

use crate::entry::{self, Entry, Status};
use crate::handle::State;

/// The pause point where the driver has taken the due entries out of the
/// wheel and has not fired them yet: here, with its lock still held.
pub const WINDOW: &str = "async-timer::wake_under_lock: took the due entries, not yet fired";

// ANCHOR: fire_due
/// `fire_due`, waking with the lock held.
pub(crate) fn fire_due(state: &mut State, now: u64, due: &mut Vec<Arc<Entry>>) -> u64 {
    state.wheel.advance_to(now, due);
    kit::pause_point(WINDOW);
    let fired = due.len() as u64;
    for entry in due.drain(..) {
        if let Some(waker) = entry.complete(Status::Fired) {
            // BUG (A7): the driver's lock is still held.
            entry::wake(waker);
        }
    }
    fired
}
// ANCHOR_END: fire_due
