//! The renewers that wait on a condition variable, as the scheduler as
//! written does: the mended one and two buggy ones, which differ from it in
//! one place each.

use std::sync::Arc;
use std::time::{Duration, Instant};

use interrupt_cancel::interrupt::{InterruptToken, Wake};
use parking_lot::{Condvar, Mutex, MutexGuard};

use super::super::f3::{ASKED_AT, PLANNED_AT, RENEWED_AT};
use super::{Renew, Way};

/// Mended: `wake` takes the lock the thread asks and waits under before it
/// notifies. Either the question comes after the interrupt (and sees it),
/// or the thread already waits when the notify comes.
pub(in super::super) struct Mended;
/// P3, a second form of F3: `wake` takes the lock, but the thread asks
/// about the interrupt with the lock let go. A stop between the question
/// and the wait notifies nobody.
pub(in super::super) struct AsksUnlocked;
/// P2: the thread registers no waker. A stop is seen only when the wait for
/// the next renewal ends.
pub(in super::super) struct NoWaker;

/// Where the versions here differ.
trait Choices {
    /// Whether the thread registers its waker with the interrupt.
    const REGISTERS: bool;
    /// Whether it asks about the interrupt under the lock it waits with.
    const ASKS_LOCKED: bool;
}

impl Choices for Mended {
    const REGISTERS: bool = true;
    const ASKS_LOCKED: bool = true;
}

impl Choices for AsksUnlocked {
    const REGISTERS: bool = true;
    const ASKS_LOCKED: bool = false;
}

impl Choices for NoWaker {
    const REGISTERS: bool = false;
    const ASKS_LOCKED: bool = true;
}

/// The lock the thread waits with, and what it waits on.
#[derive(Default)]
struct Waiter {
    lock: Mutex<()>,
    changed: Condvar,
}

impl Wake for Waiter {
    fn wake(&self) {
        let _held = self.lock.lock(); // the waiter's lock
        self.changed.notify_all();
    }
}

impl<C: Choices> Way for C {
    fn run(token: &InterruptToken, every: Duration, mut renew: Renew) {
        let waiter = Arc::new(Waiter::default());
        let _blocked = if C::REGISTERS {
            match token.block_on(Arc::clone(&waiter) as Arc<dyn Wake>) {
                Ok(blocked) => Some(blocked),
                Err(_) => return, // stopped before the first renewal
            }
        } else {
            None
        };
        loop {
            // 1. Renew.
            renew();
            kit::pause_point(RENEWED_AT);
            // 2. Plan the next renewal.
            let mut held = waiter.lock.lock();
            let next = Instant::now().checked_add(every);
            kit::pause_point(PLANNED_AT);
            // 3. Wait for it, asking about the interrupt before every wait.
            loop {
                let ask = || {
                    let asked = token.check();
                    if asked.is_ok() {
                        kit::pause_point(ASKED_AT);
                    }
                    asked
                };
                let asked = if C::ASKS_LOCKED {
                    ask()
                } else {
                    MutexGuard::unlocked(&mut held, ask)
                };
                if asked.is_err() {
                    return;
                }
                match next {
                    Some(at) if at <= Instant::now() => break,
                    Some(at) => {
                        waiter.changed.wait_until(&mut held, at);
                    }
                    None => waiter.changed.wait(&mut held),
                }
            }
        }
    }
}
