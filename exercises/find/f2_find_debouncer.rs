//! Find it, F2: a debouncer.
//!
//! A debouncer runs an action once things have gone quiet. Every `poke`
//! starts the quiet time again; once `quiet` has passed since the last
//! poke, the action runs, once, on the debouncer's own thread. A burst of a
//! hundred pokes costs one run, a quiet time after the last of them.
//!
//! It is built the way *Two ways to never lose one* builds its timer queue:
//! a thread that looks, waits on a counting semaphore (the chapter's own,
//! `condvar_timer::semaphore::Semaphore`), and looks again, with a gap
//! between looking and waiting. To spare the semaphore a permit for every
//! poke of a burst, a poke adds one only while the thread sleeps.
//!
//! It has one bug, of a kind the book has taught. Find it, and write the
//! test that catches it: `cargo xtask exercise start f2-find`; your test
//! uses `exercises::find::f2::{Debouncer, Pause, AFTER_LOOK, ...}`. Behind
//! `Debouncer` runs one of several debouncers: the scheduler below, as it
//! was written, and others, correct ones and ones with other bugs. Your
//! test cannot tell which except by what it does.
//!
//! The pause points, one per step of the thread's loop (each is a
//! `kit::pause_point` call in the scheduler: read where it sits):
//!
//! - `AFTER_LOOK`: step 1 done, the thread has looked at the pokes;
//! - `BEFORE_WAIT`: step 2 done, it is about to wait;
//! - `AFTER_WAKE`: its wait is over and it has decided whether to act.
//!
//! Every debouncer behind the API passes the same points, each after the
//! step it names. Some hold their lock at `AFTER_LOOK` and `BEFORE_WAIT`
//! (the scheduler below does not): while your test holds the thread there,
//! a `poke` waits for the release. Poke from another thread.

use std::io;
use std::time::Duration;

pub use crate::catch::{Pause, Point};

use super::f2_versions::{Imp, Version};

pub(super) const AFTER_LOOK_AT: &str = "f2 debouncer: step 1, looked";
pub(super) const BEFORE_WAIT_AT: &str = "f2 debouncer: step 2, about to wait";
pub(super) const AFTER_WAKE_AT: &str = "f2 debouncer: step 3, woke";

/// The thread has looked at the pokes (step 1).
///
/// In some versions the thread holds the debouncer's lock here: a `poke`
/// from another thread then waits until you release it, and one from the
/// thread that holds the pause waits for ever. Held once per arm; later
/// passes go through.
pub const AFTER_LOOK: Point = Point::new("AFTER_LOOK", AFTER_LOOK_AT);
/// The thread is about to wait (step 2 done).
///
/// In some versions the thread holds the debouncer's lock here, as at
/// [`AFTER_LOOK`]. Held once per arm.
pub const BEFORE_WAIT: Point = Point::new("BEFORE_WAIT", BEFORE_WAIT_AT);
/// The thread's wait is over, and it has decided whether to act (step 3).
/// No version holds its lock here. Held once per arm.
pub const AFTER_WAKE: Point = Point::new("AFTER_WAKE", AFTER_WAKE_AT);

/// A debouncer with its own thread: [`Debouncer::poke`] as often as you
/// like; the action runs once `quiet` has passed since the last poke.
/// Dropping it stops the thread and waits for it; a quiet time not yet over
/// is dropped with it.
pub struct Debouncer(Imp);

impl Debouncer {
    /// Starts a debouncer whose thread is named `name` (the name a
    /// [`Pause`] holds it by), and which runs `action` on that thread.
    ///
    /// # Errors
    /// If the thread cannot be started (or `name` contains a NUL byte).
    pub fn new(
        name: &str,
        quiet: Duration,
        action: impl FnMut() + Send + 'static,
    ) -> io::Result<Debouncer> {
        Ok(Debouncer(<Imp as Version>::start(
            name,
            quiet,
            Box::new(action),
        )?))
    }

    /// Something happened: run the action once it has been quiet for
    /// `quiet` from now. Waits only for the debouncer's lock: never for
    /// long, unless the thread is held at a pause point where this version
    /// holds the lock, and then until the thread is released. A poke that
    /// comes while the action is about to run, or running, starts a new
    /// quiet time, and the action runs again after it.
    pub fn poke(&self) {
        crate::catch::calling("poke");
        Version::poke(&self.0);
    }
}

// ANCHOR: scheduler
/// The debouncer as it was written.
pub(crate) mod scheduler {
    use std::io;
    use std::sync::Arc;
    use std::thread::{self, JoinHandle};
    use std::time::{Duration, Instant};

    use condvar_timer::semaphore::Semaphore;
    use parking_lot::Mutex;

    use super::{AFTER_LOOK_AT, AFTER_WAKE_AT, BEFORE_WAIT_AT};

    /// What the thread and the pokes share.
    pub struct Shared {
        pub state: Mutex<State>,
        /// A permit says: something changed, look again.
        pub permits: Semaphore,
        pub quiet: Duration,
    }

    /// What the lock guards.
    pub struct State {
        /// The last poke the action has not answered yet.
        pub last_poke: Option<Instant>,
        /// The thread sleeps: the next poke must add a permit.
        pub sleeping: bool,
        pub stopping: bool,
    }

    /// What the thread runs once it is quiet.
    pub type Action = Box<dyn FnMut() + Send>;

    /// The debouncer: what it shares with its thread, and the thread.
    pub struct Debouncer {
        shared: Arc<Shared>,
        thread: Option<JoinHandle<()>>,
    }

    impl Debouncer {
        pub fn new(name: &str, quiet: Duration, action: Action) -> io::Result<Debouncer> {
            Debouncer::start(name, quiet, action, run)
        }

        /// Starts a thread named `name` that runs `body` (the loop, `run`
        /// below).
        pub fn start(
            name: &str,
            quiet: Duration,
            mut action: Action,
            body: fn(&Shared, &mut dyn FnMut()),
        ) -> io::Result<Debouncer> {
            let shared = Arc::new(Shared {
                state: Mutex::new(State {
                    last_poke: None,
                    sleeping: false,
                    stopping: false,
                }),
                permits: Semaphore::new(),
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

        pub fn poke(&self) {
            let mut state = self.shared.state.lock();
            state.last_poke = Some(Instant::now());
            // One permit wakes the thread; the rest of a burst adds none.
            let wake = state.sleeping;
            state.sleeping = false;
            drop(state);
            if wake {
                self.shared.permits.notify();
            }
        }
    }

    impl Drop for Debouncer {
        fn drop(&mut self) {
            self.shared.state.lock().stopping = true;
            self.shared.permits.notify();
            if let Some(thread) = self.thread.take() {
                let _ = thread.join(); // an action that panicked ended it
            }
        }
    }

    /// Step 3's decision: whether it has been quiet for long enough since
    /// the last poke. If so, the action answers that poke.
    pub fn quiet_enough(shared: &Shared) -> bool {
        let mut state = shared.state.lock();
        state.sleeping = false;
        let now = Instant::now();
        let quiet = state
            .last_poke
            .and_then(|at| at.checked_add(shared.quiet))
            .is_some_and(|at| at <= now);
        if quiet {
            state.last_poke = None;
        }
        quiet
    }

    fn run(shared: &Shared, action: &mut dyn FnMut()) {
        loop {
            // 1. Look: when will it have been quiet for long enough?
            let fire_at = {
                let state = shared.state.lock();
                if state.stopping {
                    return;
                }
                state.last_poke.and_then(|at| at.checked_add(shared.quiet))
            };
            kit::pause_point(AFTER_LOOK_AT);
            // 2. Go to sleep: from now on, a poke adds a permit.
            shared.state.lock().sleeping = true;
            kit::pause_point(BEFORE_WAIT_AT);
            // 3. Wait until then, or for a permit; then decide.
            match fire_at {
                Some(at) => {
                    shared.permits.wait_until(at);
                }
                None => shared.permits.wait(),
            }
            let act = quiet_enough(shared);
            kit::pause_point(AFTER_WAKE_AT);
            // 4. Act, outside the lock.
            if act {
                action();
            }
        }
    }
}
// ANCHOR_END: scheduler
