//! java.util.Timer's way (P5): one lock guards the queue, the wait and the
//! "cancelled" state, so no pill is needed.
//!
//! java.util.Timer keeps its own queue (`TaskQueue`) and a flag,
//! `newTasksMayBeScheduled`, under the queue's monitor. Its thread looks at
//! the flag and the head and waits while holding that monitor; `cancel`
//! takes the same monitor, clears the flag, empties the queue and
//! notifies. A cancel therefore lands either before the thread looks (and
//! the thread sees it) or while it waits (and the notify wakes it): there
//! is no moment in between, whether the queue is empty or not.

use std::collections::BinaryHeap;
use std::io;
use std::sync::PoisonError;
use std::time::Duration;

use crate::cancel_flag::Entry;
use crate::error::ScheduleError;
use crate::sync::{self, Arc, Condvar, Mutex, lock, thread};

// ANCHOR: shared
/// Everything the one lock guards.
struct State {
    heap: BinaryHeap<Entry>,
    next_seq: u64,
    /// java.util.Timer's `newTasksMayBeScheduled`, the other way round.
    cancelled: bool,
}

struct Shared {
    state: Mutex<State>,
    /// Notified when a new head arrives, and on cancel.
    changed: Condvar,
}
// ANCHOR_END: shared

/// A timer with one thread, in java.util.Timer's style: cancelled by a flag
/// that lives under the queue's lock.
pub struct Timer {
    shared: Arc<Shared>,
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
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                heap: BinaryHeap::new(),
                next_seq: 0,
                cancelled: false,
            }),
            changed: Condvar::new(),
        });
        let thread = {
            let shared = Arc::clone(&shared);
            thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || main_loop(&shared))?
        };
        Ok(Timer {
            shared,
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
        let deadline = sync::now()
            .checked_add(delay)
            .ok_or(ScheduleError::DelayOverflow(delay))?;
        let mut state = lock(&self.shared.state);
        if state.cancelled {
            return Err(ScheduleError::Cancelled);
        }
        let seq = state.next_seq;
        state.next_seq += 1;
        state.heap.push(Entry {
            deadline,
            seq,
            task: Box::new(task),
        });
        if state.heap.peek().is_some_and(|head| head.seq == seq) {
            self.shared.changed.notify_one();
        }
        Ok(())
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
        let discarded = {
            let mut state = lock(&self.shared.state);
            state.cancelled = true;
            // The thread is either waiting (this wakes it) or has not
            // looked yet (and will see the flag): we hold its lock.
            self.shared.changed.notify_one();
            std::mem::take(&mut state.heap)
        };
        // Dropped outside the lock: a task's captured values run their own
        // `drop`, which could call back into this timer.
        drop(discarded);
    }
    // ANCHOR_END: cancel
}

// ANCHOR: main_loop
fn main_loop(shared: &Shared) {
    let mut state = lock(&shared.state);
    while !state.cancelled {
        let now = sync::now();
        match state.heap.peek().map(|head| head.deadline) {
            None => {
                kit::pause_point("poison-pill::timer_style: queue empty, about to wait");
                state = shared
                    .changed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            Some(deadline) if deadline <= now => {
                let entry = state.heap.pop().expect("the head we just peeked");
                drop(state); // tasks run outside the lock
                (entry.task)();
                state = lock(&shared.state);
            }
            Some(deadline) => {
                kit::pause_point("poison-pill::timer_style: peeked the head, not yet waiting");
                state = shared
                    .changed
                    .wait_timeout(state, deadline - now)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
            }
        }
    }
}
// ANCHOR_END: main_loop

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
