//! The timers with one thread that N1's, S1's and C1's catch-its wrap:
//! `new(name)` and `schedule(delay, task)`, whichever version runs. Each
//! exercise's module picks one of them for a build ([`select!`](super::select)).

use std::io;
use std::time::Duration;

use super::ScheduleError;

/// What every version behind those APIs does.
pub(super) trait Version: Sized {
    /// Its `kit::pause_point` where it has looked at the earliest task and
    /// not yet begun to wait for it.
    const WINDOW: &'static str;
    /// Starts it, its thread named `name`.
    fn start(name: &str) -> io::Result<Self>;
    /// Runs `task` on its thread once `delay` has passed.
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError>;
}

/// A task, boxed: the one type every version takes.
pub(super) type Task = Box<dyn FnOnce() + Send>;

impl Version for condvar_timer::timer_style::Timer {
    const WINDOW: &'static str = "condvar-timer::timer_style: peeked the head, not yet waiting";
    fn start(name: &str) -> io::Result<Self> {
        Self::new(name)
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        Ok(self.schedule(delay, task)?)
    }
}

impl Version for condvar_timer::something_changed::TimerQueue {
    const WINDOW: &'static str =
        "condvar-timer::something_changed: computed the wait, not yet waiting";
    fn start(name: &str) -> io::Result<Self> {
        Self::new(name)
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        // Its handler also runs, aborted, when the queue is dropped first.
        let handler = move |aborted: bool| {
            if !aborted {
                task();
            }
        };
        self.add(delay, handler).map(drop).map_err(Into::into)
    }
}

impl Version for poison_pill::poison_pill::Timer {
    const WINDOW: &'static str = "poison-pill::poison_pill: peeked the head, not yet waiting";
    fn start(name: &str) -> io::Result<Self> {
        Self::new(name)
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        Ok(self.schedule(delay, task)?)
    }
}

impl Version for condvar_timer::racy::Timer {
    const WINDOW: &'static str = "condvar-timer::racy: took the head, not yet waiting";
    fn start(name: &str) -> io::Result<Self> {
        Self::new(name)
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        Ok(self.schedule(delay, task)?)
    }
}

impl Version for sleep_based::Timer {
    const WINDOW: &'static str = "sleep-based::sleep_until: took the head, going to sleep";
    fn start(name: &str) -> io::Result<Self> {
        Self::new(name)
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        Ok(self.schedule(delay, task)?)
    }
}

impl Version for naive::Timer {
    const WINDOW: &'static str = "naive::busy_loop: the head is not due, putting it back";
    fn start(name: &str) -> io::Result<Self> {
        Self::new(name)
    }
    fn schedule(&self, delay: Duration, task: Task) -> Result<(), ScheduleError> {
        Ok(self.schedule(delay, task)?)
    }
}
