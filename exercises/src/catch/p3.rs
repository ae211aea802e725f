//! Catch it, P3 `cancel_notify_race`: a timer whose `cancel` can notify
//! nobody, so that its thread waits out a far deadline before it stops.
//!
//! Behind this API runs one of several timers, and your test cannot tell
//! which except by what the timer does. Among them:
//!
//! - fix 1 of *A timer that will not stop*
//!   (`poison-pill/src/notify_on_cancel.rs`): `cancel` sets a flag and
//!   notifies the monitor; a thread that read the flag and is not waiting
//!   yet misses the notify, and waits for its task's deadline;
//! - correct timers that stop at once, built in different ways: a poison
//!   pill in the queue the thread does all its waiting in, java.util.Timer's
//!   one lock over the queue and the flag, a channel whose disconnect wakes
//!   the thread, an interrupt that wakes a queue. In some of them the
//!   thread holds a lock in the window, in others it holds none;
//! - timers with other bugs of the same chapter.
//!
//! Write a test that fails on fix 1 every time, naming P3, and passes on
//! every correct one every time.

// Each build wraps one version; in the others these are compiled, unused.
// I6's catch-it wraps stage 4's flag timers too.
#[allow(dead_code)]
pub(super) mod rescued;
#[allow(dead_code)]
mod two_conditions;

use std::io;
use std::time::Duration;

use rescued::Rescued;

pub use super::{Pause, Point, ScheduleError};

/// A task, boxed: the one type every version takes.
type Task = Box<dyn FnOnce() + Send>;

/// What every version behind this API does.
trait Version: Sized {
    /// Its `kit::pause_point` where it has taken (or looked at) a task that
    /// is not due yet, after whatever tells it of a cancel, and has not
    /// begun to wait for the task.
    const WINDOW: &'static str;
    /// Starts it, its thread named `name`.
    fn start(name: &str) -> io::Result<Self>;
    /// Runs `task` on its thread once `delay` has passed.
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError>;
    /// Asks it to stop.
    fn cancel(&self);
}

/// The fixed version of the chapter (P4): a pill that sorts first, in a
/// queue whose lock the thread holds in the window.
impl Version for poison_pill::poison_pill::Timer {
    const WINDOW: &'static str = "poison-pill::poison_pill: peeked the head, not yet waiting";
    fn start(name: &str) -> io::Result<Self> {
        Self::new(name)
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        Ok(self.schedule(delay, task)?)
    }
    fn cancel(&self) {
        self.cancel();
    }
}

/// java.util.Timer's way (P5): one lock over the queue, the flag and the
/// wait; held in the window.
impl Version for poison_pill::timer_style::Timer {
    const WINDOW: &'static str = "poison-pill::timer_style: peeked the head, not yet waiting";
    fn start(name: &str) -> io::Result<Self> {
        Self::new(name)
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        Ok(self.schedule(delay, task)?)
    }
    fn cancel(&self) {
        self.cancel();
    }
}

/// The pill the type system delivers: the thread holds no lock of ours in
/// the window, and a cancel there returns at once.
impl Version for poison_pill::disconnect::Timer {
    const WINDOW: &'static str = "poison-pill::disconnect: drained the channel, about to wait";
    fn start(name: &str) -> io::Result<Self> {
        Self::new(name)
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        Ok(self.schedule(delay, task)?)
    }
    fn cancel(&self) {
        self.cancel();
    }
}

/// Stage 5's timer that closes its queue (I6's first fix): `cancel` closes
/// the queue and interrupts the thread, and the interrupt's waker notifies
/// every waiter under the queue's lock, which the thread holds in the
/// window.
impl Version for interrupt_cancel::refuses_when_dead::Timer {
    const WINDOW: &'static str =
        "interrupt-cancel::interruptible_queue: head not due, not yet waiting";
    fn start(name: &str) -> io::Result<Self> {
        Self::new(name)
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        self.schedule(delay, task).map_err(from_stage5)
    }
    fn cancel(&self) {
        self.cancel();
    }
}

/// Fix 1, with P3 (and P1): the flag is read before the task is taken, and
/// the notify reaches only a thread already waiting.
impl Version for Rescued<poison_pill::notify_on_cancel::Timer> {
    const WINDOW: &'static str = "poison-pill::notify_on_cancel: took the head, not yet waiting";
    fn start(name: &str) -> io::Result<Self> {
        Ok(Rescued::new(
            poison_pill::notify_on_cancel::Timer::new(name)?,
            name,
        ))
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        Ok(self.get().schedule(delay, task)?)
    }
    fn cancel(&self) {
        self.get().cancel();
    }
}

/// The first try, with P2 (and P1): a flag, and no notify at all.
impl Version for Rescued<poison_pill::cancel_flag::Timer> {
    const WINDOW: &'static str = "poison-pill::cancel_flag: took the head, not yet waiting";
    fn start(name: &str) -> io::Result<Self> {
        Ok(Rescued::new(
            poison_pill::cancel_flag::Timer::new(name)?,
            name,
        ))
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        Ok(self.get().schedule(delay, task)?)
    }
    fn cancel(&self) {
        self.get().cancel();
    }
}

/// One lock and two conditions, with P1 only: see its file.
impl Version for Rescued<two_conditions::Timer> {
    const WINDOW: &'static str = "exercises::p3::two_conditions: peeked the head, not yet waiting";
    fn start(name: &str) -> io::Result<Self> {
        Ok(Rescued::new(two_conditions::Timer::new(name)?, name))
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        self.get().schedule(delay, task)
    }
    fn cancel(&self) {
        self.get().cancel();
    }
}

/// Stage 5's refusals, as this API says them: the exercise never shuts a
/// timer down nor schedules a repeating task.
fn from_stage5(e: interrupt_cancel::error::ScheduleError) -> ScheduleError {
    use interrupt_cancel::error::ScheduleError as Stage;
    match e {
        Stage::DelayOverflow(d) => ScheduleError::DelayOverflow(d),
        Stage::Cancelled | Stage::ShutDown => ScheduleError::Cancelled,
        Stage::PeriodOverflow(_) | Stage::ZeroPeriod => {
            unreachable!("a one-shot task has no period: {e}")
        }
    }
}

select!(p3:
    "poison_pill" => poison_pill::poison_pill::Timer,
    "timer_style" => poison_pill::timer_style::Timer,
    "disconnect" => poison_pill::disconnect::Timer,
    "refuses_when_dead" => interrupt_cancel::refuses_when_dead::Timer,
    "notify_on_cancel" => Rescued<poison_pill::notify_on_cancel::Timer>,
    "cancel_flag" => Rescued<poison_pill::cancel_flag::Timer>,
    "two_conditions" => Rescued<two_conditions::Timer>,
);

/// The race window: the timer thread has taken (or looked at) a task that
/// is not due yet, after whatever tells it of a cancel, and has not begun
/// to wait for it.
///
/// In some versions the thread holds the timer's lock here: a `cancel`
/// from another thread then waits until you release the thread, and one
/// from the thread that holds the pause waits forever. In others it holds
/// none, and a `cancel` returns at once. Held once per arm; later passes go
/// through.
pub const WINDOW: Point = Point::new(
    "WINDOW (p3: took a task not yet due, not yet waiting for it)",
    <Imp as Version>::WINDOW,
);

/// A timer with one thread, which runs each task once its delay has passed,
/// and which `cancel` stops. Dropping it cancels it and waits for its
/// thread to end.
///
/// A version with P1 leaves a thread with nothing queued waiting for good
/// after a cancel: dropping it frees that thread after `kit::ms(2000)`, as
/// the stage's own tests do, so that no test hangs (the drop returns late
/// instead of never). A thread waiting for a deadline is not freed.
// Boxed: the same size in every build, so that `size_of` tells a test
// nothing of the version.
pub struct Timer(Box<Imp>);

impl Timer {
    /// Starts a timer whose thread is named `name` (the name a [`Pause`]
    /// holds it by).
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be started.
    pub fn new(name: &str) -> io::Result<Timer> {
        Ok(Timer(Box::new(Imp::start(name)?)))
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
        Version::schedule(&*self.0, delay, Box::new(task))
    }

    /// Asks the timer to stop: no task starts from now on (except one the
    /// thread has already taken to run), and the thread ends. It does not
    /// wait for the thread to end; later calls do nothing.
    pub fn cancel(&self) {
        super::calling("cancel");
        Version::cancel(&*self.0);
    }
}
