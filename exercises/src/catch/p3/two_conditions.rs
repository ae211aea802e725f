//! A P3 chaff written for the exercise: java.util.Timer's one lock, with
//! two condition variables, and `cancel` signals only one of them (P1
//! `cancel_hangs_idle`).
//!
//! One lock guards the heap and the cancelled flag, and the thread looks
//! and waits under it, as in `poison-pill/src/timer_style.rs`: no cancel
//! can slip between the look and the wait, so P2 and P3 are not here. But
//! the thread waits on one of two conditions, as a `ReentrantLock` with
//! `notEmpty` and `available` would have it: `not_empty` while nothing is
//! queued, `changed` while it waits for the head's deadline. `schedule`
//! signals the one the thread may be waiting on; `cancel` signals only
//! `changed`. A thread waiting for a deadline wakes, reads the flag and
//! ends; a thread with nothing queued never hears the cancel, and never
//! ends.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::io;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use super::rescued::Rescue;
use crate::catch::ScheduleError;

/// A task: runs once, on the timer thread.
type Task = Box<dyn FnOnce() + Send + 'static>;

/// A task and when it is due; `seq` keeps equal deadlines in order.
struct Entry {
    deadline: Instant,
    seq: u64,
    task: Task,
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap pops its greatest element: reverse, earliest first.
        (other.deadline, other.seq).cmp(&(self.deadline, self.seq))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

/// Everything the one lock guards.
struct State {
    heap: BinaryHeap<Entry>,
    next_seq: u64,
    cancelled: bool,
}

struct Shared {
    state: Mutex<State>,
    /// What a thread with nothing queued waits on.
    not_empty: Condvar,
    /// What a thread waiting for the head's deadline waits on.
    changed: Condvar,
}

fn lock(shared: &Shared) -> MutexGuard<'_, State> {
    // Tasks never run under the lock: a poisoned lock could only come from
    // a bug here, and the heap and the flag stay valid either way.
    shared.state.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A timer with one thread and one lock, whose cancel wakes a thread that
/// waits for a deadline and not one that waits for work.
pub(in crate::catch) struct Timer {
    shared: Arc<Shared>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Timer {
    /// Starts a timer whose thread is named `name`.
    pub(in crate::catch) fn new(name: &str) -> io::Result<Timer> {
        if name.contains('\0') {
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
            not_empty: Condvar::new(),
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

    /// Runs `task` on the timer thread once `delay` has passed; refused
    /// once the timer is cancelled.
    pub(in crate::catch) fn schedule(
        &self,
        delay: Duration,
        task: Task,
    ) -> Result<(), ScheduleError> {
        let deadline = Instant::now()
            .checked_add(delay)
            .ok_or(ScheduleError::DelayOverflow(delay))?;
        let mut state = lock(&self.shared);
        if state.cancelled {
            return Err(ScheduleError::Cancelled);
        }
        let seq = state.next_seq;
        state.next_seq += 1;
        let was_empty = state.heap.is_empty();
        state.heap.push(Entry {
            deadline,
            seq,
            task,
        });
        if was_empty {
            self.shared.not_empty.notify_one();
        } else if state.heap.peek().is_some_and(|head| head.seq == seq) {
            self.shared.changed.notify_one();
        }
        Ok(())
    }

    /// Sets the flag and signals `changed`, under the lock, and discards
    /// the queued tasks. P1: a thread waiting on `not_empty` is not woken.
    pub(in crate::catch) fn cancel(&self) {
        let discarded = {
            let mut state = lock(&self.shared);
            state.cancelled = true;
            self.shared.changed.notify_one();
            std::mem::take(&mut state.heap)
        };
        // Dropped outside the lock: a task's captured values may do anything.
        drop(discarded);
    }
}

impl Rescue for Timer {
    /// Not a fix: a test's way to free a thread that P1 left waiting on
    /// `not_empty`. It wakes, reads the flag, and ends.
    fn rescuer(&self) -> Box<dyn Fn() + Send> {
        let shared = Arc::clone(&self.shared);
        Box::new(move || {
            let _state = lock(&shared);
            shared.not_empty.notify_all();
        })
    }
}

fn main_loop(shared: &Shared) {
    let mut state = lock(shared);
    while !state.cancelled {
        let now = Instant::now();
        match state.heap.peek().map(|head| head.deadline) {
            None => {
                kit::pause_point("exercises::p3::two_conditions: queue empty, about to wait");
                // P1: `cancel` signals `changed`, never this.
                state = shared
                    .not_empty
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            Some(deadline) if deadline <= now => {
                let entry = state.heap.pop().expect("the head we just peeked");
                drop(state); // tasks run outside the lock
                (entry.task)();
                state = lock(shared);
            }
            Some(deadline) => {
                // Under the lock `cancel` takes: a cancel either came
                // before this look or will find us waiting. No P3 window.
                kit::pause_point("exercises::p3::two_conditions: peeked the head, not yet waiting");
                state = shared
                    .changed
                    .wait_timeout(state, deadline - now)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
            }
        }
    }
}

impl Drop for Timer {
    /// Cancels, then joins the thread: which, after P1, is never (see
    /// [`Rescue`]). On the timer thread itself it only cancels.
    fn drop(&mut self) {
        self.cancel();
        if let Some(handle) = self.thread.take()
            && handle.thread().id() != thread::current().id()
        {
            let _ = handle.join();
        }
    }
}
