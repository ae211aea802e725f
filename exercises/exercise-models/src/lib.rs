//! The subjects of the model-it exercises, each behind one API.
//!
//! In a model-it exercise the student writes a loom model (the threads and
//! the check) of a race the book names. `cargo xtask model-check <name>`
//! runs that model twice, each run in its own process: once on the racy
//! version, where loom must find an execution that fails (a deadlock, or
//! the model's assertion), and once on the fixed version, where every
//! execution must pass within the chapter's preemption bound.
//!
//! Which version a run gets is the grader's choice, made before the process
//! starts. The model sees one type per exercise ([`c1::Timer`],
//! [`p3::Timer`], [`w5::Ring`], [`t7::Pool`]) with the same methods either
//! way, so it can tell the versions apart only by how they behave.
//!
//! loom has no clock. Under `--cfg loom` the stages' clock is frozen: a
//! delay of [`Duration::ZERO`](std::time::Duration::ZERO) is due at once, a
//! delay of [`FAR`] never comes due, and a timed wait never times out (it
//! ends only when something notifies it). A model that waits for a far
//! deadline therefore waits for ever, and loom reports a deadlock.

pub mod c1;
pub mod p3;
pub mod t7;
pub mod w5;

mod subject;

use std::time::Duration;

/// A delay that never comes due under loom (the clock is frozen), and an
/// hour on a real clock.
pub const FAR: Duration = Duration::from_secs(3600);

#[cfg(loom)]
use loom::sync::{Arc, Condvar, Mutex};
#[cfg(not(loom))]
use std::sync::{Arc, Condvar, Mutex};

/// A one-shot latch on loom's own primitives: a task opens it, a model
/// thread waits for it. If nothing ever opens it, `wait` never returns and
/// loom reports the model as a deadlock.
///
/// ```ignore
/// let ran = Latch::new();
/// let signal = ran.clone();
/// timer.schedule(Duration::ZERO, move || signal.open()).unwrap();
/// ran.wait(); // returns once the task ran
/// ```
#[derive(Clone)]
pub struct Latch(Arc<(Mutex<bool>, Condvar)>);

impl Latch {
    /// A closed latch.
    pub fn new() -> Latch {
        Latch(Arc::new((Mutex::new(false), Condvar::new())))
    }

    /// Opens the latch and wakes the waiter.
    pub fn open(&self) {
        let (open, changed) = &*self.0;
        *open.lock().unwrap_or_else(|p| p.into_inner()) = true;
        changed.notify_all();
    }

    /// Whether the latch is open, without waiting.
    pub fn is_open(&self) -> bool {
        *self.0.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits until the latch is open. `track_caller`: loom's deadlock
    /// report (and the grader) then points at the model's line that waits,
    /// not at this helper.
    #[track_caller]
    pub fn wait(&self) {
        let (open, changed) = &*self.0;
        let mut guard = open.lock().unwrap_or_else(|p| p.into_inner());
        while !*guard {
            guard = changed.wait(guard).unwrap_or_else(|p| p.into_inner());
        }
    }
}

impl Default for Latch {
    fn default() -> Latch {
        Latch::new()
    }
}
