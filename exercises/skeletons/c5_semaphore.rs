//! Exercise C5: a semaphore that remembers a notify.
//!
//! The TimerQueue of *Two ways to never lose one* wakes its thread through a
//! counting semaphore: `notify` leaves a permit, `wait` takes one. This
//! skeleton is only a mutex and a condition variable, and a condition
//! variable forgets a notify that finds nobody waiting: a `notify` before the
//! `wait` is lost.
//!
//! Your job: make `notify` leave something behind that a later `wait` finds,
//! one permit per notify. Keep the public API as it is: the check uses it.
//!
//! Check: `cargo xtask exercise check c5`. Hints: `cargo xtask exercise hint c5`.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// A semaphore: [`notify`](Semaphore::notify) adds a permit,
/// [`wait`](Semaphore::wait) takes one, sleeping while there is none.
#[derive(Debug, Default)]
pub struct Semaphore {
    // TODO(C5): nothing here remembers a notify. (If you change what
    // `lock` guards, change the `lock()` helper's return type with it.)
    lock: Mutex<()>,
    changed: Condvar,
}

impl Semaphore {
    /// A semaphore with no permits.
    pub fn new() -> Semaphore {
        Semaphore::default()
    }

    fn lock(&self) -> MutexGuard<'_, ()> {
        self.lock.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds a permit and wakes one waiter, if there is one.
    pub fn notify(&self) {
        let _guard = self.lock();
        // TODO(C5): with nobody waiting, this signal reaches nobody and is gone.
        self.changed.notify_one();
    }

    /// Takes a permit, sleeping until there is one.
    pub fn wait(&self) {
        let guard = self.lock();
        let _guard = self
            .changed
            .wait(guard)
            .unwrap_or_else(PoisonError::into_inner);
    }

    /// Takes a permit, sleeping until there is one or until `deadline`.
    /// Returns whether it took one (`false`: the deadline passed first).
    pub fn wait_until(&self, deadline: Instant) -> bool {
        let guard = self.lock();
        let left = deadline.saturating_duration_since(Instant::now());
        let (_guard, timeout) = self
            .changed
            .wait_timeout(guard, left)
            .unwrap_or_else(PoisonError::into_inner);
        !timeout.timed_out()
    }
}
