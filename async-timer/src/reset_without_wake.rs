//! `Sleep::reset` that files the new deadline and tells nobody (A6
//! `reset_to_past_never_wakes`).
//!
//! A reset usually moves a deadline later (a keep-alive pushed back on
//! every message), and this version is written for that: it takes the
//! entry out and files it again at the new tick. A deadline already past
//! lands in the wheel's current slot, due; but the task that polled the
//! `Sleep` is not woken, and the driver, asleep until its plan, is not
//! told. The `Sleep` is ready and nobody looks until some other timer
//! wakes the driver. tokio-util's `DelayQueue` had this bug (fixed in
//! tokio #8274: the reset item went to the expired stack, but the queue's
//! waker was never called). The fix (`Sleep::reset`) files through
//! `register`, which fires a past deadline at once and wakes its waker,
//! and unparks the driver for a sooner one.

use std::sync::Arc;
use std::time::Instant;

use crate::entry::{Entry, Status};
use crate::handle::Filing;
use crate::sleep::Sleep;

// ANCHOR: reset
/// `Sleep::reset`, telling nobody.
pub(crate) fn reset(sleep: &mut Sleep, deadline: Instant) {
    let waker = sleep.unfile();
    sleep.deadline = deadline;
    sleep.entry = Arc::new(Entry::new(waker));
    let handle = &sleep.handle;
    let mut state = handle.shared.state.lock();
    if let Filing::Refused(error) = handle.filing(&state, deadline) {
        drop(state);
        drop(sleep.entry.complete(Status::Failed(error)));
        return;
    }
    // BUG (A6): past or not, filed by its tick; nobody woken, nobody told.
    let tick = handle.shared.clock.tick_ceil(deadline);
    sleep.key = Some(state.wheel.insert(tick, Arc::clone(&sleep.entry)));
}
// ANCHOR_END: reset
