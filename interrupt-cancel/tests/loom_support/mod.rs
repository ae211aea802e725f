//! What the loom models share: a one-shot latch built on loom's own
//! primitives, so a model thread can wait until a timer ran a task.
//!
//! If the timer never runs the task (a lost wake-up), `wait` never returns,
//! and loom reports the model as a deadlock.

use loom::sync::{Arc, Condvar, Mutex};

/// Opened once by the task; waited on by the model thread.
#[derive(Clone)]
pub struct Latch(Arc<(Mutex<bool>, Condvar)>);

impl Latch {
    /// A closed latch.
    pub fn new() -> Latch {
        Latch(Arc::new((Mutex::new(false), Condvar::new())))
    }

    /// Opens the latch and wakes the waiter.
    pub fn open(&self) {
        *self.0.0.lock().unwrap() = true;
        self.0.1.notify_one();
    }

    /// Waits until the latch is open. `track_caller` makes loom's deadlock
    /// report point at the model's call, not at this helper.
    #[track_caller]
    pub fn wait(&self) {
        let mut open = self.0.0.lock().unwrap();
        while !*open {
            open = self.0.1.wait(open).unwrap();
        }
    }
}
