//! A counting semaphore built from a mutex, a condition variable and a
//! counter: the one helper the "something has changed" timer needs.
//!
//! A bare condvar forgets a notify that nobody was waiting for. That is
//! harmless when the waiter checks its condition under the condvar's own
//! mutex; racy.rs lost a wake-up (C1) because its thread checked the queue
//! under one lock and waited under another. Here the counter is the
//! condition, kept under the condvar's mutex: `notify` adds one to it before
//! it signals, and a waiter looks at the counter before it sleeps, so a
//! notify that came first is still there when the wait begins.

use std::time::Instant;

use crate::sync::{self, Condvar, Mutex};

// ANCHOR: semaphore
/// A counting semaphore: [`notify`](Semaphore::notify) adds a permit,
/// [`wait`](Semaphore::wait) takes one, sleeping while there is none.
#[derive(Debug, Default)]
pub struct Semaphore {
    count: Mutex<usize>,
    changed: Condvar,
}

impl Semaphore {
    /// A semaphore with no permits.
    pub fn new() -> Semaphore {
        Semaphore::default()
    }

    /// Adds a permit and wakes one waiter, if there is one. If there is
    /// none, the permit stays until somebody waits: this is the notify a
    /// plain condvar would lose.
    pub fn notify(&self) {
        *sync::lock(&self.count) += 1;
        self.changed.notify_one();
    }
    // ANCHOR_END: semaphore

    // ANCHOR: permit_waits
    /// Takes a permit, sleeping until there is one.
    pub fn wait(&self) {
        let mut count = sync::lock(&self.count);
        while *count == 0 {
            count = self.changed.wait(count).unwrap_or_else(|p| p.into_inner());
        }
        *count -= 1;
    }

    /// Takes a permit, sleeping until there is one or until `deadline`.
    /// Returns whether it took one (`false`: the deadline passed first).
    pub fn wait_until(&self, deadline: Instant) -> bool {
        let mut count = sync::lock(&self.count);
        // A permit already there wins, even if the deadline has passed.
        while *count == 0 {
            let left = deadline.saturating_duration_since(sync::now());
            if left.is_zero() {
                return false;
            }
            count = match self.changed.wait_timeout(count, left) {
                Ok((count, _)) => count,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
        *count -= 1;
        true
    }
}
// ANCHOR_END: permit_waits

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Instant;

    #[test]
    fn a_notify_before_the_wait_is_not_lost() {
        let semaphore = Semaphore::new();
        semaphore.notify();
        // Nobody was waiting when it came; the permit waits for us. A far
        // deadline that a lost notify would have to sit out:
        let start = Instant::now();
        assert!(semaphore.wait_until(start + kit::ms(5000)));
        assert!(start.elapsed() < kit::ms(1000), "{:?}", start.elapsed());
        // Untimed, too: one notify, one wait that returns.
        semaphore.notify();
        semaphore.wait();
    }

    #[test]
    fn each_notify_is_one_permit() {
        let semaphore = Semaphore::new();
        semaphore.notify();
        semaphore.notify();
        let now = Instant::now();
        assert!(semaphore.wait_until(now));
        assert!(semaphore.wait_until(now));
        assert!(
            !semaphore.wait_until(now),
            "two notifies gave three permits"
        );
    }

    #[test]
    fn wait_until_times_out_when_nobody_notifies() {
        let semaphore = Semaphore::new();
        let start = Instant::now();
        assert!(!semaphore.wait_until(start + kit::ms(30)));
        assert!(start.elapsed() >= kit::ms(30), "{:?}", start.elapsed());
    }

    #[test]
    fn notify_wakes_a_thread_that_is_already_waiting() {
        let semaphore = Arc::new(Semaphore::new());
        let waiter = {
            let semaphore = Arc::clone(&semaphore);
            std::thread::spawn(move || semaphore.wait_until(Instant::now() + kit::ms(5000)))
        };
        semaphore.notify();
        assert!(waiter.join().unwrap());
    }
}
