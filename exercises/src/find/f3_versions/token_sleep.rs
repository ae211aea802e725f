//! A renewer that waits with the interrupt's own sleep.

use std::time::{Duration, Instant};

use interrupt_cancel::interrupt::InterruptToken;

use super::super::f3::{ASKED_AT, PLANNED_AT, RENEWED_AT};
use super::{Renew, Way};

/// Correct: the thread waits with `InterruptToken::sleep`, which asks about
/// the interrupt again under the token's own lock, the one the interrupt
/// is raised under: no stop can slip between that question and its wait.
/// It registers no waker (the sleep needs none) and holds no lock of its
/// own at `ASKED`, so a stop made there returns at once.
pub(in super::super) struct TokenSleep;

impl Way for TokenSleep {
    fn run(token: &InterruptToken, every: Duration, mut renew: Renew) {
        if token.check().is_err() {
            return; // stopped before the first renewal
        }
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
                // `Duration::MAX`: a sleep with no end, for a plan that
                // overflows the clock.
                let left = next.map_or(Duration::MAX, |at| {
                    at.saturating_duration_since(Instant::now())
                });
                if left.is_zero() {
                    break;
                }
                if token.sleep(left).is_err() {
                    return;
                }
            }
        }
    }
}
