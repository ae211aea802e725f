//! Catch it, P3 `cancel_notify_race`: a timer whose `cancel` can notify
//! nobody, so that its thread waits out a far deadline before it stops.
//!
//! One of two versions runs behind this API, and your test cannot tell which
//! except by what the timer does:
//!
//! - the buggy one, fix 1 of *A timer that will not stop*
//!   (`poison-pill/src/notify_on_cancel.rs`): `cancel` sets a flag and
//!   notifies the monitor; a thread that read the flag and is not waiting
//!   yet misses the notify, and waits for its task's deadline;
//! - the fixed one, the poison pill of the same chapter
//!   (`poison-pill/src/poison_pill.rs`): `cancel` puts a pill at the head of
//!   the queue the thread does all its waiting in.
//!
//! Write a test that fails on the first every time, naming P3, and passes on
//! the second every time.

use std::io;
use std::sync::mpsc;
use std::time::Duration;

use super::{Side, side};

pub use super::{Pause, Point, ScheduleError};

/// The race window: the timer thread has taken a task that is not due yet
/// (and read the cancelled flag before that), and has not begun to wait for
/// it.
///
/// In one of the versions the thread holds the queue's lock here: a
/// `cancel` from another thread then waits until you release the thread,
/// and one from the thread that holds the pause waits forever. Held once per
/// arm; later passes go through.
pub const WINDOW: Point = Point::new(
    "WINDOW (p3: took a task not yet due, not yet waiting for it)",
    "poison-pill::notify_on_cancel: took the head, not yet waiting",
    "poison-pill::poison_pill: peeked the head, not yet waiting",
);

/// How long dropping a timer waits for its thread before it frees a thread
/// left blocked on an empty queue, as the stage's own tests do.
const RESCUE_AFTER_MS: u64 = 2000;

enum Version {
    Buggy(poison_pill::notify_on_cancel::Timer),
    Fixed(poison_pill::poison_pill::Timer),
}

/// A timer with one thread, which runs each task once its delay has passed,
/// and which `cancel` stops.
pub struct Timer {
    version: Option<Version>,
    name: String,
}

impl Timer {
    /// Starts a timer whose thread is named `name` (the name a [`Pause`]
    /// holds it by).
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be started.
    pub fn new(name: &str) -> io::Result<Timer> {
        let version = match side() {
            Side::Buggy => Version::Buggy(poison_pill::notify_on_cancel::Timer::new(name)?),
            Side::Fixed => Version::Fixed(poison_pill::poison_pill::Timer::new(name)?),
        };
        Ok(Timer {
            version: Some(version),
            name: name.to_owned(),
        })
    }

    fn version(&self) -> &Version {
        self.version.as_ref().expect("present until drop")
    }

    /// Runs `task` on the timer thread once `delay` has passed.
    ///
    /// # Errors
    /// [`ScheduleError::Cancelled`] once the timer is cancelled;
    /// [`ScheduleError::DelayOverflow`] if now + `delay` overflows the clock.
    pub fn schedule(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        super::calling("schedule");
        match self.version() {
            Version::Buggy(timer) => Ok(timer.schedule(delay, task)?),
            Version::Fixed(timer) => Ok(timer.schedule(delay, task)?),
        }
    }

    /// Asks the timer to stop: no task starts from now on (except one the
    /// thread has already taken to run), and the thread ends. Returns at
    /// once, without waiting for the thread; later calls do nothing.
    pub fn cancel(&self) {
        super::calling("cancel");
        match self.version() {
            Version::Buggy(timer) => timer.cancel(),
            Version::Fixed(timer) => timer.cancel(),
        }
    }
}

impl Drop for Timer {
    /// Cancels, then waits for the thread to end.
    ///
    /// A thread left blocked on an empty queue (where a lost cancel can
    /// leave it) is freed after `kit::ms(2000)`, with the stage's own test
    /// hook, so that no test hangs: the drop then returns late instead of
    /// never. A thread waiting for a deadline is not freed: the drop
    /// returns once it has ended.
    fn drop(&mut self) {
        let Some(Version::Buggy(timer)) = self.version.take() else {
            return; // the fixed version's own drop: cancel, then join
        };
        if std::thread::current().name() == Some(self.name.as_str()) {
            return; // dropped by a task on the timer thread: it cannot wait for itself
        }
        let rescue = timer.rescue();
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
