//! java.util.Timer's way (C4): one lock guards the queue, the stop flag and
//! the wait.
//!
//! The thread looks at the head and waits for its deadline while holding
//! the same lock a client needs to insert. So no client can slip in between
//! "looked" and "waiting" (the window of C1 is gone), and the head stays in
//! the heap while the thread waits for it (no churn, C3). Tasks still run
//! outside the lock.

use std::collections::BinaryHeap;
use std::io;
use std::sync::PoisonError;
use std::time::Duration;

use crate::error::ScheduleError;
use crate::sync::{self, Arc, Condvar, Mutex, lock, thread};

// The entry and its heap order are racy.rs's: what changes in this version
// is who holds which lock, not what is in the queue.
use crate::racy::Entry;

/// What the timer has done so far; see [`Timer::stats`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Entries put into the heap: one per `schedule`, never a put-back.
    pub pushes: u64,
    /// Entries taken out of the heap: one per task run.
    pub pops: u64,
    /// Notifies sent by `schedule` (when the new task became the head).
    pub notifies: u64,
    /// Times the thread came back from a timed wait for a deadline
    /// (notified, timed out, or woken spuriously).
    pub wakeups: u64,
}

// ANCHOR: shared
/// Everything the one lock guards.
struct State {
    heap: BinaryHeap<Entry>,
    next_seq: u64,
    /// Set by `Drop`; read by the thread under the lock before every wait.
    stopped: bool,
    stats: Stats,
}

struct Shared {
    state: Mutex<State>,
    /// Notified when a new head arrives, or on stop.
    changed: Condvar,
}
// ANCHOR_END: shared

/// A timer with one thread, built on wait/notify, that cannot lose a
/// wake-up.
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
                stopped: false,
                stats: Stats::default(),
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
    /// [`ScheduleError::DelayOverflow`] if `now + delay` overflows the clock.
    pub fn schedule<F>(&self, delay: Duration, task: F) -> Result<(), ScheduleError>
    where
        F: FnOnce() + Send + 'static,
    {
        let deadline = sync::now()
            .checked_add(delay)
            .ok_or(ScheduleError::DelayOverflow(delay))?;
        let mut state = lock(&self.shared.state);
        let seq = state.next_seq;
        state.next_seq += 1;
        state.heap.push(Entry {
            deadline,
            seq,
            task: Box::new(task),
        });
        state.stats.pushes += 1;
        if state.heap.peek().is_some_and(|head| head.seq == seq) {
            // We hold the lock the thread waits with: it is either waiting
            // (and this wakes it) or has not looked at the heap yet (and
            // will see this task when it does). A later task needs no notify.
            state.stats.notifies += 1;
            self.shared.changed.notify_one();
        }
        Ok(())
    }
    // ANCHOR_END: schedule

    /// A snapshot of the counters (heap operations, notifies, wake-ups).
    pub fn stats(&self) -> Stats {
        lock(&self.shared.state).stats
    }
}

// ANCHOR: main_loop
fn main_loop(shared: &Shared) {
    let mut state = lock(&shared.state);
    while !state.stopped {
        let now = sync::now();
        match state.heap.peek().map(|head| head.deadline) {
            None => {
                state = shared
                    .changed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            Some(deadline) if deadline <= now => {
                let entry = state.heap.pop().expect("the head we just peeked");
                state.stats.pops += 1;
                drop(state); // tasks run outside the lock
                (entry.task)();
                state = lock(&shared.state);
            }
            Some(deadline) => {
                // The head stays in the heap and we still hold the lock: a
                // client cannot insert before we wait. C1's window is gone.
                kit::pause_point("condvar-timer::timer_style: peeked the head, not yet waiting");
                state = shared
                    .changed
                    .wait_timeout(state, deadline - now)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
                state.stats.wakeups += 1;
            }
        }
    }
}
// ANCHOR_END: main_loop

// ANCHOR: drop
impl Drop for Timer {
    /// Stops the thread and joins it. Tasks still queued are dropped without
    /// running; a task that is running finishes first.
    ///
    /// If the last owner is dropped by a task running on the timer thread,
    /// the thread cannot join itself: `drop` then only stops it, and the
    /// thread ends as soon as that task returns.
    fn drop(&mut self) {
        {
            let mut state = lock(&self.shared.state);
            state.stopped = true;
            self.shared.changed.notify_all();
        }
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
