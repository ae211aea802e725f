//! A timer with P1 `cancel_hangs_idle`, made safe for a test to drop.
//!
//! Stage 4's flag timers (and P3's own `monitor_recheck`) join their thread
//! when dropped, and a thread that a cancel left blocked on an empty queue
//! never ends: the drop would never return, and the test would hang. Each
//! of them has a test hook, `rescue`, that frees such a thread (it puts a
//! no-op task, due now, into the queue). [`Rescued`] drops the timer on a
//! helper thread and uses the hook if the drop has not returned after a
//! while, as the stage's own tests do: the drop then returns late instead
//! of never. A thread waiting for a deadline is never freed: the drop
//! returns once that thread has ended.
//!
//! Used by the catch-its whose chaffs include those timers, P3's and I6's.

use std::sync::mpsc;

/// How long dropping a timer waits for its thread before it frees a thread
/// left blocked on an empty queue, as the stage's own tests do.
const RESCUE_AFTER_MS: u64 = 2000;

/// A timer whose thread a test can free from an empty queue.
pub(in crate::catch) trait Rescue: Send + 'static {
    /// A function that frees the thread if it is blocked on an empty
    /// queue, and does nothing else that matters.
    fn rescuer(&self) -> Box<dyn Fn() + Send>;
}

impl Rescue for poison_pill::cancel_flag::Timer {
    fn rescuer(&self) -> Box<dyn Fn() + Send> {
        Box::new(self.rescue())
    }
}

impl Rescue for poison_pill::notify_on_cancel::Timer {
    fn rescuer(&self) -> Box<dyn Fn() + Send> {
        Box::new(self.rescue())
    }
}

/// A timer, and what its drop needs to free its thread; see the module
/// docs.
pub(in crate::catch) struct Rescued<T: Rescue> {
    /// Present until drop.
    timer: Option<T>,
    /// Its thread's name: a drop on that thread cannot wait for it.
    name: String,
}

impl<T: Rescue> Rescued<T> {
    /// `timer`, whose thread is named `name`.
    pub(in crate::catch) fn new(timer: T, name: &str) -> Rescued<T> {
        Rescued {
            timer: Some(timer),
            name: name.to_owned(),
        }
    }

    /// The timer.
    pub(in crate::catch) fn get(&self) -> &T {
        self.timer.as_ref().expect("present until drop")
    }
}

impl<T: Rescue> Drop for Rescued<T> {
    /// Drops the timer (its own drop cancels it and waits for its thread),
    /// freeing a thread left blocked on an empty queue after
    /// `kit::ms(2000)`.
    fn drop(&mut self) {
        let Some(timer) = self.timer.take() else {
            return;
        };
        if std::thread::current().name() == Some(self.name.as_str()) {
            // Dropped by a task on the timer thread: the timer's own drop
            // only cancels there, it cannot wait for itself.
            drop(timer);
            return;
        }
        let rescue = timer.rescuer();
        let (ended, done) = mpsc::channel::<()>();
        let joiner = std::thread::spawn(move || {
            drop(timer);
            let _ = ended.send(());
        });
        if done.recv_timeout(kit::ms(RESCUE_AFTER_MS)).is_err() {
            rescue();
        }
        let _ = joiner.join();
    }
}
