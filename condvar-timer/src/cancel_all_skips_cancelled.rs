//! The C++ TimerQueue post's `cancelAll` as it was before its 2016 fix (C7),
//! kept so a test can show the bug. The queue is [`something_changed`]'s; only the way
//! `cancel_all` marks the items differs.
//!
//! `cancel` leaves a husk behind: the handler moves to a new item due now,
//! the old item keeps its far deadline and is marked cancelled. This
//! `cancel_all` skips items that are cancelled already, the husk among
//! them, so the husk keeps its deadline. Shutdown runs everything that is
//! due and stops the thread: the husk is not due, and it is still in the
//! queue when the thread exits. Nothing runs twice or is lost (a husk has no
//! handler), which is why the bug lived unnoticed until somebody checked
//! that the queue was empty at the end.
//!
//! In the C++ queue the husk was left only if the queue was destroyed before
//! the thread had looked at it again (on that look, a husk at the head is
//! dropped), and then the assert at the end of the thread's run loop fired. Our shutdown cancels and raises the stop flag under one lock,
//! so the thread never looks in between, and a husk behind a live timer is
//! left every time.
//!
//! [`something_changed`]: crate::something_changed

use std::io;
use std::time::Instant;

use crate::something_changed::{Item, TimerQueue};

/// Starts a [`TimerQueue`] whose `cancel_all` (and so whose shutdown) skips
/// items that are cancelled already.
///
/// # Errors
/// As [`TimerQueue::new`].
pub fn new(name: &str) -> io::Result<TimerQueue> {
    TimerQueue::with_cancel_all(name, cancel_all_but_cancelled)
}

// ANCHOR: cancel_all_but_cancelled
fn cancel_all_but_cancelled(items: &mut [Item], now: Instant) -> usize {
    let mut cancelled = 0;
    for item in items {
        if item.cancelled {
            continue; // BUG (C7): a husk is cancelled, so it keeps its far deadline
        }
        cancelled += 1;
        item.due = now;
        item.cancelled = true;
    }
    cancelled
}
// ANCHOR_END: cancel_all_but_cancelled
