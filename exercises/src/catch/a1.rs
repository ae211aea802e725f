//! Catch it, A1 `lost_waker`: a timer for futures whose `Sleep` can lose
//! the waker of the task that polls it just as the driver fires it.
//!
//! One of two versions runs behind this API, and your test cannot tell which
//! except by what the timer does:
//!
//! - the buggy one, `racy_poll.rs` of *A timer for futures*: a poll looks
//!   at the entry ("fired?") under the entry's lock, lets go, and only then
//!   stores its waker. If the driver fires the entry in between, it finds
//!   no waker and wakes nobody, and the waker stored after it is never
//!   called;
//! - the fixed one, the chapter's `entry.rs`: the look and the store are
//!   one hold of the entry's lock, the lock the driver fires under.
//!
//! The driver runs on a manual clock: time stands still until your test
//! calls [`Timer::advance`], and a `Sleep` is due only once the clock has
//! passed its deadline. Write a test that fails on the first version every
//! time, naming A1, and passes on the second every time.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll, Wake, Waker};
use std::time::{Duration, Instant};

use async_timer::{Driver, ManualClock, POLL_WINDOW, Variant, racy_poll};

use super::{Side, side};

pub use super::{Pause, Point};
pub use async_timer::{Sleep, StartError, TimerError};

/// The race window: a poll has looked at the `Sleep`'s entry and found it
/// waiting, and has not stored its task's waker yet. The thread held here
/// is the one that polls: name it, and arm the pause with that name.
///
/// In one of the versions the poll holds the entry's lock here, and the
/// driver cannot fire the entry until you release it. Held once per arm;
/// later polls go through.
pub const WINDOW: Point = Point::new(
    "WINDOW (a1: looked at the entry, the waker not yet stored)",
    racy_poll::WINDOW,
    POLL_WINDOW,
);

/// The length of one tick of the driver: deadlines are rounded up to it.
pub fn tick() -> Duration {
    Duration::from_millis(1)
}

/// A timer for futures: a driver thread that fires each [`Sleep`] once its
/// deadline has passed on the manual clock, and wakes the task that polled
/// it last. Dropping it shuts the driver down and waits for its thread.
pub struct Timer {
    driver: Driver,
    clock: ManualClock,
}

impl Timer {
    /// Starts a driver whose thread is named `name`, on a manual clock at
    /// zero.
    ///
    /// # Errors
    /// If the thread cannot be started (a name with a NUL byte in it).
    pub fn new(name: &str) -> Result<Timer, StartError> {
        let variant = match side() {
            Side::Buggy => Variant::RacyPoll,
            Side::Fixed => Variant::Fixed,
        };
        let driver = Driver::builder(name)
            .variant(variant)
            .manual_clock()
            .start()?;
        let clock = driver.manual_clock().expect("built with a manual clock");
        Ok(Timer { driver, clock })
    }

    /// A `Sleep` due `delay` from the clock's time now. Poll it with
    /// [`poll_once`].
    pub fn sleep(&self, delay: Duration) -> Sleep {
        super::calling("sleep");
        self.driver.handle().sleep(delay)
    }

    /// Moves the clock forward by `by`. Returns at once: the driver fires
    /// what came due on its own thread, a moment later.
    pub fn advance(&self, by: Duration) {
        super::calling("advance");
        self.clock.advance(by);
    }

    /// The clock's time now.
    pub fn now(&self) -> Instant {
        self.clock.now()
    }

    /// How many entries the driver has fired, counted once it has woken
    /// their wakers (if they had one).
    pub fn fired(&self) -> u64 {
        super::calling("fired");
        self.driver.handle().stats().fired
    }

    /// How many entries wait in the driver's wheel.
    pub fn pending(&self) -> usize {
        super::calling("pending");
        self.driver.handle().stats().pending
    }
}

/// A task, as far as a timer can see one: a waker, which counts how many
/// times it has been woken.
#[derive(Clone, Default)]
pub struct Task {
    woken: Arc<Woken>,
}

#[derive(Default)]
struct Woken(AtomicUsize);

impl Wake for Woken {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

impl Task {
    /// A task not woken yet.
    pub fn new() -> Task {
        Task::default()
    }

    /// Its waker: what a poll by this task leaves for the driver.
    pub fn waker(&self) -> Waker {
        Waker::from(Arc::clone(&self.woken))
    }

    /// How many times it has been woken so far.
    pub fn woken(&self) -> usize {
        self.woken.0.load(Ordering::SeqCst)
    }

    /// Waits at most `within` for the task to be woken; whether it was.
    pub fn woken_within(&self, within: Duration) -> bool {
        kit::eventually(within, || self.woken() > 0)
    }
}

/// Polls `sleep` once, as `task` would: `Ready` once it has fired (or
/// failed), otherwise `Pending`, with the task's waker left for the
/// driver.
pub fn poll_once(sleep: &mut Sleep, task: &Task) -> Poll<Result<(), TimerError>> {
    let waker = task.waker();
    std::pin::Pin::new(sleep).poll(&mut Context::from_waker(&waker))
}
