//! I2 fixed, as the Java Timer article's listing does it: `schedule` refuses
//! work when the thread was interrupted *or* has finished.
//!
//! A thread that died of a panicking task was never interrupted; before
//! Java 14, `isInterrupted()` even answered `false` for any dead thread, so
//! the article checks `!isAlive()` too. Here that is
//! [`JoinHandle::is_finished`](std::thread::JoinHandle::is_finished).
//!
//! Still not enough. The check looks at the thread from outside, before
//! the push: a task scheduled while another task is panicking (the thread
//! not finished yet) is accepted and lost. The tasks queued when the
//! thread died stay in the queue, never run. Both are I6's:
//! see [`crate::refuses_when_dead`].
//!
//! This file uses `std::thread` directly: loom's threads have no
//! `is_finished`, and no loom model runs this version.

use std::io;
use std::thread;
use std::time::Duration;

use crate::error::ScheduleError;
use crate::interrupt::{InterruptHandle, InterruptToken};
use crate::interrupted_only::{Task, check_name};
use crate::interruptible_queue::InterruptibleQueue;
use crate::sync;

/// A one-thread timer that `cancel` interrupts and that refuses work once
/// its thread is gone.
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
    /// thread has finished; [`ScheduleError::DelayOverflow`] if
    /// `now + delay` overflows.
    pub fn schedule<F>(&self, delay: Duration, task: F) -> Result<(), ScheduleError>
    where
        F: FnOnce() + Send + 'static,
    {
        if self.interrupt.is_interrupted() || !self.is_alive() {
            return Err(ScheduleError::Cancelled);
        }
        let deadline = sync::now()
            .checked_add(delay)
            .ok_or(ScheduleError::DelayOverflow(delay))?;
        let _ = self.queue.push(deadline, Box::new(task));
        Ok(())
    }

    /// Whether the timer thread is still running: `Thread.isAlive()`.
    pub fn is_alive(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }
    // ANCHOR_END: schedule

    /// Stops the timer: interrupts its thread, wherever it waits.
    pub fn cancel(&self) {
        self.interrupt.interrupt();
    }
}

fn main_loop(queue: &InterruptibleQueue<Task>, token: &InterruptToken) {
    token.set_current();
    while let Ok(task) = queue.take(token) {
        task();
    }
}

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
