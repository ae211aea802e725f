//! F2's debouncers on a condition variable, as *A timer that loses a
//! wake-up* builds its timers: one lock over the last poke, and a
//! condition variable that every poke notifies. No `sleeping` flag: a
//! notify that finds nobody waiting is simply lost, so what decides
//! whether a poke can be lost is whether the thread lets go of the lock
//! between its look and its wait.
//!
//! - [`one_lock`], correct: java.util.Timer's way. The thread holds the
//!   lock from its look into its wait, which lets go of it atomically; a
//!   poke waits for the lock, and its notify finds the thread waiting. A
//!   poke made while the thread is held at `AFTER_LOOK` or `BEFORE_WAIT`
//!   waits until the thread is released. Every poke notifies, so a burst
//!   wakes the thread once per poke it sees waiting.
//! - [`lost_notify`], C1 again: the thread looks under the lock, lets go,
//!   and takes it again to wait, on what it saw. A poke in between
//!   notifies nobody. (It checks for a drop's stop again before it waits,
//!   so a drop is not lost the same way.)

use std::io;
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex, MutexGuard};

use super::Action;
use crate::find::f2::{AFTER_LOOK_AT, AFTER_WAKE_AT, BEFORE_WAIT_AT};

/// What the thread and the pokes share.
pub(super) struct Shared {
    state: Mutex<State>,
    /// Notified at every poke, and at the drop.
    changed: Condvar,
    quiet: Duration,
}

/// What the lock guards.
struct State {
    /// The last poke the action has not answered yet.
    last_poke: Option<Instant>,
    stopping: bool,
}

/// A debouncer on a condition variable, its thread running one of the two
/// loops below.
pub(super) struct Debouncer {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Debouncer {
    /// Starts a thread named `name` that runs `body`.
    pub(super) fn start(
        name: &str,
        quiet: Duration,
        mut action: Action,
        body: fn(&Shared, &mut dyn FnMut()),
    ) -> io::Result<Debouncer> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                last_poke: None,
                stopping: false,
            }),
            changed: Condvar::new(),
            quiet,
        });
        let thread = thread::Builder::new().name(name.to_owned()).spawn({
            let shared = Arc::clone(&shared);
            move || body(&shared, &mut action)
        })?;
        Ok(Debouncer {
            shared,
            thread: Some(thread),
        })
    }

    /// Starts the quiet time again, and tells the thread.
    pub(super) fn poke(&self) {
        let mut state = self.shared.state.lock();
        state.last_poke = Some(Instant::now());
        drop(state);
        self.shared.changed.notify_one();
    }
}

impl Drop for Debouncer {
    fn drop(&mut self) {
        self.shared.state.lock().stopping = true;
        self.shared.changed.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join(); // an action that panicked ended it
        }
    }
}

/// When it will have been quiet for long enough, if a poke is pending.
fn fire_at(shared: &Shared, state: &State) -> Option<Instant> {
    state.last_poke.and_then(|at| at.checked_add(shared.quiet))
}

/// Waits, letting go of the lock meanwhile, until `fire_at` or a notify.
fn wait(shared: &Shared, state: &mut MutexGuard<'_, State>, fire_at: Option<Instant>) {
    match fire_at {
        Some(at) => {
            shared.changed.wait_until(state, at);
        }
        None => shared.changed.wait(state),
    }
}

/// The decision: whether it has been quiet for long enough since the last
/// poke. If so, the action answers that poke.
fn quiet_enough(shared: &Shared, state: &mut State) -> bool {
    let quiet = fire_at(shared, state).is_some_and(|at| at <= Instant::now());
    if quiet {
        state.last_poke = None;
    }
    quiet
}

/// One lock from the look into the wait.
pub(super) fn one_lock(shared: &Shared, action: &mut dyn FnMut()) {
    loop {
        let mut state = shared.state.lock();
        if state.stopping {
            return;
        }
        let fire_at = fire_at(shared, &state);
        kit::pause_point(AFTER_LOOK_AT);
        kit::pause_point(BEFORE_WAIT_AT);
        wait(shared, &mut state, fire_at);
        let act = quiet_enough(shared, &mut state);
        drop(state);
        kit::pause_point(AFTER_WAKE_AT);
        if act {
            action();
        }
    }
}

/// The look and the wait under the lock each on its own.
pub(super) fn lost_notify(shared: &Shared, action: &mut dyn FnMut()) {
    loop {
        let fire_at = {
            let state = shared.state.lock();
            if state.stopping {
                return;
            }
            fire_at(shared, &state)
        };
        kit::pause_point(AFTER_LOOK_AT);
        let mut state = shared.state.lock();
        // A drop's stop is seen here too; a poke's news is not.
        if state.stopping {
            return;
        }
        kit::pause_point(BEFORE_WAIT_AT);
        wait(shared, &mut state, fire_at);
        let act = quiet_enough(shared, &mut state);
        drop(state);
        kit::pause_point(AFTER_WAKE_AT);
        if act {
            action();
        }
    }
}
