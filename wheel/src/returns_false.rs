//! W4 `slot_overflow`, the post's way: `add` returns a `bool`.
//!
//! The CAS hashed wheel timer post's `add` answers `false` when the slot is
//! full, and the task is simply not kept. A caller who ignores the `bool`
//! (nothing makes them look) has lost a task without a trace. This is that
//! API, wrapped around [`LockFreeWheel::add`]: the [`Refused`] that holds
//! the task is turned into `false`, and the task inside it is dropped.
//! Compare with `add` itself, whose `Err` hands the task back, and which
//! the compiler warns about if it is ignored (`Result` is `#[must_use]`).
//!
//! [`Refused`]: crate::error::Refused

use std::time::Duration;

use crate::lockfree::LockFreeWheel;

/// Schedules `job` after `delay` on `wheel`; `false` if the slot was full,
/// and then the job is gone: dropped here, never run (W4).
// ANCHOR: add
pub fn add(wheel: &LockFreeWheel, delay: Duration, job: impl FnOnce() + Send + 'static) -> bool {
    // The Err, and the task inside it, are dropped here.
    wheel.add(delay, job).is_ok()
}
// ANCHOR_END: add
