//! A gate that tasks wait at until the test opens it: how a test keeps a
//! pool's threads busy for exactly as long as it needs them busy.

use std::sync::Arc;
use std::time::Instant;

use parking_lot::{Condvar, Mutex};

use crate::ms;

/// How long a gated task waits at most: a test that fails before opening
/// its gate must not leave a pool that can never drop.
const GATE_LIMIT_MS: u64 = 5_000;

/// Tasks wait at a gate until the test opens it; dropping the gate opens
/// it too, so a failing test never leaves a task blocked.
pub struct Gate(Arc<Inner>);

/// A task's side of a [`Gate`].
#[derive(Clone)]
pub struct GateWait(Arc<Inner>);

struct Inner {
    open: Mutex<bool>,
    opened: Condvar,
}

impl Gate {
    /// A closed gate.
    pub fn new() -> Gate {
        Gate(Arc::new(Inner {
            open: Mutex::new(false),
            opened: Condvar::new(),
        }))
    }

    /// What a task keeps, to wait with.
    pub fn waiter(&self) -> GateWait {
        GateWait(Arc::clone(&self.0))
    }

    /// Opens it: every waiting task goes on, and later ones do not wait.
    pub fn open(&self) {
        *self.0.open.lock() = true;
        self.0.opened.notify_all();
    }
}

impl Drop for Gate {
    fn drop(&mut self) {
        self.open();
    }
}

impl GateWait {
    /// Waits until the gate opens (at most a few seconds).
    pub fn wait(&self) {
        let deadline = Instant::now() + ms(GATE_LIMIT_MS);
        let mut open = self.0.open.lock();
        while !*open {
            if self.0.opened.wait_until(&mut open, deadline).timed_out() {
                return;
            }
        }
    }
}

impl Default for Gate {
    fn default() -> Self {
        Gate::new()
    }
}
