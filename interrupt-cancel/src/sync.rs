//! The stage's sync facade: parking_lot's `Mutex` and `Condvar` normally,
//! loom's under `--cfg loom`, so the loom models check the very code that
//! ships.
//!
//! This stage is the one people use, so it takes parking_lot (as the
//! pools and the wheel will): no poisoning to unwrap, `wait_until` takes a
//! deadline, and a notify with nobody waiting costs no syscall. The API
//! here is parking_lot's (`lock()` returns the guard, `wait(&mut guard)`);
//! under loom a thin wrapper gives loom's std-style types the same shape.
//!
//! loom has no clock: its timed waits never time out. So time comes from
//! here too: under loom, [`now`] is frozen, a deadline of "now" is already
//! due, and any later deadline is never reached. A thread that waits for a
//! far deadline then waits until it is notified, which is how loom turns a
//! lost wake-up (or a lost interrupt) into a reported deadlock.
//!
//! `Arc` is std's in both builds: loom only needs to see the primitives
//! two threads race on, and std's `Arc` can hold a `dyn` value.

pub(crate) use std::sync::Arc;
use std::time::Instant;

#[cfg(not(loom))]
pub(crate) use parking_lot::{Mutex, MutexGuard};
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::AtomicBool;
#[cfg(not(loom))]
pub(crate) use std::thread;
#[cfg(not(loom))]
pub(crate) use std::thread_local;

#[cfg(loom)]
pub(crate) use loom::sync::atomic::AtomicBool;
#[cfg(loom)]
pub(crate) use loom::thread;
#[cfg(loom)]
pub(crate) use loom::thread_local;
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

    pub(crate) struct Mutex<T>(loom::sync::Mutex<T>);

    /// `Some` except for the moment a `Condvar::wait` holds it.
    pub(crate) struct MutexGuard<'a, T>(pub(super) Option<loom::sync::MutexGuard<'a, T>>);

    impl<T> Mutex<T> {
        pub(crate) fn new(value: T) -> Mutex<T> {
            Mutex(loom::sync::Mutex::new(value))
        }

        pub(crate) fn lock(&self) -> MutexGuard<'_, T> {
            MutexGuard(Some(self.0.lock().unwrap()))
        }
    }

    impl<T> Deref for MutexGuard<'_, T> {
        type Target = T;
        fn deref(&self) -> &T {
            self.0.as_ref().expect("a held guard")
        }
    }

    impl<T> DerefMut for MutexGuard<'_, T> {
        fn deref_mut(&mut self) -> &mut T {
            self.0.as_mut().expect("a held guard")
        }
    }
}
