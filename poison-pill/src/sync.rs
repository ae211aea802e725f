//! The stage's sync facade: std's primitives normally, loom's under
//! `--cfg loom`, so the loom models check the very code that ships.
//!
//! This stage mirrors Java's monitors with std's `Mutex` and `Condvar`, and
//! the Java Timer article's `AtomicBoolean` with an `AtomicBool`. loom has
//! no clock: its `wait_timeout` never times out. So time comes from here
//! too: under loom, [`now`] is frozen, a deadline of "now" is already due,
//! and any later deadline is never reached. A thread that waits for a far
//! deadline then waits until it is notified, which is how loom turns a
//! lost wake-up into a reported deadlock.
//!
//! `disconnect.rs` is the exception: crossbeam's channel is not built on
//! these primitives, so loom cannot see inside it, and that file uses std
//! directly.

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::AtomicBool;
#[cfg(not(loom))]
pub(crate) use std::sync::{Arc, Condvar, Mutex, MutexGuard};
#[cfg(not(loom))]
pub(crate) use std::thread;

#[cfg(loom)]
pub(crate) use loom::sync::atomic::AtomicBool;
#[cfg(loom)]
pub(crate) use loom::sync::{Arc, Condvar, Mutex, MutexGuard};
#[cfg(loom)]
pub(crate) use loom::thread;

pub(crate) use std::sync::atomic::Ordering::SeqCst;

use std::time::Instant;

/// The current time: the monotonic clock.
#[cfg(not(loom))]
pub(crate) fn now() -> Instant {
    Instant::now()
}

/// The current time, frozen for the whole model run.
#[cfg(loom)]
pub(crate) fn now() -> Instant {
    static FROZEN: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *FROZEN.get_or_init(Instant::now)
}

/// Locks `mutex`, ignoring poisoning: tasks never run under our locks, so a
/// poisoned lock could only come from a bug in the timer itself, and the
/// data it guards (a queue, a flag) stays valid either way.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
