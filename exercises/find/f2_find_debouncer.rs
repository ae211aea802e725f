// Find it, F2: a debouncer.
//
// A debouncer runs an action once things have gone quiet. Every `poke`
// starts the quiet time again; once `quiet` has passed since the last poke,
// the action runs, once, on the debouncer's own thread. A burst of a hundred
// pokes costs one run, a quiet time after the last of them.
//
// It is built the way *Two ways to never lose one* builds its timer queue: a
// thread that looks, waits on a counting semaphore (the chapter's own,
// `condvar_timer::semaphore::Semaphore`), and looks again, with a gap
// between looking and waiting. To spare the semaphore a permit for every
// poke of a burst, a poke adds one only while the thread sleeps.
//
// It has one bug, of a kind the book has taught. Find it, and write the test
// that catches it: `cargo xtask exercise start f2-find`. Your test uses this
// file's public items (`use super::{Debouncer, Pause, AFTER_LOOK, ...}`);
// behind `Debouncer` runs either the scheduler below or a mended one, and
// your test cannot tell which except by what it does.
//
// The pause points, one per step of the thread's loop (each is a
// `kit::pause_point` call in the scheduler: read where it sits):
//
// - `AFTER_LOOK`: step 1 done, the thread has looked at the pokes;
// - `BEFORE_WAIT`: step 2 done, it is about to wait;
// - `AFTER_WAKE`: its wait is over and it has decided whether to act.
//
// Read down to the line "stop here". Below it are the mended version, the
// reference test and the wrong tests: the answer.

use std::io;
use std::time::Duration;

pub use exercises::catch::{Pause, Point};
use exercises::catch::{Side, calling, side};

const AFTER_LOOK_AT: &str = "f2 debouncer: step 1, looked";
const BEFORE_WAIT_AT: &str = "f2 debouncer: step 2, about to wait";
const AFTER_WAKE_AT: &str = "f2 debouncer: step 3, woke";

/// The thread has looked at the pokes (step 1).
pub const AFTER_LOOK: Point = Point::new("AFTER_LOOK", AFTER_LOOK_AT, AFTER_LOOK_AT);
/// The thread is about to wait (step 2 done).
pub const BEFORE_WAIT: Point = Point::new("BEFORE_WAIT", BEFORE_WAIT_AT, BEFORE_WAIT_AT);
/// The thread's wait is over, and it has decided whether to act (step 3).
pub const AFTER_WAKE: Point = Point::new("AFTER_WAKE", AFTER_WAKE_AT, AFTER_WAKE_AT);

/// A debouncer with its own thread: [`Debouncer::poke`] as often as you
/// like; the action runs once `quiet` has passed since the last poke.
/// Dropping it stops the thread and waits for it; a quiet time not yet over
/// is dropped with it.
pub struct Debouncer(Version);

enum Version {
    Buggy(scheduler::Debouncer),
    Fixed(fixed::Debouncer),
}

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
        Ok(Debouncer(match side() {
            Side::Buggy => Version::Buggy(scheduler::Debouncer::new(name, quiet, action)?),
            Side::Fixed => Version::Fixed(fixed::Debouncer::new(name, quiet, action)?),
        }))
    }

    /// Something happened: run the action once it has been quiet for
    /// `quiet` from now. Never blocks for long. A poke that comes while the
    /// action is about to run, or running, starts a new quiet time, and the
    /// action runs again after it.
    pub fn poke(&self) {
        calling("poke");
        match &self.0 {
            Version::Buggy(d) => d.poke(),
            Version::Fixed(d) => d.poke(),
        }
    }
}

// ANCHOR: scheduler
/// The debouncer as it was written.
mod scheduler {
    use std::io;
    use std::sync::Arc;
    use std::thread::{self, JoinHandle};
    use std::time::{Duration, Instant};

    use condvar_timer::semaphore::Semaphore;
    use parking_lot::Mutex;

    use super::{AFTER_LOOK_AT, AFTER_WAKE_AT, BEFORE_WAIT_AT};

    struct Shared {
        state: Mutex<State>,
        /// A permit says: something changed, look again.
        permits: Semaphore,
        quiet: Duration,
    }

    struct State {
        /// The last poke the action has not answered yet.
        last_poke: Option<Instant>,
        /// The thread sleeps: the next poke must add a permit.
        sleeping: bool,
        stopping: bool,
    }

    pub struct Debouncer {
        shared: Arc<Shared>,
        thread: Option<JoinHandle<()>>,
    }

    impl Debouncer {
        pub fn new(
            name: &str,
            quiet: Duration,
            action: impl FnMut() + Send + 'static,
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
                move || run(&shared, action)
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

    fn run(shared: &Shared, mut action: impl FnMut()) {
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
            let quiet_enough = {
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
            };
            kit::pause_point(AFTER_WAKE_AT);
            // 4. Act, outside the lock.
            if quiet_enough {
                action();
            }
        }
    }
}
// ANCHOR_END: scheduler

// ===================================================================
// Stop here: below are the mended version, the reference test and the
// wrong tests. Find the bug first.
// ===================================================================

/// The debouncer mended: the thread says it sleeps before it looks, under
/// the same lock, so a poke that comes after the look adds a permit, and
/// the semaphore keeps it until the wait.
mod fixed {
    use std::io;
    use std::sync::Arc;
    use std::thread::{self, JoinHandle};
    use std::time::{Duration, Instant};

    use condvar_timer::semaphore::Semaphore;
    use parking_lot::Mutex;

    use super::{AFTER_LOOK_AT, AFTER_WAKE_AT, BEFORE_WAIT_AT};

    struct Shared {
        state: Mutex<State>,
        permits: Semaphore,
        quiet: Duration,
    }

    struct State {
        last_poke: Option<Instant>,
        sleeping: bool,
        stopping: bool,
    }

    pub struct Debouncer {
        shared: Arc<Shared>,
        thread: Option<JoinHandle<()>>,
    }

    impl Debouncer {
        pub fn new(
            name: &str,
            quiet: Duration,
            action: impl FnMut() + Send + 'static,
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
                move || run(&shared, action)
            })?;
            Ok(Debouncer {
                shared,
                thread: Some(thread),
            })
        }

        pub fn poke(&self) {
            let mut state = self.shared.state.lock();
            state.last_poke = Some(Instant::now());
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
                let _ = thread.join();
            }
        }
    }

    fn run(shared: &Shared, mut action: impl FnMut()) {
        loop {
            // 1 and 2 at once: asleep as far as pokes can tell, then look.
            let fire_at = {
                let mut state = shared.state.lock();
                if state.stopping {
                    return;
                }
                state.sleeping = true;
                state.last_poke.and_then(|at| at.checked_add(shared.quiet))
            };
            kit::pause_point(AFTER_LOOK_AT);
            kit::pause_point(BEFORE_WAIT_AT);
            match fire_at {
                Some(at) => {
                    shared.permits.wait_until(at);
                }
                None => shared.permits.wait(),
            }
            let quiet_enough = {
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
            };
            kit::pause_point(AFTER_WAKE_AT);
            if quiet_enough {
                action();
            }
        }
    }
}

/// What `cargo xtask exercise start f2-find` gives you.
mod skeleton {
    // The window: TODO(F2) say here where the bug's window is, between which
    // two steps of the loop, and what a poke that lands in it does.

    use super::Debouncer;
    use kit::{Recorder, ms, threads};

    #[test]
    fn f2_debouncer_caught() {
        let name = threads::unique_name("find-f2");
        let rec = Recorder::new();

        // TODO(F2): the thread makes its first pass through the loop as soon
        // as it starts: to hold it on that pass, arm the pause here.

        let r = rec.clone();
        let debouncer = Debouncer::new(&name, ms(50), move || {
            r.record("fired");
        })
        .expect("start the debouncer");

        // TODO(F2): once the thread is held in the window, do there what the
        // bug cannot take, let the thread go, and assert what a debouncer
        // promises (it fires within 300 ms of its quiet time), in a message
        // that starts with "F2".
        debouncer.poke();
        let _ = rec.eventually("fired", ms(350));
    }
}

/// One test that catches it.
mod reference {
    // The window: between step 1 (the thread has looked, and found nothing
    // poked) and step 2 (it says it sleeps). A poke there finds the thread
    // not asleep and adds no permit; the thread then waits for a permit that
    // never comes, and the action never runs.

    use super::{AFTER_LOOK, Debouncer, Pause};
    use kit::scale::in_ms;
    use kit::{Recorder, ms, threads};

    /// The quiet time.
    const QUIET_MS: u64 = 50;
    /// How late after its quiet time the action may run.
    const MARGIN_MS: u64 = 300;

    #[test]
    fn f2_debouncer_caught() {
        let name = threads::unique_name("find-f2");
        let rec = Recorder::new();
        // Armed before the thread starts: its first look finds no poke.
        let pause = Pause::arm(AFTER_LOOK, &name);
        let r = rec.clone();
        let debouncer = Debouncer::new(&name, ms(QUIET_MS), move || {
            r.record("fired");
        })
        .expect("start the debouncer");
        pause.wait_reached();
        // The poke, while the thread is between its look and its sleep.
        let poked = rec.record("poked");
        debouncer.poke();
        pause.release();

        let by = poked + ms(QUIET_MS + MARGIN_MS);
        let fired = rec.eventually("fired", by.saturating_sub(rec.elapsed()));
        assert!(
            fired.is_some_and(|at| at <= by),
            "F2 debouncer: poked at {} ms with a quiet time of {QUIET_MS} ms, and the action \
             had not run by {} ms: the poke woke nobody\n{}",
            in_ms(poked),
            in_ms(by),
            rec.log()
        );
    }
}

/// Wrong: it sleeps and hopes. No pause point: it starts the debouncer,
/// sleeps a moment so that the thread is "surely" between its look and its
/// sleep, and pokes. The gap is a few instructions wide.
mod wrong_sleeps_and_hopes {
    // verdict: never-held

    use super::Debouncer;
    use kit::{Recorder, ms, threads};
    use std::time::Duration;

    #[test]
    fn f2_debouncer_caught() {
        let name = threads::unique_name("find-f2");
        let rec = Recorder::new();
        let r = rec.clone();
        let debouncer = Debouncer::new(&name, ms(50), move || {
            r.record("fired");
        })
        .expect("start the debouncer");
        std::thread::sleep(Duration::from_micros(100));
        debouncer.poke();
        assert!(
            rec.eventually("fired", ms(350)).is_some(),
            "F2 debouncer: the action never ran"
        );
    }
}

/// Wrong: it fails always. It forces the window well, then asserts more
/// than a debouncer does: that the action ran before its quiet time was
/// over.
mod wrong_fails_always {
    // verdict: fails-on-fixed

    use super::{AFTER_LOOK, Debouncer, Pause};
    use kit::{Recorder, ms, threads};

    #[test]
    fn f2_debouncer_caught() {
        let name = threads::unique_name("find-f2");
        let rec = Recorder::new();
        let pause = Pause::arm(AFTER_LOOK, &name);
        let r = rec.clone();
        let debouncer = Debouncer::new(&name, ms(50), move || {
            r.record("fired");
        })
        .expect("start the debouncer");
        pause.wait_reached();
        let poked = rec.record("poked");
        debouncer.poke();
        pause.release();
        let fired = rec.eventually("fired", ms(350));
        assert!(
            fired.is_some_and(|at| at < poked + ms(20)),
            "F2 debouncer: the action had not run 20 ms after the poke: {fired:?}"
        );
    }
}

/// Wrong: it asserts nothing. It forces the window well, waits for the
/// action, and never says what it expected.
mod wrong_asserts_nothing {
    // verdict: misses-the-bug

    use super::{AFTER_LOOK, Debouncer, Pause};
    use kit::{Recorder, ms, threads};

    #[test]
    fn f2_debouncer_caught() {
        let name = threads::unique_name("find-f2");
        let rec = Recorder::new();
        let pause = Pause::arm(AFTER_LOOK, &name);
        let r = rec.clone();
        let debouncer = Debouncer::new(&name, ms(50), move || {
            r.record("fired");
        })
        .expect("start the debouncer");
        pause.wait_reached();
        debouncer.poke();
        pause.release();
        let fired = rec.eventually("fired", ms(350));
        println!("fired at {fired:?}");
    }
}

/// Wrong: it catches another bug. It holds the thread, but what it asserts
/// is that an action that panics leaves the debouncer working, a bug both
/// versions have (*A timer you can interrupt* shows the cure, I6). It fails
/// on the mended version too.
mod wrong_other_bug {
    // verdict: fails-on-fixed

    use super::{AFTER_WAKE, Debouncer, Pause};
    use kit::{Recorder, ms, threads};

    #[test]
    fn f2_debouncer_caught() {
        let name = threads::unique_name("find-f2");
        let rec = Recorder::new();
        let r = rec.clone();
        let debouncer = Debouncer::new(&name, ms(20), move || {
            if r.count("fired") == 0 {
                r.record("fired");
                panic!("the first action panics, on purpose");
            }
            r.record("fired");
        })
        .expect("start the debouncer");
        let pause = Pause::arm(AFTER_WAKE, &name);
        debouncer.poke();
        pause.wait_reached();
        pause.release();
        assert!(rec.eventually("fired", ms(300)).is_some());
        debouncer.poke();
        assert!(
            rec.wait_until_count("fired", 2, ms(300)).is_some(),
            "F2 debouncer: a poke after a panicking action was never answered"
        );
    }
}

/// Wrong: it holds the thread at the wrong point. It pokes while the thread
/// is held just before its wait, where a C1 test would hold it; but there
/// the thread already says it sleeps, and the poke leaves a permit. It
/// passes on both versions.
mod wrong_point {
    // verdict: misses-the-bug

    use super::{BEFORE_WAIT, Debouncer, Pause};
    use kit::scale::in_ms;
    use kit::{Recorder, ms, threads};

    #[test]
    fn f2_debouncer_caught() {
        let name = threads::unique_name("find-f2");
        let rec = Recorder::new();
        let pause = Pause::arm(BEFORE_WAIT, &name);
        let r = rec.clone();
        let debouncer = Debouncer::new(&name, ms(50), move || {
            r.record("fired");
        })
        .expect("start the debouncer");
        pause.wait_reached();
        let poked = rec.record("poked");
        debouncer.poke();
        pause.release();
        let by = poked + ms(350);
        let fired = rec.eventually("fired", by.saturating_sub(rec.elapsed()));
        assert!(
            fired.is_some(),
            "F2 debouncer: poked at {} ms, not fired by {} ms",
            in_ms(poked),
            in_ms(by)
        );
    }
}
