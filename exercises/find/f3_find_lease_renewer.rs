// Find it, F3: a lease renewer.
//
// A lease renewer keeps a lease alive: it renews it at once, and then again
// every `every`, counted from the end of the last renewal, on its own
// thread, until it is stopped. `stop` returns at once; from then on no
// renewal starts (one already running finishes), and the thread ends soon.
// A renewal after `stop` would keep a lease its owner has given up.
//
// It is stopped the way *A timer you can interrupt* stops its timer: with
// that chapter's interrupt (`interrupt_cancel::interrupt`). The thread
// registers how to wake it from its wait (`block_on`), and asks about the
// interrupt before every wait.
//
// It has one bug, of a kind the book has taught. Find it, and write the test
// that catches it: `cargo xtask exercise start f3-find`. Your test uses this
// file's public items (`use super::{Renewer, Pause, RENEWED, ...}`); behind
// `Renewer` runs either the scheduler below or a mended one, and your test
// cannot tell which except by what it does.
//
// The pause points, one per step of the thread's loop (each is a
// `kit::pause_point` call in the scheduler: read where it sits):
//
// - `RENEWED`: step 1 done, it has renewed;
// - `PLANNED`: step 2 done, it has planned the next renewal;
// - `ASKED`: in step 3, it has asked about the interrupt, before a wait.
//
// Read down to the line "Stop here". Below it are the mended version, the
// reference test and the wrong tests: the answer.

use std::io;
use std::time::Duration;

pub use exercises::catch::{Pause, Point};
use exercises::catch::{Side, calling, side};

const RENEWED_AT: &str = "f3 lease renewer: step 1, renewed";
const PLANNED_AT: &str = "f3 lease renewer: step 2, planned";
const ASKED_AT: &str = "f3 lease renewer: step 3, asked";

/// The thread has renewed (step 1).
pub const RENEWED: Point = Point::new("RENEWED", RENEWED_AT, RENEWED_AT);
/// The thread has planned the next renewal (step 2).
pub const PLANNED: Point = Point::new("PLANNED", PLANNED_AT, PLANNED_AT);
/// The thread has asked about the interrupt, before a wait (step 3).
pub const ASKED: Point = Point::new("ASKED", ASKED_AT, ASKED_AT);

/// A lease renewer with its own thread. Dropping it stops it and waits for
/// its thread.
pub struct Renewer(Version);

enum Version {
    Buggy(scheduler::Renewer),
    Fixed(fixed::Renewer),
}

impl Renewer {
    /// Starts a renewer whose thread is named `name` (the name a [`Pause`]
    /// holds it by), and which calls `renew` on that thread at once, then
    /// `every` after each renewal ends.
    ///
    /// # Errors
    /// If the thread cannot be started (or `name` contains a NUL byte).
    pub fn new(
        name: &str,
        every: Duration,
        renew: impl FnMut() + Send + 'static,
    ) -> io::Result<Renewer> {
        Ok(Renewer(match side() {
            Side::Buggy => Version::Buggy(scheduler::Renewer::new(name, every, renew)?),
            Side::Fixed => Version::Fixed(fixed::Renewer::new(name, every, renew)?),
        }))
    }

    /// Stops renewing: no renewal starts after this returns (one already
    /// running finishes), and the thread ends. Returns at once; later calls
    /// do nothing.
    pub fn stop(&self) {
        calling("stop");
        match &self.0 {
            Version::Buggy(r) => r.stop(),
            Version::Fixed(r) => r.stop(),
        }
    }
}

// ANCHOR: scheduler
/// The renewer as it was written.
mod scheduler {
    use std::io;
    use std::sync::Arc;
    use std::thread::{self, JoinHandle};
    use std::time::{Duration, Instant};

    use interrupt_cancel::interrupt::{InterruptHandle, InterruptToken, Wake};
    use parking_lot::{Condvar, Mutex};

    use super::{ASKED_AT, PLANNED_AT, RENEWED_AT};

    struct Shared {
        /// When the next renewal is due (`None`: never, `every` overflows).
        next: Mutex<Option<Instant>>,
        changed: Condvar,
        every: Duration,
    }

    /// How an interrupt wakes the thread from its wait.
    impl Wake for Shared {
        fn wake(&self) {
            self.changed.notify_all();
        }
    }

    pub struct Renewer {
        interrupt: InterruptHandle,
        thread: Option<JoinHandle<()>>,
    }

    impl Renewer {
        pub fn new(
            name: &str,
            every: Duration,
            renew: impl FnMut() + Send + 'static,
        ) -> io::Result<Renewer> {
            let shared = Arc::new(Shared {
                next: Mutex::new(None),
                changed: Condvar::new(),
                every,
            });
            let token = InterruptToken::new();
            let interrupt = token.handle();
            let thread = thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || run(&shared, &token, renew))?;
            Ok(Renewer {
                interrupt,
                thread: Some(thread),
            })
        }

        pub fn stop(&self) {
            self.interrupt.interrupt();
        }
    }

    impl Drop for Renewer {
        fn drop(&mut self) {
            self.stop();
            if let Some(thread) = self.thread.take() {
                let _ = thread.join(); // a renewal that panicked ended it
            }
        }
    }

    fn run(shared: &Arc<Shared>, token: &InterruptToken, mut renew: impl FnMut()) {
        // From here on, an interrupt calls `shared.wake()`.
        let Ok(_blocked) = token.block_on(Arc::clone(shared) as Arc<dyn Wake>) else {
            return; // stopped before the first renewal
        };
        loop {
            // 1. Renew.
            renew();
            kit::pause_point(RENEWED_AT);
            // 2. Plan the next renewal.
            let mut next = shared.next.lock();
            *next = Instant::now().checked_add(shared.every);
            kit::pause_point(PLANNED_AT);
            // 3. Wait for it, asking about the interrupt before every wait.
            loop {
                if token.check().is_err() {
                    return;
                }
                kit::pause_point(ASKED_AT);
                match *next {
                    Some(at) if at <= Instant::now() => break,
                    Some(at) => {
                        shared.changed.wait_until(&mut next, at);
                    }
                    None => shared.changed.wait(&mut next),
                }
            }
        }
    }
}
// ANCHOR_END: scheduler

// ===================================================================
// Stop here: below are the mended version, the reference test and the
// wrong tests. Find the bug first.
// ===================================================================

/// The renewer mended: `wake` takes the lock the thread waits with before
/// it notifies. The thread asks about the interrupt under that lock and
/// waits without letting it go in between, so a wake that finds the lock
/// taken notifies only once the thread waits.
mod fixed {
    use std::io;
    use std::sync::Arc;
    use std::thread::{self, JoinHandle};
    use std::time::{Duration, Instant};

    use interrupt_cancel::interrupt::{InterruptHandle, InterruptToken, Wake};
    use parking_lot::{Condvar, Mutex};

    use super::{ASKED_AT, PLANNED_AT, RENEWED_AT};

    struct Shared {
        next: Mutex<Option<Instant>>,
        changed: Condvar,
        every: Duration,
    }

    impl Wake for Shared {
        fn wake(&self) {
            let _next = self.next.lock(); // the waiter's lock
            self.changed.notify_all();
        }
    }

    pub struct Renewer {
        interrupt: InterruptHandle,
        thread: Option<JoinHandle<()>>,
    }

    impl Renewer {
        pub fn new(
            name: &str,
            every: Duration,
            renew: impl FnMut() + Send + 'static,
        ) -> io::Result<Renewer> {
            let shared = Arc::new(Shared {
                next: Mutex::new(None),
                changed: Condvar::new(),
                every,
            });
            let token = InterruptToken::new();
            let interrupt = token.handle();
            let thread = thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || run(&shared, &token, renew))?;
            Ok(Renewer {
                interrupt,
                thread: Some(thread),
            })
        }

        pub fn stop(&self) {
            self.interrupt.interrupt();
        }
    }

    impl Drop for Renewer {
        fn drop(&mut self) {
            self.stop();
            if let Some(thread) = self.thread.take() {
                let _ = thread.join();
            }
        }
    }

    fn run(shared: &Arc<Shared>, token: &InterruptToken, mut renew: impl FnMut()) {
        let Ok(_blocked) = token.block_on(Arc::clone(shared) as Arc<dyn Wake>) else {
            return;
        };
        loop {
            renew();
            kit::pause_point(RENEWED_AT);
            let mut next = shared.next.lock();
            *next = Instant::now().checked_add(shared.every);
            kit::pause_point(PLANNED_AT);
            loop {
                if token.check().is_err() {
                    return;
                }
                kit::pause_point(ASKED_AT);
                match *next {
                    Some(at) if at <= Instant::now() => break,
                    Some(at) => {
                        shared.changed.wait_until(&mut next, at);
                    }
                    None => shared.changed.wait(&mut next),
                }
            }
        }
    }
}

/// What `cargo xtask exercise start f3-find` gives you.
mod skeleton {
    // The window: TODO(F3) say here where the bug's window is, and what a
    // stop that lands in it does.

    use super::Renewer;
    use kit::{Recorder, ms, threads};

    #[test]
    fn f3_lease_renewer_caught() {
        let name = threads::unique_name("find-f3");
        let rec = Recorder::new();

        // TODO(F3): the thread renews and goes round its loop as soon as it
        // starts: to hold it on that first pass, arm the pause here.

        let r = rec.clone();
        let renewer = Renewer::new(&name, ms(1000), move || {
            r.record("renewed");
        })
        .expect("start the renewer");

        // TODO(F3): once the thread is held in the window, do there what the
        // bug cannot take (from another thread, if the call may have to wait
        // for a lock the held thread has), let the thread go, and assert
        // what a renewer promises (its thread ends within 300 ms of a stop,
        // with no renewal after it), in a message that starts with "F3".
        let _ = rec.eventually("renewed", ms(100));
        drop(renewer);
    }
}

/// One test that catches it.
mod reference {
    // The window: in step 3, after the thread has asked about the interrupt
    // (and found none) and before it waits. An interrupt there is raised,
    // and its wake notifies the condition variable without taking the lock
    // the thread holds: nobody waits yet, so the notify is lost, and the
    // thread waits for its next renewal, renews once more, and only then
    // sees the interrupt.

    use std::sync::Arc;
    use std::thread;

    use super::{ASKED, Pause, Renewer};
    use kit::scale::in_ms;
    use kit::{Recorder, ms, threads};

    /// How often it renews: far enough that waiting for it is unmistakable.
    const EVERY_MS: u64 = 1000;
    /// How soon after the stop its thread must have ended.
    const MARGIN_MS: u64 = 300;
    /// How long the stopper may try to get in while the thread is held.
    const HOLD_MS: u64 = 100;

    #[test]
    fn f3_lease_renewer_caught() {
        let name = threads::unique_name("find-f3");
        let rec = Recorder::new();
        // Armed first: the thread reaches it after its first renewal.
        let pause = Pause::arm(ASKED, &name);
        let r = rec.clone();
        let renewer = Arc::new(
            Renewer::new(&name, ms(EVERY_MS), move || {
                r.record("renewed");
            })
            .expect("start the renewer"),
        );
        pause.wait_reached();

        // The stop, from another thread: where `wake` takes the lock the
        // held thread has, it waits for the release.
        let stopper = {
            let (renewer, rec) = (Arc::clone(&renewer), rec.clone());
            thread::spawn(move || {
                rec.record("stop called");
                renewer.stop();
                rec.record("stop returned");
            })
        };
        let _ = rec.eventually("stop returned", ms(HOLD_MS));
        pause.release();
        stopper.join().expect("the stopper thread");
        let stopped = rec.at("stop called").expect("recorded by the stopper");

        // Not by dropping it: a drop stops it again, and would wake it.
        let gone = threads::gone_within(
            &name,
            (stopped + ms(MARGIN_MS)).saturating_sub(rec.elapsed()),
        );
        let looked = rec.record("looked for the thread");
        assert!(
            gone,
            "F3 lease renewer: stopped at {} ms, and at {} ms its thread was still there, \
             waiting for its next renewal (one is due every {EVERY_MS} ms): the stop woke \
             nobody\n{}",
            in_ms(stopped),
            in_ms(looked),
            rec.log()
        );
        drop(renewer);
    }
}

/// Wrong: it sleeps and hopes. No pause point: it lets the renewer renew,
/// sleeps a moment so that the thread is "surely" between its question and
/// its wait, and stops it. The gap is a few instructions wide.
mod wrong_sleeps_and_hopes {
    // verdict: never-held

    use super::Renewer;
    use kit::{Recorder, ms, threads};
    use std::time::Duration;

    #[test]
    fn f3_lease_renewer_caught() {
        let name = threads::unique_name("find-f3");
        let rec = Recorder::new();
        let r = rec.clone();
        let renewer = Renewer::new(&name, ms(1000), move || {
            r.record("renewed");
        })
        .expect("start the renewer");
        let _ = rec.eventually("renewed", ms(100));
        std::thread::sleep(Duration::from_micros(50));
        renewer.stop();
        assert!(
            threads::gone_within(&name, ms(300)),
            "F3 lease renewer: the thread did not end after a stop"
        );
    }
}

/// Wrong: it fails always. It forces the window well, then asserts more
/// than a renewer can do: that its thread has ended by the time the stopper
/// has called `stop`, though the thread is held in the window then.
mod wrong_fails_always {
    // verdict: fails-on-fixed

    use std::sync::Arc;
    use std::thread;

    use super::{ASKED, Pause, Renewer};
    use kit::{Recorder, ms, threads};

    #[test]
    fn f3_lease_renewer_caught() {
        let name = threads::unique_name("find-f3");
        let rec = Recorder::new();
        let pause = Pause::arm(ASKED, &name);
        let r = rec.clone();
        let renewer = Arc::new(
            Renewer::new(&name, ms(1000), move || {
                r.record("renewed");
            })
            .expect("start the renewer"),
        );
        pause.wait_reached();
        let stopper = {
            let (renewer, rec) = (Arc::clone(&renewer), rec.clone());
            thread::spawn(move || {
                rec.record("stop called");
                renewer.stop();
            })
        };
        let stopped = rec
            .eventually("stop called", ms(100))
            .expect("the stopper runs");
        std::thread::sleep(ms(100));
        pause.release();
        stopper.join().expect("the stopper thread");
        drop(renewer);
        let ended = rec.record("the thread ended");
        assert!(
            ended <= stopped + ms(1),
            "F3 lease renewer: stopped at {stopped:?}, the thread ended at {ended:?}"
        );
    }
}

/// Wrong: it asserts nothing. It forces the window well, stops, waits for
/// the thread, and never says what it expected.
mod wrong_asserts_nothing {
    // verdict: misses-the-bug

    use std::sync::Arc;
    use std::thread;

    use super::{ASKED, Pause, Renewer};
    use kit::{Recorder, ms, threads};

    #[test]
    fn f3_lease_renewer_caught() {
        let name = threads::unique_name("find-f3");
        let rec = Recorder::new();
        let pause = Pause::arm(ASKED, &name);
        let r = rec.clone();
        let renewer = Arc::new(
            Renewer::new(&name, ms(1000), move || {
                r.record("renewed");
            })
            .expect("start the renewer"),
        );
        pause.wait_reached();
        let stopper = {
            let renewer = Arc::clone(&renewer);
            thread::spawn(move || renewer.stop())
        };
        std::thread::sleep(ms(100));
        pause.release();
        stopper.join().expect("the stopper thread");
        drop(renewer);
        println!(
            "{} renewals, ended at {:?}",
            rec.count("renewed"),
            rec.elapsed()
        );
    }
}

/// Wrong: it catches another bug. It holds the thread, but what it asserts
/// is that a renewal that panics leaves the renewer renewing: it ends the
/// thread, in both versions (I6's bug, which *A timer you can interrupt*
/// cures for its timer).
mod wrong_other_bug {
    // verdict: fails-on-fixed

    use super::{Pause, RENEWED, Renewer};
    use kit::{Recorder, ms, threads};

    #[test]
    fn f3_lease_renewer_caught() {
        let name = threads::unique_name("find-f3");
        let rec = Recorder::new();
        let pause = Pause::arm(RENEWED, &name);
        let r = rec.clone();
        let renewer = Renewer::new(&name, ms(50), move || {
            r.record("renewed");
            if r.count("renewed") == 2 {
                panic!("the second renewal panics, on purpose");
            }
        })
        .expect("start the renewer");
        pause.wait_reached();
        pause.release();
        assert!(
            rec.wait_until_count("renewed", 3, ms(400)).is_some(),
            "F3 lease renewer: no third renewal after a renewal panicked"
        );
        drop(renewer);
    }
}

/// Wrong: it holds the thread at the wrong point. It stops while the thread
/// is held right after its plan, before it asks: there the interrupt is
/// raised before the question, and the thread sees it. It passes on both
/// versions.
mod wrong_point {
    // verdict: misses-the-bug

    use std::sync::Arc;
    use std::thread;

    use super::{PLANNED, Pause, Renewer};
    use kit::{Recorder, ms, threads};

    #[test]
    fn f3_lease_renewer_caught() {
        let name = threads::unique_name("find-f3");
        let rec = Recorder::new();
        let pause = Pause::arm(PLANNED, &name);
        let r = rec.clone();
        let renewer = Arc::new(
            Renewer::new(&name, ms(1000), move || {
                r.record("renewed");
            })
            .expect("start the renewer"),
        );
        pause.wait_reached();
        let stopper = {
            let (renewer, rec) = (Arc::clone(&renewer), rec.clone());
            thread::spawn(move || {
                rec.record("stop called");
                renewer.stop();
            })
        };
        let _ = rec.eventually("stop called", ms(100));
        std::thread::sleep(ms(20));
        pause.release();
        stopper.join().expect("the stopper thread");
        let stopped = rec.at("stop called").expect("recorded");
        let gone = threads::gone_within(&name, (stopped + ms(300)).saturating_sub(rec.elapsed()));
        assert!(
            gone,
            "F3 lease renewer: stopped at {stopped:?}, its thread still there 300 ms later"
        );
        drop(renewer);
    }
}
