//! Find it, F1: a timer that waits on its inbox.
//!
//! The timer of *A timer that burns a core*, one thread fed by a channel,
//! with the busy loop gone: the thread keeps the tasks it has taken, and
//! blocks on its inbox until a message comes or the earliest task is due
//! (crossbeam's `recv_deadline`). So that a burst of schedules costs one
//! turn of the loop, not one per message, it takes in everything waiting in
//! the inbox at once before it blocks.
//!
//! It has one bug, of a kind the book has taught. Find it, and write the
//! test that catches it: `cargo xtask exercise start f1-find`; your test
//! uses `exercises::find::f1::{Timer, Pause, RAN, ...}`. Behind `Timer`
//! runs one of several timers: the scheduler below, as it was written, and
//! others, correct ones and ones with other bugs. Your test cannot tell
//! which except by what it does. `schedule` never blocks, in any of them.
//!
//! The pause points, one per step of the thread's loop (each is a
//! `kit::pause_point` call in the scheduler: read where it sits):
//!
//! - `RAN`: step 1 done, it has run every task that was due;
//! - `PLANNED`: step 2 done, it has worked out when to wake;
//! - `TOOK_IN`: step 3 done, it has taken in what was waiting.
//!
//! Every timer behind the API passes the same points, each after the step
//! it names, though not every one takes its steps in this order.

use std::io;
use std::time::Duration;

pub use crate::catch::{Pause, Point, ScheduleError};

use super::f1_versions::{Imp, Version};

pub(super) const RAN_AT: &str = "f1 inbox timer: step 1, ran what was due";
pub(super) const PLANNED_AT: &str = "f1 inbox timer: step 2, planned";
pub(super) const TOOK_IN_AT: &str = "f1 inbox timer: step 3, took in";

/// The thread has run every task that was due (step 1).
pub const RAN: Point = Point::new("RAN", RAN_AT);
/// The thread has worked out when to wake (step 2).
pub const PLANNED: Point = Point::new("PLANNED", PLANNED_AT);
/// The thread has taken in what was waiting in its inbox (step 3).
///
/// Each point holds the thread once per arm; later passes go through. No
/// version holds a lock at any of them.
pub const TOOK_IN: Point = Point::new("TOOK_IN", TOOK_IN_AT);

/// A timer with one thread, which runs each task once its delay has passed.
/// Dropping it stops the thread and waits for it; tasks not yet run are
/// dropped unrun.
pub struct Timer(Imp);

impl Timer {
    /// Starts a timer whose thread is named `name` (the name a [`Pause`]
    /// holds it by).
    ///
    /// # Errors
    /// If the thread cannot be started (or `name` contains a NUL byte).
    pub fn new(name: &str) -> io::Result<Timer> {
        Ok(Timer(<Imp as Version>::start(name)?))
    }

    /// Runs `task` on the timer's thread once `delay` has passed. Never
    /// blocks.
    ///
    /// # Errors
    /// [`ScheduleError::DelayOverflow`] if now + `delay` overflows the clock.
    pub fn schedule(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        crate::catch::calling("schedule");
        Version::schedule(&self.0, delay, Box::new(task))
    }
}

// ANCHOR: scheduler
/// The timer as it was written.
pub(crate) mod scheduler {
    use std::io;
    use std::thread::{self, JoinHandle};
    use std::time::{Duration, Instant};

    use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};

    use super::{PLANNED_AT, RAN_AT, ScheduleError, TOOK_IN_AT};

    /// A task, and when it is due.
    pub struct Entry {
        pub due: Instant,
        pub task: Box<dyn FnOnce() + Send>,
    }

    /// What the inbox carries.
    pub enum Message {
        Task(Entry),
        Stop,
    }

    /// The timer: its inbox, and its thread.
    pub struct Timer {
        inbox: Sender<Message>,
        thread: Option<JoinHandle<()>>,
    }

    impl Timer {
        pub fn new(name: &str) -> io::Result<Timer> {
            Timer::start(name, run)
        }

        /// Starts a thread named `name` that runs `body` (the loop, `run`
        /// below) on the other end of the inbox.
        pub fn start(name: &str, body: fn(&Receiver<Message>)) -> io::Result<Timer> {
            let (inbox, messages) = unbounded();
            let thread = thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || body(&messages))?;
            Ok(Timer {
                inbox,
                thread: Some(thread),
            })
        }

        pub fn schedule(
            &self,
            delay: Duration,
            task: impl FnOnce() + Send + 'static,
        ) -> Result<(), ScheduleError> {
            let due = Instant::now()
                .checked_add(delay)
                .ok_or(ScheduleError::DelayOverflow(delay))?;
            let task = Box::new(task);
            // Fails only if the thread is gone; the task is dropped then.
            let _ = self.inbox.send(Message::Task(Entry { due, task }));
            Ok(())
        }
    }

    impl Drop for Timer {
        fn drop(&mut self) {
            let _ = self.inbox.send(Message::Stop);
            if let Some(thread) = self.thread.take() {
                let _ = thread.join(); // a task that panicked ended it
            }
        }
    }

    /// The index of the pending task due first.
    pub fn earliest(pending: &[Entry]) -> Option<usize> {
        (0..pending.len()).min_by_key(|&i| pending[i].due)
    }

    fn run(messages: &Receiver<Message>) {
        let mut pending: Vec<Entry> = Vec::new();
        loop {
            // 1. Run every task that is due, earliest first.
            while let Some(i) = earliest(&pending).filter(|&i| pending[i].due <= Instant::now()) {
                (pending.swap_remove(i).task)();
            }
            kit::pause_point(RAN_AT);
            // 2. Plan: wake when the earliest pending task is due.
            let wake_at = earliest(&pending).map(|i| pending[i].due);
            kit::pause_point(PLANNED_AT);
            // 3. Take in whatever is waiting, all of it at once.
            for message in messages.try_iter() {
                match message {
                    Message::Task(entry) => pending.push(entry),
                    Message::Stop => return,
                }
            }
            kit::pause_point(TOOK_IN_AT);
            // 4. Wait for the next message, or until the planned time.
            let next = match wake_at {
                Some(at) => messages.recv_deadline(at),
                None => messages.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match next {
                Ok(Message::Task(entry)) => pending.push(entry),
                Ok(Message::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }
}
// ANCHOR_END: scheduler
