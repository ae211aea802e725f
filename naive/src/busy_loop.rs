//! The naive timer: one thread looping over a blocking queue.
//!
//! `schedule` puts (task, deadline) on a channel. The timer thread takes the
//! next entry; if it is due it runs it, else it puts it back and takes again.
//! With nothing queued, `recv` blocks and the thread costs nothing (N2). With
//! one task queued but not yet due, the loop never blocks: take, too early,
//! put back, take... one core burned until the task is due (N1).
//!
//! Deadlines come from a [`Clock`]; [`Timer::new`] uses the wall clock, as
//! java.util.Timer (and the Java Timer article's version of it) do, so
//! setting the date back delays every task (N3).

use std::io;
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, unbounded};

use crate::clock::{Clock, WallClock};
use crate::error::ScheduleError;

// ANCHOR: entry
/// A task and when it is due, on the clock's scale.
struct Entry {
    due: Duration,
    task: Box<dyn FnOnce() + Send>,
}

/// What travels through the queue.
enum Message {
    Task(Entry),
    /// Drop's request to stop.
    Stop,
}
// ANCHOR_END: entry

// ANCHOR: timer
/// A timer whose thread takes, checks and puts back, without ever waiting for
/// a deadline. See the module docs.
pub struct Timer {
    queue: Sender<Message>,
    clock: Arc<dyn Clock>,
    thread: Option<JoinHandle<()>>,
}
// ANCHOR_END: timer

impl Timer {
    /// A timer on the wall clock whose thread is named `name`.
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be spawned.
    pub fn new(name: &str) -> io::Result<Timer> {
        Timer::with_clock(name, WallClock)
    }

    // ANCHOR: new
    /// A timer that reads deadlines from `clock`, whose thread is named
    /// `name`. The thread starts here: when this returns, it is running.
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be spawned.
    pub fn with_clock(name: &str, clock: impl Clock) -> io::Result<Timer> {
        if name.contains('\0') {
            // std would panic on it; a bad name is bad input, so an error.
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a thread name cannot contain NUL",
            ));
        }
        let clock: Arc<dyn Clock> = Arc::new(clock);
        let (queue, inbox) = unbounded();
        let thread = {
            let (put_back, clock) = (queue.clone(), Arc::clone(&clock));
            thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || main_loop(&inbox, &put_back, &*clock))?
        };
        Ok(Timer {
            queue,
            clock,
            thread: Some(thread),
        })
    }
    // ANCHOR_END: new

    // ANCHOR: schedule
    /// Runs `task` on the timer thread once `delay` has passed.
    ///
    /// # Errors
    /// [`ScheduleError::DelayOverflow`] if now + `delay` overflows the clock.
    pub fn schedule(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        let due = self
            .clock
            .now()
            .checked_add(delay)
            .ok_or(ScheduleError::DelayOverflow(delay))?;
        let entry = Entry {
            due,
            task: Box::new(task),
        };
        // The send fails only if the thread is gone (a task panicked); the
        // task is then dropped unrun. *A timer you can interrupt* (I6) makes that an error.
        let _ = self.queue.send(Message::Task(entry));
        Ok(())
    }
    // ANCHOR_END: schedule
}

// ANCHOR: main_loop
/// The timer thread.
fn main_loop(inbox: &Receiver<Message>, put_back: &Sender<Message>, clock: &dyn Clock) {
    // Blocks only while the queue is empty: that is all the waiting it does.
    while let Ok(Message::Task(entry)) = inbox.recv() {
        if clock.now() >= entry.due {
            (entry.task)();
        } else {
            // Too early: back to the end of the queue, and round again at once.
            kit::pause_point("naive::busy_loop: the head is not due, putting it back");
            let _ = put_back.send(Message::Task(entry));
        }
    }
}
// ANCHOR_END: main_loop

// ANCHOR: drop
impl Drop for Timer {
    /// Stops the thread and waits for it; queued tasks are dropped unrun.
    fn drop(&mut self) {
        // A poison pill: the thread reads its queue and nothing else, so the
        // request to stop travels through the queue. (The thread holds a
        // sender for its put-backs, so the channel never disconnects by
        // itself; *A timer that will not stop* shows why a flag, or a flag and a
        // notify, hang.)
        let _ = self.queue.send(Message::Stop);
        if let Some(thread) = self.thread.take() {
            // Err means a task panicked; there is nothing left to stop.
            let _ = thread.join();
        }
    }
}
// ANCHOR_END: drop

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nul_in_the_name_is_an_error() {
        let err = Timer::new("bad\0name")
            .err()
            .expect("a NUL in the name is refused");
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn an_overflowing_delay_is_an_error() {
        let timer = Timer::new(&kit::threads::unique_name("nv-overflow")).unwrap();
        assert_eq!(
            timer.schedule(Duration::MAX, || {}),
            Err(ScheduleError::DelayOverflow(Duration::MAX))
        );
    }

    #[test]
    fn runs_a_due_task_and_drop_joins_the_thread() {
        let name = kit::threads::unique_name("nv-runs");
        let rec = kit::Recorder::new();
        let timer = Timer::new(&name).unwrap();
        let task_rec = rec.clone();
        timer
            .schedule(Duration::ZERO, move || {
                task_rec.record("ran");
            })
            .unwrap();
        assert!(rec.eventually("ran", kit::ms(5000)).is_some());
        drop(timer);
        kit::threads::assert_gone(&name);
    }
}
