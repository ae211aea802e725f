//! What the test files share: a gate tasks wait on, pools with thread
//! names of their own, and a wait for a condition with a deadline.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Instant;

use kit::ms;
use parking_lot::{Condvar, Mutex};
use threadpool_executor::factory::NamedThreads;

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

/// A unique prefix for a test's pool (`t1-7-`): its threads are
/// `t1-7-1`, `t1-7-2`, ...
pub fn prefix(id: &str) -> String {
    format!("{}-", kit::threads::unique_name(id))
}

/// Threads named after `prefix`.
pub fn threads(prefix: &str) -> NamedThreads {
    NamedThreads::with_prefix(prefix)
}

// Not every test file waits on a condition.
#[allow(unused_imports)]
pub use kit::eventually;

/// The name of the calling thread.
pub fn me() -> String {
    std::thread::current().name().unwrap_or("?").to_owned()
}
