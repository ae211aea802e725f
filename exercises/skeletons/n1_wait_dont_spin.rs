//! Exercise N1: make the busy loop wait instead of spin.
//!
//! This is the timer of *A timer that burns a core*, on the monotonic clock:
//! `schedule` sends a task and its deadline down a channel; the timer thread
//! takes each entry, runs it if it is due, and otherwise puts it back and
//! takes again. With one task pending and not yet due, that loop never
//! blocks: it burns a core (N1).
//!
//! Your job: make the thread *wait* while no task is due, and still run every
//! task on time. Keep the public API (`Timer::new`, `schedule`, and the drop
//! that stops the thread) as it is: the check uses it.
//!
//! Check: `cargo xtask exercise check n1`. Hints: `cargo xtask exercise hint n1`.

use std::io;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, unbounded};

pub use naive::ScheduleError;

/// A task and when it is due.
struct Entry {
    due: Instant,
    task: Box<dyn FnOnce() + Send>,
}

/// What travels through the channel.
enum Message {
    Task(Entry),
    /// Drop's request to stop.
    Stop,
}

/// A timer thread fed by a channel.
pub struct Timer {
    queue: Sender<Message>,
    thread: Option<JoinHandle<()>>,
}

impl Timer {
    /// A timer whose thread is named `name`.
    ///
    /// # Errors
    /// If the thread cannot be spawned (or `name` contains a NUL byte).
    pub fn new(name: &str) -> io::Result<Timer> {
        let (queue, inbox) = unbounded();
        let put_back = queue.clone();
        let thread = thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || main_loop(&inbox, &put_back))?;
        Ok(Timer {
            queue,
            thread: Some(thread),
        })
    }

    /// Runs `task` on the timer thread once `delay` has passed.
    ///
    /// # Errors
    /// [`ScheduleError::DelayOverflow`] if now + `delay` overflows `Instant`.
    pub fn schedule(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        let due = Instant::now()
            .checked_add(delay)
            .ok_or(ScheduleError::DelayOverflow(delay))?;
        let entry = Entry {
            due,
            task: Box::new(task),
        };
        // Fails only if the thread is gone; the task is then dropped.
        let _ = self.queue.send(Message::Task(entry));
        Ok(())
    }
}

/// The timer thread.
fn main_loop(inbox: &Receiver<Message>, put_back: &Sender<Message>) {
    while let Ok(Message::Task(entry)) = inbox.recv() {
        if Instant::now() >= entry.due {
            (entry.task)();
        } else {
            // TODO(N1): the task is not due, and this sends it straight back:
            // the next `recv` returns it at once, and round the loop goes
            // without ever waiting. Wait instead, until the earliest task
            // the thread knows of is due or a new message arrives.
            //
            // Two things this loop does for you now, and your loop must do
            // itself: it ends on `Message::Stop` (the `while let` stops at
            // any message that is not a `Task`), which is how `drop` stops
            // the thread; and `put_back` is a sender too, so while it
            // exists the channel never reports a disconnect.
            let _ = put_back.send(Message::Task(entry));
        }
    }
}

impl Drop for Timer {
    /// Stops the thread and waits for it; tasks not yet run are dropped.
    fn drop(&mut self) {
        let _ = self.queue.send(Message::Stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
