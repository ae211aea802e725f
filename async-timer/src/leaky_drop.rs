//! Dropping a `Sleep` the lazy way (A3 `dropped_sleep_leaks`): stage 6's
//! T14 again, cancelled entries left in the queue.
//!
//! Most timeouts never fire: the future wins, and the timeout's `Sleep` is
//! dropped. This version lets the task go (it takes the waker out, so a
//! dropped `Sleep` keeps no task alive) and leaves the entry for the
//! driver, which fires it at its deadline and finds nobody to wake. Until
//! then it stays in the wheel: a server that sets a 30 s timeout on every
//! request keeps 30 s of requests' entries, whatever it does. The fix
//! (`sleep.rs`, `Drop`) takes the entry out by its key, in O(1).

use crate::sleep::Sleep;

// ANCHOR: drop
/// The `Sleep`'s drop, leaving its entry behind.
pub(crate) fn drop_sleep(sleep: &mut Sleep) {
    drop(sleep.entry.take_waker());
    // BUG (A3): the entry stays in the wheel until its deadline.
}
// ANCHOR_END: drop
