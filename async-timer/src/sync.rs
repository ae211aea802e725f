//! The stage's sync facade: parking_lot's `Mutex`, std's atomics and
//! threads normally, loom's under `--cfg loom`, so the loom models
//! (tests/loom_*.rs) check the very driver, entries and `block_on` that
//! ship.
//!
//! What loom sees: the driver's lock, every entry's lock, the manual
//! clock's counter, and the threads that park and unpark (the driver, and
//! whoever runs `block_on`). What it does not: the wheel inside the
//! driver's lock (plain data: only one thread at a time touches it) and
//! the wakers (std's `Arc`, which loom need not see: a waker only ever
//! calls `unpark`, which it does see).
//!
//! loom has no clock: no `park_timeout`, no sleep. Under loom the real
//! clock is frozen ([`now`]) and a timed park is a plain park, so a
//! deadline ahead is never reached by waiting; the models use the
//! driver's manual clock instead (`clock.rs`), whose `advance` wakes the
//! driver exactly when a timed park would have timed out.

use std::time::{Duration, Instant};

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::AtomicU64;
#[cfg(not(loom))]
pub(crate) use std::thread;

#[cfg(loom)]
pub(crate) use loom::sync::atomic::AtomicU64;
#[cfg(loom)]
pub(crate) use loom::thread;

/// A lock with parking_lot's shape: `lock()` returns the guard, no
/// poisoning to unwrap.
pub(crate) struct Mutex<T>(
    #[cfg(not(loom))] parking_lot::Mutex<T>,
    #[cfg(loom)] loom::sync::Mutex<T>,
);

/// What [`Mutex::lock`] returns.
#[cfg(not(loom))]
pub(crate) type MutexGuard<'a, T> = parking_lot::MutexGuard<'a, T>;
/// What [`Mutex::lock`] returns.
#[cfg(loom)]
pub(crate) type MutexGuard<'a, T> = loom::sync::MutexGuard<'a, T>;

impl<T> Mutex<T> {
    pub(crate) fn new(value: T) -> Mutex<T> {
        #[cfg(not(loom))]
        return Mutex(parking_lot::Mutex::new(value));
        #[cfg(loom)]
        return Mutex(loom::sync::Mutex::new(value));
    }

    /// Takes the lock; under loom a poisoned lock (a model thread that
    /// panicked holding it) is taken all the same.
    pub(crate) fn lock(&self) -> MutexGuard<'_, T> {
        #[cfg(not(loom))]
        return self.0.lock();
        #[cfg(loom)]
        return self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
    }

    /// The lock if nobody holds it at this instant, `None` otherwise.
    pub(crate) fn try_lock(&self) -> Option<MutexGuard<'_, T>> {
        #[cfg(not(loom))]
        return self.0.try_lock();
        #[cfg(loom)]
        return match self.0.try_lock() {
            Ok(guard) => Some(guard),
            Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => None,
        };
    }
}

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

/// Parks the calling thread for at most `timeout`, or until unparked.
/// Under loom there is no timeout: only an unpark ends it.
pub(crate) fn park_timeout(timeout: Duration) {
    #[cfg(not(loom))]
    thread::park_timeout(timeout);
    #[cfg(loom)]
    {
        let _ = timeout;
        thread::park();
    }
}
