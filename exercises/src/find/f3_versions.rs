//! F3's versions: every renewer that can run behind
//! [`f3::Renewer`](super::f3::Renewer) but the one the student reads (the
//! scheduler as written, in `exercises/find/f3_find_lease_renewer.rs`).
//!
//! Correct ones, each stopped without fail in its own way:
//!
//! - `mended`: the scheduler as written, whose `wake` takes the lock the
//!   thread asks and waits under ([`condvar`]). The thread holds that lock
//!   at `ASKED`: a `stop` made while it is held there waits for it.
//! - `token_sleep`: the thread waits with the interrupt's own sleep,
//!   `InterruptToken::sleep`, which asks again under the token's lock
//!   ([`token_sleep`]). No lock of the renewer's is held at `ASKED`, and a
//!   `stop` returns at once.
//! - `park`: the thread parks, and its waker unparks it ([`park`]): a
//!   wake-up before the park is kept as the thread's token, and `park` may
//!   also return for no reason at all (the loop asks again). No lock held.
//!
//! Buggy ones:
//!
//! - `as_written` (F3): `wake` notifies without the lock; the notify of a
//!   stop between the question and the wait reaches nobody.
//! - `asks_unlocked` (P3, a second form): `wake` takes the lock, but the
//!   thread asks about the interrupt with the lock let go, and takes it
//!   back only to wait ([`condvar`]).
//! - `no_waker` (P2): the thread registers no waker at all; a stop is seen
//!   only when the wait for the next renewal ends ([`condvar`]).
//!
//! Every version passes `RENEWED`, `PLANNED` and `ASKED` at the same steps
//! of its loop, and names no thread but the renewer's.

mod condvar;
mod park;
mod token_sleep;

use std::io;
use std::marker::PhantomData;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use interrupt_cancel::interrupt::{InterruptHandle, InterruptToken};

use super::f3::scheduler;

/// What a renewal does: the one type every version takes.
pub(super) type Renew = Box<dyn FnMut() + Send>;

/// What every version behind the API does.
pub(super) trait Version: Sized {
    /// Starts it, its thread named `name`: it renews at once, then `every`
    /// after each renewal ends.
    fn start(name: &str, every: Duration, renew: Renew) -> io::Result<Self>;
    /// Raises its interrupt: no renewal starts after this.
    fn stop(&self);
}

impl Version for scheduler::Renewer {
    fn start(name: &str, every: Duration, renew: Renew) -> io::Result<Self> {
        Self::new(name, every, renew)
    }
    fn stop(&self) {
        self.stop();
    }
}

crate::catch::select!(pub(super) f3:
    "mended" => Renewer<condvar::Mended>,
    "token_sleep" => Renewer<token_sleep::TokenSleep>,
    "park" => Renewer<park::Park>,
    "as_written" => scheduler::Renewer,
    "asks_unlocked" => Renewer<condvar::AsksUnlocked>,
    "no_waker" => Renewer<condvar::NoWaker>,
);

/// Every version is compiled into every build, and `Imp` is one of them.
/// Named here, the others do not count as dead code; and each must be
/// `Send`, `Sync` and `Unpin`, so that no build differs in what a test may
/// do with a `Renewer` (share it, move it to another thread). None is
/// unwind-safe: each holds a thread's handle.
const _: [Start; 6] = [
    start::<Renewer<condvar::Mended>>,
    start::<Renewer<token_sleep::TokenSleep>>,
    start::<Renewer<park::Park>>,
    start::<scheduler::Renewer>,
    start::<Renewer<condvar::AsksUnlocked>>,
    start::<Renewer<condvar::NoWaker>>,
];

/// What [`start`] is, for each version.
type Start = fn(&str, Duration, Renew) -> io::Result<()>;

/// Starts a `V` and drops it at once.
fn start<V>(name: &str, every: Duration, renew: Renew) -> io::Result<()>
where
    V: Version + Send + Sync + Unpin,
{
    V::start(name, every, renew).map(drop)
}

/// How a version's thread renews and waits: all that differs between the
/// versions here.
trait Way {
    /// The thread's loop: renew, plan, wait (asking about the interrupt
    /// before every wait), until it sees the interrupt.
    fn run(token: &InterruptToken, every: Duration, renew: Renew);
}

/// A renewer whose thread runs `W`'s loop: what the scheduler as written
/// has around its loop (an interrupt, a thread, a drop that stops and
/// joins), once for every version here.
pub(super) struct Renewer<W> {
    interrupt: InterruptHandle,
    thread: Option<JoinHandle<()>>,
    way: PhantomData<fn() -> W>,
}

impl<W: Way> Version for Renewer<W> {
    fn start(name: &str, every: Duration, renew: Renew) -> io::Result<Self> {
        let token = InterruptToken::new();
        let interrupt = token.handle();
        let thread = thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || W::run(&token, every, renew))?;
        Ok(Renewer {
            interrupt,
            thread: Some(thread),
            way: PhantomData,
        })
    }

    fn stop(&self) {
        self.interrupt.interrupt();
    }
}

impl<W> Drop for Renewer<W> {
    fn drop(&mut self) {
        self.interrupt.interrupt();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join(); // a renewal that panicked ended it
        }
    }
}
