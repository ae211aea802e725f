//! The stage's sync facade: parking_lot's `Mutex` and `Condvar` and std's
//! atomics normally, loom's under `--cfg loom`, so the loom model of the
//! ctl word (tests/loom_ctl.rs) checks the very pool that ships.
//!
//! The API is parking_lot's (`lock()` returns the guard, `wait(&mut
//! guard)`); under loom a thin wrapper gives loom's std-style types that
//! shape. loom has no clock: under loom [`now`] is frozen, so a keep-alive
//! of zero is already over and any longer one never ends, and a timed wait
//! for a later deadline is a plain wait.
//!
//! What loom sees: the ctl word, every lock and condition variable, the
//! queue's counters, the worker threads. What it does not: the pool's parameters (core size,
//! keep-alive) and its statistics, plain std atomics in both builds. No
//! model changes a parameter while the pool runs, and a statistic decides
//! nothing, so leaving them out keeps the models small.
//!
//! `Arc` is std's in both builds: loom only needs to see the primitives
//! threads race on, and std's `Arc` can hold a `dyn` value.

pub(crate) use std::sync::Arc;
use std::time::Instant;

#[cfg(not(loom))]
pub(crate) use parking_lot::{Mutex, MutexGuard};
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize};
#[cfg(not(loom))]
pub(crate) use std::thread;

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize};
#[cfg(loom)]
pub(crate) use loom::thread;
#[cfg(loom)]
pub(crate) use loom_shim::{Mutex, MutexGuard};

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

/// A condition variable with parking_lot's shape.
pub(crate) struct Condvar(
    #[cfg(not(loom))] parking_lot::Condvar,
    #[cfg(loom)] loom::sync::Condvar,
);

#[cfg(not(loom))]
impl Condvar {
    pub(crate) fn new() -> Condvar {
        Condvar(parking_lot::Condvar::new())
    }

    /// Releases the lock, waits for a notify, takes the lock again.
    pub(crate) fn wait<T>(&self, guard: &mut MutexGuard<'_, T>) {
        self.0.wait(guard);
    }

    /// As [`Condvar::wait`], but gives up at `deadline`.
    pub(crate) fn wait_until<T>(&self, guard: &mut MutexGuard<'_, T>, deadline: Instant) {
        self.0.wait_until(guard, deadline);
    }

    pub(crate) fn notify_one(&self) {
        self.0.notify_one();
    }

    pub(crate) fn notify_all(&self) {
        self.0.notify_all();
    }
}

#[cfg(loom)]
impl Condvar {
    pub(crate) fn new() -> Condvar {
        Condvar(loom::sync::Condvar::new())
    }

    pub(crate) fn wait<T>(&self, guard: &mut MutexGuard<'_, T>) {
        let inner = guard.0.take().expect("a held guard");
        guard.0 = Some(self.0.wait(inner).unwrap());
    }

    /// The clock is frozen: a deadline not yet due never comes, so this is
    /// a plain wait.
    pub(crate) fn wait_until<T>(&self, guard: &mut MutexGuard<'_, T>, deadline: Instant) {
        if deadline > now() {
            self.wait(guard);
        }
    }

    pub(crate) fn notify_one(&self) {
        self.0.notify_one();
    }

    pub(crate) fn notify_all(&self) {
        self.0.notify_all();
    }
}

/// loom's std-shaped `Mutex`, given parking_lot's shape.
#[cfg(loom)]
mod loom_shim {
    use std::ops::{Deref, DerefMut};

    /// `?Sized`, as parking_lot's: a future's job is held in place.
    pub(crate) struct Mutex<T: ?Sized>(loom::sync::Mutex<T>);

    /// `Some` except for the moment a `Condvar::wait` holds it.
    pub(crate) struct MutexGuard<'a, T: ?Sized>(pub(super) Option<loom::sync::MutexGuard<'a, T>>);

    impl<T> Mutex<T> {
        pub(crate) fn new(value: T) -> Mutex<T> {
            Mutex(loom::sync::Mutex::new(value))
        }
    }

    impl<T: ?Sized> Mutex<T> {
        pub(crate) fn lock(&self) -> MutexGuard<'_, T> {
            MutexGuard(Some(self.0.lock().unwrap()))
        }

        pub(crate) fn try_lock(&self) -> Option<MutexGuard<'_, T>> {
            self.0.try_lock().ok().map(|guard| MutexGuard(Some(guard)))
        }
    }

    impl<T: ?Sized> Deref for MutexGuard<'_, T> {
        type Target = T;
        fn deref(&self) -> &T {
            self.0.as_ref().expect("a held guard")
        }
    }

    impl<T: ?Sized> DerefMut for MutexGuard<'_, T> {
        fn deref_mut(&mut self) -> &mut T {
            self.0.as_mut().expect("a held guard")
        }
    }
}
