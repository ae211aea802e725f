//! The poison pill the type system delivers: the timer holds the only
//! `Sender` of a crossbeam channel, and `cancel` drops it. A receiver
//! blocked on a channel whose last `Sender` is gone wakes with an error, so
//! the thread's blocking call itself reports the cancel: nobody has to put
//! a pill in, and nothing can forget to.
//!
//! The Rust Book's web-server pool made the same move between editions: its
//! workers first stopped on an explicit `Terminate` message (a pill), later
//! on the error `recv` returns once the pool drops its sender.
//!
//! The channel carries new tasks from clients to the thread, and the thread
//! keeps the heap to itself: no lock of ours is shared with it. It blocks in
//! `recv` (nothing queued) or `recv_deadline` (until the head is due), and
//! both return at once after a disconnect, even one that came before the
//! call: a disconnect is the channel's state, not an event to catch.
//!
//! crossbeam's channel is not built on loom's primitives, so loom cannot
//! check this file; it uses std directly, not the stage's sync facade.

use std::collections::BinaryHeap;
use std::io;
use std::sync::{Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, TryRecvError};

use crate::cancel_flag::{Entry, Task};
use crate::error::ScheduleError;

/// A task on its way to the timer thread.
struct Job {
    deadline: Instant,
    task: Task,
}

/// A timer with one thread that stops when its channel disconnects.
pub struct Timer {
    /// The only `Sender`; `None` once cancelled.
    sender: Mutex<Option<Sender<Job>>>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Timer {
    /// Starts a timer whose thread is named `name`.
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be started.
    pub fn new(name: &str) -> io::Result<Timer> {
        if name.contains('\0') {
            // std would panic on it; a bad name is bad input, so an error.
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a thread name cannot contain NUL",
            ));
        }
        let (sender, jobs) = crossbeam_channel::unbounded();
        let thread = thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || main_loop(&jobs))?;
        Ok(Timer {
            sender: Mutex::new(Some(sender)),
            thread: Some(thread),
        })
    }

    // ANCHOR: schedule
    /// Runs `task` on the timer thread once `delay` has passed.
    ///
    /// # Errors
    /// [`ScheduleError::Cancelled`] once the timer is cancelled;
    /// [`ScheduleError::DelayOverflow`] if `now + delay` overflows the clock.
    pub fn schedule<F>(&self, delay: Duration, task: F) -> Result<(), ScheduleError>
    where
        F: FnOnce() + Send + 'static,
    {
        let deadline = Instant::now()
            .checked_add(delay)
            .ok_or(ScheduleError::DelayOverflow(delay))?;
        let sender = self.sender.lock().unwrap_or_else(PoisonError::into_inner);
        let job = Job {
            deadline,
            task: Box::new(task),
        };
        match sender.as_ref() {
            // A send fails only if the thread is gone (a task panicked):
            // as in java.util.Timer, a dead timer counts as cancelled.
            Some(sender) => sender.send(job).map_err(|_| ScheduleError::Cancelled),
            None => Err(ScheduleError::Cancelled),
        }
    }
    // ANCHOR_END: schedule

    // ANCHOR: cancel
    /// Stops the timer: no task starts from now on, except one the thread
    /// has already taken to run; tasks still queued are discarded; a
    /// running task is not interrupted. Later calls do nothing.
    ///
    /// Returns at once: it waits neither for a running task nor for the
    /// thread. To wait for both, drop the timer.
    pub fn cancel(&self) {
        let last_sender = self
            .sender
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        // Dropping the last `Sender` disconnects the channel: the pill.
        drop(last_sender);
    }
    // ANCHOR_END: cancel
}

// ANCHOR: main_loop
fn main_loop(jobs: &Receiver<Job>) {
    // ANCHOR_END: main_loop
    let mut heap = BinaryHeap::new();
    let mut next_seq = 0;
    let mut push = |heap: &mut BinaryHeap<Entry>, job: Job| {
        heap.push(Entry {
            deadline: job.deadline,
            seq: next_seq,
            task: job.task,
        });
        next_seq += 1;
    };
    // ANCHOR: main_loop_body
    loop {
        // Take in everything sent so far. The channel hands over what was
        // sent before a disconnect first, and only then reports it; so a
        // due task runs only if no cancel came before this check.
        loop {
            match jobs.try_recv() {
                Ok(job) => push(&mut heap, job),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return,
            }
        }
        let now = Instant::now();
        let received = match heap.peek().map(|head| head.deadline) {
            Some(deadline) if deadline <= now => {
                let entry = heap.pop().expect("the head we just peeked");
                (entry.task)();
                continue;
            }
            Some(deadline) => {
                kit::pause_point("poison-pill::disconnect: drained the channel, about to wait");
                jobs.recv_deadline(deadline)
            }
            None => {
                kit::pause_point("poison-pill::disconnect: heap empty, about to receive");
                jobs.recv().map_err(|_| RecvTimeoutError::Disconnected)
            }
        };
        match received {
            Ok(job) => push(&mut heap, job),
            Err(RecvTimeoutError::Timeout) => {}
            // The last Sender is gone: the timer was cancelled. The heap's
            // tasks are discarded as the thread returns.
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}
// ANCHOR_END: main_loop_body

// ANCHOR: drop
impl Drop for Timer {
    /// Cancels, then joins the thread: returns once a running task has
    /// finished and the thread has ended.
    ///
    /// On the timer thread itself (a task dropped the last owner) it only
    /// cancels: a thread cannot join itself, and it ends as soon as that
    /// task returns.
    fn drop(&mut self) {
        self.cancel();
        if let Some(handle) = self.thread.take()
            && handle.thread().id() != thread::current().id()
        {
            // A panicking task has already reported itself; stage 5 is
            // about keeping the timer alive through one.
            let _ = handle.join();
        }
    }
}
// ANCHOR_END: drop
