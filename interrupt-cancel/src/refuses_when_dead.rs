//! I6's first fix, java.util.Timer's: whoever ends the timer closes its
//! queue, under the queue's own lock, and a closed queue refuses work.
//!
//! interrupted_or_dead.rs looked at the thread from outside: was it
//! interrupted, has it finished? Between a task's panic and the thread's
//! end, a `schedule` passed that check and its task was lost; and the tasks
//! queued at the panic stayed queued, never run. Here the thread closes the
//! queue on its way out, from a guard that also runs while a panic unwinds
//! (java.util.Timer's `finally` in `TimerThread.run`): the tasks still
//! queued are dropped, and every later `push` is refused under the lock the
//! close took. `cancel` closes it too, before it interrupts.
//!
//! The timer still dies with its task, as java.util.Timer does. The next
//! version does what executors do: catch the panic and keep running.

use std::io;
use std::time::Duration;

use crate::error::ScheduleError;
use crate::interrupt::{InterruptHandle, InterruptToken};
use crate::interrupted_only::{Task, check_name};
use crate::interruptible_queue::InterruptibleQueue;
use crate::sync::{self, thread};

/// A one-thread timer whose queue closes when it is cancelled or its
/// thread dies.
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
    /// [`ScheduleError::Cancelled`] once the timer was cancelled or its
    /// thread has died; [`ScheduleError::DelayOverflow`] if `now + delay`
    /// overflows.
    pub fn schedule<F>(&self, delay: Duration, task: F) -> Result<(), ScheduleError>
    where
        F: FnOnce() + Send + 'static,
    {
        let deadline = sync::now()
            .checked_add(delay)
            .ok_or(ScheduleError::DelayOverflow(delay))?;
        // Refused under the lock the close takes: no task slips in between.
        self.queue
            .push(deadline, Box::new(task))
            .map_err(|_refused| ScheduleError::Cancelled)
    }
    // ANCHOR_END: schedule

    /// Stops the timer: closes its queue (dropping the tasks in it), then
    /// interrupts its thread.
    pub fn cancel(&self) {
        self.queue.close();
        self.interrupt.interrupt();
    }

    /// How many tasks are queued.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }
}

// ANCHOR: main_loop
fn main_loop(queue: &InterruptibleQueue<Task>, token: &InterruptToken) {
    token.set_current();
    let _close = CloseOnExit(queue);
    while let Ok(task) = queue.take(token) {
        task();
    }
}

/// Closes the queue when the loop ends: interrupted, or unwinding from a
/// task's panic.
struct CloseOnExit<'a>(&'a InterruptibleQueue<Task>);

impl Drop for CloseOnExit<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}
// ANCHOR_END: main_loop

impl Drop for Timer {
    /// Cancels the timer and joins its thread (unless a task of this timer
    /// drops it).
    fn drop(&mut self) {
        self.cancel();
        if let Some(handle) = self.thread.take()
            && handle.thread().id() != thread::current().id()
        {
            let _ = handle.join();
        }
    }
}
