//! A renewer that parks its thread.

use std::sync::Arc;
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use interrupt_cancel::interrupt::{InterruptToken, Wake};

use super::super::f3::{ASKED_AT, PLANNED_AT, RENEWED_AT};
use super::{Renew, Way};

/// Correct: the thread parks, and its waker unparks it. An unpark that
/// comes before the park is not lost: it leaves the thread a token, and the
/// next park returns at once. `park` may also return for no reason at all,
/// so the loop asks again after every wake-up, as it does anyway. No lock
/// is held anywhere in the loop. (The pause points hold a thread with
/// `parking_lot`, whose waits neither take nor leave that token.)
pub(in super::super) struct Park;

/// Wakes the renewer's thread.
struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(&self) {
        self.0.unpark();
    }
}

impl Way for Park {
    fn run(token: &InterruptToken, every: Duration, mut renew: Renew) {
        let waker = Arc::new(Unpark(thread::current()));
        let Ok(_blocked) = token.block_on(waker) else {
            return; // stopped before the first renewal
        };
        loop {
            // 1. Renew.
            renew();
            kit::pause_point(RENEWED_AT);
            // 2. Plan the next renewal.
            let next = Instant::now().checked_add(every);
            kit::pause_point(PLANNED_AT);
            // 3. Wait for it, asking about the interrupt before every wait.
            loop {
                if token.check().is_err() {
                    return;
                }
                kit::pause_point(ASKED_AT);
                let now = Instant::now();
                match next {
                    Some(at) if at <= now => break,
                    Some(at) => thread::park_timeout(at - now),
                    None => thread::park(),
                }
            }
        }
    }
}
