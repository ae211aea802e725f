//! Exercise S1: make the sleeping timer notice an earlier task.
//!
//! This is the timer of *A timer that oversleeps*, reshaped a little: the
//! thread looks at the earliest task under the queue's lock, and if it is not
//! due yet, lets go of the lock and sleeps until it is. A task scheduled
//! meanwhile, due sooner, waits for that sleep to end (S1).
//!
//! Your job: make that wait one that `schedule` can cut short, so an earlier
//! task runs on time. Keep the public API (`Timer::new`, `schedule`, the
//! drop that stops the thread) and keep the `kit::pause_point(WINDOW)` call
//! where it is: the check holds your thread there, lock in hand, while it
//! schedules the earlier task from another thread.
//!
//! Check: `cargo xtask exercise check s1`. Hints: `cargo xtask exercise hint s1`.

use std::collections::BinaryHeap;
use std::io;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

pub use sleep_based::ScheduleError;

/// Where the check holds the timer thread: it has looked at the earliest
/// task, still holds the queue's lock, and is about to wait for it.
pub const WINDOW: &str = "exercise s1: looked at the head, about to wait";

/// A task and when it is due; the heap's order is earliest first.
struct Entry {
    due: Instant,
    seq: u64,
    task: Box<dyn FnOnce() + Send>,
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (other.due, other.seq).cmp(&(self.due, self.seq))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Entry {}

/// The queue and the timer's state, under one lock.
struct Queue {
    heap: BinaryHeap<Entry>,
    next_seq: u64,
    stopped: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    /// Signalled when a task is added or the timer stops.
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A timer whose thread sleeps until the earliest task is due.
pub struct Timer {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Timer {
    /// A timer whose thread is named `name`.
    ///
    /// # Errors
    /// If the thread cannot be spawned (or `name` contains a NUL byte).
    pub fn new(name: &str) -> io::Result<Timer> {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                heap: BinaryHeap::new(),
                next_seq: 0,
                stopped: false,
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
        let mut queue = self.shared.lock();
        let seq = queue.next_seq;
        queue.next_seq += 1;
        queue.heap.push(Entry {
            due,
            seq,
            task: Box::new(task),
        });
        // Wakes the thread when it waits on an empty queue; a sleeping
        // thread does not hear it.
        self.shared.changed.notify_one();
        Ok(())
    }
}

/// The timer thread.
fn main_loop(shared: &Shared) {
    let mut queue = shared.lock();
    while !queue.stopped {
        let now = Instant::now();
        match queue.heap.peek().map(|head| head.due) {
            None => {
                queue = shared
                    .changed
                    .wait(queue)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            Some(due) if due <= now => {
                let entry = queue.heap.pop().expect("the head we just peeked");
                drop(queue); // tasks run outside the lock
                (entry.task)();
                queue = shared.lock();
            }
            Some(due) => {
                kit::pause_point(WINDOW);
                // TODO(S1): a sleep is blind: a task scheduled now, due
                // sooner, waits until this sleep ends. Wait in a way that
                // `schedule` can interrupt.
                drop(queue);
                thread::sleep(due - now);
                queue = shared.lock();
            }
        }
    }
}

impl Drop for Timer {
    /// Stops the thread and waits for it; tasks not yet run are dropped.
    fn drop(&mut self) {
        self.shared.lock().stopped = true;
        self.shared.changed.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
