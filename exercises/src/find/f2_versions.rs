//! F2's versions: every debouncer that can run behind
//! `exercises::find::f2`'s API, and the one this build wraps ([`Imp`]).
//!
//! Most are the debouncer as written (`exercises/find/f2_find_debouncer.rs`):
//! its state, its semaphore, its `poke` (a permit only while the thread
//! sleeps), its drop, with its thread running a loop of its own (see
//! [`start`]). The others, in [`condvar`], wait on a condition variable
//! instead. Each passes the same pause points after the same steps:
//!
//! - correct ones: [`mended`] says it sleeps under the lock it looks
//!   under; [`recheck`] keeps the steps as written, and looks again if a
//!   poke came between its look and its sleep; [`condvar`]'s one-lock
//!   debouncer holds one lock from its look into its wait (a poke made
//!   while its thread is held at `AFTER_LOOK` or `BEFORE_WAIT` waits for
//!   the release), and is notified at every poke;
//! - the scheduler as written, with its bug (F2);
//! - ones with other bugs of the book: [`condvar`]'s racy debouncer lets
//!   go of its lock between its look and its wait, so a notify in between
//!   reaches nobody (C1), and [`sleeps`] sleeps out a quiet time it has
//!   begun, deaf to a drop's stop until it is over (P2).

use std::io;
use std::time::Duration;

use super::f2::scheduler::{self, Action, Shared};

mod condvar;
mod mended;
mod recheck;
mod sleeps;

crate::catch::select!(pub(crate) f2:
    "mended" => Looped<MENDED>,
    "recheck" => Looped<RECHECK>,
    "one_lock" => Looped<ONE_LOCK>,
    "as_written" => Looped<AS_WRITTEN>,
    "lost_notify" => Looped<LOST_NOTIFY>,
    "sleeps" => Looped<SLEEPS>,
);

/// What the API needs of a version.
pub(crate) trait Version: Sized {
    /// Starts it, its thread named `name`, running `action` once it has
    /// been quiet for `quiet`.
    fn start(name: &str, quiet: Duration, action: Action) -> io::Result<Self>;
    /// Starts the quiet time again.
    fn poke(&self);
}

/// The debouncer numbered `L` (see [`start`]).
pub(crate) struct Looped<const L: u8>(Handle);

/// A running debouncer, of either build.
enum Handle {
    /// The debouncer as written, its thread running its own loop or
    /// another's.
    Semaphore(scheduler::Debouncer),
    /// One on a condition variable.
    Condvar(condvar::Debouncer),
}

impl<const L: u8> Version for Looped<L> {
    fn start(name: &str, quiet: Duration, action: Action) -> io::Result<Self> {
        Ok(Looped(start(name, quiet, action, L)?))
    }
    fn poke(&self) {
        match &self.0 {
            Handle::Semaphore(d) => d.poke(),
            Handle::Condvar(d) => d.poke(),
        }
    }
}

const AS_WRITTEN: u8 = 0;
const MENDED: u8 = 1;
const RECHECK: u8 = 2;
const ONE_LOCK: u8 = 3;
const LOST_NOTIFY: u8 = 4;
const SLEEPS: u8 = 5;

/// Starts the debouncer numbered `l`, its thread named `name`. Every build
/// names every version here, and so compiles them all, whichever one it
/// runs.
fn start(name: &str, quiet: Duration, action: Action, l: u8) -> io::Result<Handle> {
    let body: fn(&Shared, &mut dyn FnMut()) = match l {
        AS_WRITTEN => return scheduler::Debouncer::new(name, quiet, action).map(Handle::Semaphore),
        ONE_LOCK => {
            return condvar::Debouncer::start(name, quiet, action, condvar::one_lock)
                .map(Handle::Condvar);
        }
        LOST_NOTIFY => {
            return condvar::Debouncer::start(name, quiet, action, condvar::lost_notify)
                .map(Handle::Condvar);
        }
        MENDED => mended::run,
        RECHECK => recheck::run,
        SLEEPS => sleeps::run,
        _ => unreachable!("F2 has no version numbered {l}"),
    };
    scheduler::Debouncer::start(name, quiet, action, body).map(Handle::Semaphore)
}
