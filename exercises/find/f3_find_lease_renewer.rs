//! Find it, F3: a lease renewer.
//!
//! A lease renewer keeps a lease alive: it renews it at once, and then
//! again every `every`, counted from the end of the last renewal, on its
//! own thread, until it is stopped. `stop` returns at once; from then on no
//! renewal starts (one already running finishes), and the thread ends soon.
//! A renewal after `stop` would keep a lease its owner has given up.
//!
//! It is stopped the way *A timer you can interrupt* stops its timer: with
//! that chapter's interrupt (`interrupt_cancel::interrupt`). The thread
//! registers how to wake it from its wait (`block_on`), and asks about the
//! interrupt before every wait.
//!
//! It has one bug, of a kind the book has taught. Find it, and write the
//! test that catches it: `cargo xtask exercise start f3-find`. Your test
//! uses this module's public items (`use exercises::find::f3::{Renewer,
//! Pause, RENEWED, ...}`). Behind [`Renewer`] runs one of several renewers:
//! the one in this file, as it was written, and others, correct ones built
//! in different ways and ones with other bugs. Your test cannot tell which
//! it got except by what it does, and the check runs it against each: it
//! must fail on this one, and pass on every correct one.
//!
//! The pause points, one per step of the thread's loop (each is a
//! `kit::pause_point` call in the scheduler: read where it sits). Every
//! version has them, at the same steps:
//!
//! - [`RENEWED`]: step 1 done, it has renewed;
//! - [`PLANNED`]: step 2 done, it has planned the next renewal;
//! - [`ASKED`]: in step 3, it has asked about the interrupt, before a wait.

use std::io;
use std::time::Duration;

use super::f3_versions::{Imp, Version};
pub use crate::catch::{Pause, Point};

/// Where step 1 ends, in every version.
pub(crate) const RENEWED_AT: &str = "f3 lease renewer: step 1, renewed";
/// Where step 2 ends, in every version.
pub(crate) const PLANNED_AT: &str = "f3 lease renewer: step 2, planned";
/// Where step 3 has asked, in every version.
pub(crate) const ASKED_AT: &str = "f3 lease renewer: step 3, asked";

/// The thread has renewed (step 1).
pub const RENEWED: Point = Point::new("RENEWED", RENEWED_AT);
/// The thread has planned the next renewal (step 2).
pub const PLANNED: Point = Point::new("PLANNED", PLANNED_AT);
/// The thread has asked about the interrupt, before a wait (step 3).
pub const ASKED: Point = Point::new("ASKED", ASKED_AT);

/// A lease renewer with its own thread. Dropping it stops it and waits for
/// its thread.
// Boxed: one size, whichever version runs.
pub struct Renewer(Box<Imp>);

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
        let imp = <Imp as Version>::start(name, every, Box::new(renew))?;
        Ok(Renewer(Box::new(imp)))
    }

    /// Stops renewing: no renewal starts after this returns (one already
    /// running finishes), and the thread ends. Returns at once; later calls
    /// do nothing.
    pub fn stop(&self) {
        crate::catch::calling("stop");
        Version::stop(&*self.0);
    }
}

// ANCHOR: scheduler
/// The renewer as it was written.
pub(crate) mod scheduler {
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

    /// The renewer: its interrupt, and its thread.
    pub struct Renewer {
        interrupt: InterruptHandle,
        thread: Option<JoinHandle<()>>,
    }

    impl Renewer {
        /// Starts the thread, named `name`.
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

        /// Raises the thread's interrupt.
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
