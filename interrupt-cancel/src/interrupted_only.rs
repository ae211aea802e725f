//! The timer of I1: its thread does all its waiting in an
//! [`InterruptibleQueue`], and `cancel` interrupts it. That ends the
//! thread whether it waits on an empty queue (P1) or for a far deadline
//! (P2), with no window: the Java Timer article's "fixed with thread
//! interrupts" listing, done with this crate's interrupt.
//!
//! This version is problematic. `schedule` refuses work only once the
//! thread was interrupted. A thread that died another way (a task panicked)
//! was never interrupted, so the timer goes on accepting tasks that will
//! never run (I2 `interrupted_or_dead`). And nothing tells anyone: the
//! tasks already queued stay there, never run and never dropped (I6
//! `panic_kills_timer`).

use std::io;
use std::time::Duration;

use crate::error::ScheduleError;
use crate::interrupt::{InterruptHandle, InterruptToken};
use crate::interruptible_queue::InterruptibleQueue;
use crate::sync::{self, thread};

/// A task: runs once, on the timer thread.
pub(crate) type Task = Box<dyn FnOnce() + Send + 'static>;

/// A one-thread timer that `cancel` interrupts.
pub struct Timer {
    queue: InterruptibleQueue<Task>,
    interrupt: InterruptHandle,
    thread: Option<thread::JoinHandle<()>>,
}

impl Timer {
    /// Starts a timer whose thread is named `name`.
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be started.
    pub fn new(name: &str) -> io::Result<Timer> {
        check_name(name)?;
        let queue = InterruptibleQueue::new();
        let token = InterruptToken::new();
        let interrupt = token.handle();
        let thread = {
            let queue = queue.clone();
            thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || main_loop(&queue, &token))?
        };
        Ok(Timer {
            queue,
            interrupt,
            thread: Some(thread),
        })
    }

    // ANCHOR: schedule
    /// Runs `task` on the timer thread once `delay` has passed.
    ///
    /// # Errors
    /// [`ScheduleError::Cancelled`] once the timer was cancelled;
    /// [`ScheduleError::DelayOverflow`] if `now + delay` overflows.
    pub fn schedule<F>(&self, delay: Duration, task: F) -> Result<(), ScheduleError>
    where
        F: FnOnce() + Send + 'static,
    {
        if self.interrupt.is_interrupted() {
            return Err(ScheduleError::Cancelled);
        }
        let deadline = sync::now()
            .checked_add(delay)
            .ok_or(ScheduleError::DelayOverflow(delay))?;
        // The queue is never closed in this version.
        let _ = self.queue.push(deadline, Box::new(task));
        Ok(())
    }
    // ANCHOR_END: schedule

    /// Stops the timer: interrupts its thread, wherever it waits. A task
    /// that is running finishes first (unless it checks its interrupt).
    pub fn cancel(&self) {
        self.interrupt.interrupt();
    }
}

// ANCHOR: main_loop
fn main_loop(queue: &InterruptibleQueue<Task>, token: &InterruptToken) {
    token.set_current();
    // `take` fails only with `Interrupted`: that is how `cancel` ends us.
    while let Ok(task) = queue.take(token) {
        kit::pause_point("interrupt-cancel::interrupted_only: took a task, not yet running it");
        task();
    }
}
// ANCHOR_END: main_loop

impl Drop for Timer {
    /// Cancels the timer and joins its thread (unless a task of this timer
    /// drops it: the thread cannot join itself).
    fn drop(&mut self) {
        self.cancel();
        if let Some(handle) = self.thread.take()
            && handle.thread().id() != thread::current().id()
        {
            // A task that panicked has killed the thread; its panic was
            // already printed, and this version has nothing else to say.
            let _ = handle.join();
        }
    }
}

/// std panics on a NUL in a thread name; here it is bad input, an error.
pub(crate) fn check_name(name: &str) -> io::Result<()> {
    if name.contains('\0') {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a thread name cannot contain NUL",
        ));
    }
    Ok(())
}
