//! A gate that tasks wait at until the test opens it: how a test keeps a
//! pool's threads busy for exactly as long as it needs them busy.

use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

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

    /// A job that says it has started and then waits at this gate: what a
    /// test hands an executor to hold one of its threads. The job is
    /// unboxed, for the caller to box as its executor wants.
    pub fn held_job(&self) -> (impl FnOnce() + Send + 'static, Started) {
        let (started, wait) = mpsc::channel();
        let at = self.waiter();
        let job = move || {
            let _ = started.send(());
            at.wait();
        };
        (job, Started(wait))
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

/// Whether the job of [`Gate::held_job`] has started.
pub struct Started(mpsc::Receiver<()>);

impl Started {
    /// Waits until the job has started, at most `within`.
    ///
    /// # Panics
    /// If it has not started by then.
    pub fn wait(&self, within: Duration) {
        self.0
            .recv_timeout(within)
            .expect("the held job never started");
    }
}

impl Default for Gate {
    fn default() -> Self {
        Gate::new()
    }
}
