//! The driver: one thread that sleeps until the wheel's next deadline,
//! fires what came due, and wakes the tasks waiting on it.
//!
//! Each turn of its loop takes the driver's lock once:
//!
//! 1. If something is due, it advances the wheel to now, takes the due
//!    entries out, **lets go of the lock**, and only then fires them and
//!    wakes their wakers (A7): a waker runs the executor's code, which may
//!    poll the task on the spot or file another timer, and either would
//!    need the lock back.
//! 2. If nothing is due, it publishes the tick it will sleep until (its
//!    *plan*), lets go, and parks until then. A thread filing a timer due
//!    sooner than the plan unparks it (A5); `park`'s token keeps that
//!    unpark even if it comes before the park does.
//!
//! Timers already due when filed never reach the driver: the filing
//! thread fires them (A6). The driver's owner, [`Driver`], shuts it down
//! when dropped: every timer still waiting then ends with
//! [`TimerError::Shutdown`](crate::TimerError::Shutdown).

use std::sync::Arc;

use crate::builder::Builder;
use crate::clock::ManualClock;
use crate::entry::{self, Entry, Status};
use crate::error::{StartError, TimerError};
use crate::handle::{AWAKE, Handle, IDLE, Shared, State};
use crate::sync::{self, MutexGuard, thread};

/// The pause point where the driver has taken the due entries out of the
/// wheel and let go of its lock, and has not fired them yet.
pub const FIRE_WINDOW: &str = "async-timer::driver: took the due entries, not yet fired";

/// The pause point where the driver has chosen its park deadline (and
/// published it as its plan), and has not parked yet.
pub const PARK_WINDOW: &str = "async-timer::driver: chose its park deadline, not yet parked";

/// A running driver: its thread, and the handle that makes its timers.
/// Dropping it shuts the driver down and joins its thread.
pub struct Driver {
    handle: Handle,
    thread: Option<thread::JoinHandle<()>>,
}

impl Driver {
    /// Starts a driver with the default settings (a 1 ms tick, the real
    /// clock) on a thread named `name`.
    ///
    /// # Errors
    /// [`StartError::Spawn`] if the thread cannot be started.
    pub fn start(name: &str) -> Result<Driver, StartError> {
        Builder::new(name).start()
    }

    /// A builder for a driver on a thread named `name`.
    pub fn builder(name: &str) -> Builder {
        Builder::new(name)
    }

    /// Starts the driver's thread on `shared`, named `name`.
    pub(crate) fn spawn(shared: Arc<Shared>, name: &str) -> Result<Driver, StartError> {
        let thread = thread::Builder::new()
            .name(name.to_owned())
            .spawn({
                let shared = Arc::clone(&shared);
                move || run(&shared)
            })
            .map_err(|e| StartError::Spawn(e.to_string()))?;
        // Before any handle exists: nobody can file a timer yet.
        shared.state.lock().driver = Some(thread.thread().clone());
        Ok(Driver {
            handle: Handle { shared },
            thread: Some(thread),
        })
    }

    /// The handle that makes this driver's timers.
    pub fn handle(&self) -> Handle {
        self.handle.clone()
    }

    /// The hand that moves this driver's clock, if it was built with
    /// [`Builder::manual_clock`]; `None` on the real clock.
    pub fn manual_clock(&self) -> Option<ManualClock> {
        let shared = &self.handle.shared;
        shared.clock.is_manual().then(|| ManualClock {
            shared: Arc::clone(shared),
        })
    }

    /// Shuts the driver down and joins its thread: every timer still
    /// waiting ends with [`TimerError::Shutdown`], and so does every timer
    /// made after. Dropping the driver does the same.
    ///
    /// # Panics
    /// Only if the driver thread itself panicked (a bug in this crate: a
    /// waker's panic is caught); the panic is passed on.
    pub fn shutdown(mut self) {
        if let Err(panic) = self.shut_down() {
            std::panic::resume_unwind(panic);
        }
    }

    fn shut_down(&mut self) -> std::thread::Result<()> {
        let Some(thread) = self.thread.take() else {
            return Ok(());
        };
        let driver = {
            let mut state = self.handle.shared.state.lock();
            state.shut_down = true;
            state.driver.clone()
        };
        if let Some(driver) = driver {
            driver.unpark();
        }
        thread.join()
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // A panicked driver thread is not passed on from a drop.
        let _ = self.shut_down();
    }
}

impl std::fmt::Debug for Driver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver")
            .field("handle", &self.handle)
            .finish_non_exhaustive()
    }
}

// ANCHOR: run
/// The driver thread's loop. See the module docs.
fn run(shared: &Shared) {
    let mut due = Vec::new();
    // Counted here, published under the lock at the next turn.
    let (mut fired, mut wakeups) = (0, 0);
    loop {
        let mut state = shared.state.lock();
        state.plan = AWAKE;
        state.fired += std::mem::take(&mut fired);
        state.wakeups += std::mem::take(&mut wakeups);
        if state.shut_down {
            return shut_down(state);
        }
        let (now, next) = (shared.clock.now_tick(), state.wheel.next_expiration());
        if next.is_some_and(|tick| tick <= now) {
            fired = shared.variant.fire_due(state, now, &mut due);
            continue;
        }
        // ANCHOR: park
        // Nothing due: publish the plan, then sleep until it. A timer
        // filed from here on sees the plan, and unparks us if it is due
        // sooner (A5); one filed before is in the wheel we just read. The
        // plan is published under the same hold of the lock as the read:
        // published later, a timer filed in between would compare with the
        // old plan (tokio #6682).
        state.plan = next.unwrap_or(IDLE);
        drop(state);
        kit::pause_point(PARK_WINDOW);
        park(shared, next);
        wakeups += 1;
        // ANCHOR_END: park
    }
}
// ANCHOR_END: run

// ANCHOR: fire_due
/// Advances the wheel to tick `now` and fires what came due, with the
/// driver's lock let go first (A7). Returns how many entries fired.
pub(crate) fn fire_due(
    mut state: MutexGuard<'_, State>,
    now: u64,
    due: &mut Vec<Arc<Entry>>,
) -> u64 {
    state.wheel.advance_to(now, due);
    drop(state);
    kit::pause_point(FIRE_WINDOW);
    let fired = due.len() as u64;
    for entry in due.drain(..) {
        if let Some(waker) = entry.complete(Status::Fired) {
            entry::wake(waker);
        }
    }
    fired
}
// ANCHOR_END: fire_due

/// Parks the driver thread until the tick `next` begins, or until
/// unparked; with no timer, until unparked.
fn park(shared: &Shared, next: Option<u64>) {
    let clock = &shared.clock;
    match next.and_then(|tick| clock.instant_of(tick)) {
        Some(at) if !clock.is_manual() => {
            sync::park_timeout(at.saturating_duration_since(sync::now()));
        }
        // A manual clock's `advance` unparks the driver when it reaches
        // the plan; with no timer at all, a filing unparks it.
        _ => thread::park(),
    }
}

/// The driver's last turn: every entry still waiting ends with
/// `Shutdown`, its waker woken with the lock let go.
fn shut_down(mut state: MutexGuard<'_, State>) {
    let left = state.wheel.drain();
    drop(state);
    for entry in left {
        if let Some(waker) = entry.complete(Status::Failed(TimerError::Shutdown)) {
            entry::wake(waker);
        }
    }
}
