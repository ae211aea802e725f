//! Waiting inside a task, the wrong way and the right way (A4
//! `blocking_in_async`): stage 5's I4 again, one thread and a task that
//! will not give it back.
//!
//! A single-threaded executor (this crate's `block_on`, `futures`'
//! `LocalPool`, tokio's current-thread runtime) runs every task on one
//! thread, one poll at a time. A task that calls `std::thread::sleep` keeps
//! that thread for the whole sleep: the other tasks' timers fire on time
//! and wake them, but nobody can poll them until the sleep is over. A task
//! that awaits a [`Sleep`](crate::Sleep) returns `Pending` at once and
//! gives the thread back.

use std::time::Duration;

use crate::error::TimerError;
use crate::handle::Handle;

// ANCHOR: waits
/// Waits `delay` by blocking the thread: every other task of the executor
/// waits too.
pub async fn wait_blocking(delay: Duration) {
    // BUG (A4): no await: the executor's thread sleeps here.
    std::thread::sleep(delay);
}

/// Waits `delay` by awaiting a timer: the thread runs other tasks meanwhile.
///
/// # Errors
/// As the [`Sleep`](crate::Sleep)'s: the driver shut down, say.
pub async fn wait_async(handle: &Handle, delay: Duration) -> Result<(), TimerError> {
    handle.sleep(delay).await
}
// ANCHOR_END: waits
