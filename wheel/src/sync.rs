//! The lock-free wheel's sync facade: std's atomics and parking_lot's
//! `Mutex` normally, loom's under `--cfg loom`, so the loom models of W5
//! (tests/loom_publication*.rs) check the very ring that ships.
//!
//! What loom sees: the ring's core, [`crate::ring::Ring`]: each slot's
//! count and cells, and the task table's `due` words and job locks. What it
//! does not: the cursor, the ticker thread and its clock, the statistics,
//! and the table's free list (a crossbeam channel). The models drive the
//! ring's `insert` and `drain` by hand, on loom threads, with no ticker and
//! no clock (loom has neither a sleep nor a timeout), so leaving those out
//! keeps the models small.

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicU64, AtomicUsize};

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicU64, AtomicUsize};

/// A lock with parking_lot's shape: `lock()` returns the guard, no
/// poisoning to unwrap.
pub(crate) struct Mutex<T>(
    #[cfg(not(loom))] parking_lot::Mutex<T>,
    #[cfg(loom)] loom::sync::Mutex<T>,
);

impl<T> Mutex<T> {
    pub(crate) fn new(value: T) -> Mutex<T> {
        #[cfg(not(loom))]
        return Mutex(parking_lot::Mutex::new(value));
        #[cfg(loom)]
        return Mutex(loom::sync::Mutex::new(value));
    }

    /// Takes the lock; under loom a poisoned lock (a model thread that
    /// panicked holding it) is taken all the same.
    pub(crate) fn lock(&self) -> impl std::ops::DerefMut<Target = T> + '_ {
        #[cfg(not(loom))]
        return self.0.lock();
        #[cfg(loom)]
        return self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
    }
}

/// One turn of a busy-wait. Normally the CPU's spin hint: the thread keeps
/// its core, which is what W9 measures. Under loom a spin must yield, or
/// the model would run the spinning thread for ever.
pub(crate) fn spin_loop() {
    #[cfg(not(loom))]
    std::hint::spin_loop();
    #[cfg(loom)]
    loom::thread::yield_now();
}
