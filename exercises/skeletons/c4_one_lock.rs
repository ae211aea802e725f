//! Exercise C4: close the lost wake-up with one lock.
//!
//! This is the racy timer of *A timer that loses a wake-up*, cut down: the
//! queue has its own lock, and the thread waits on a second one, the monitor.
//! It looks at the head under the queue's lock, lets go, and only then takes
//! the monitor and waits. A client that inserts an earlier task and notifies
//! in between reaches nobody, and the thread waits the full time for the
//! later task (C1).
//!
//! Your job: make it impossible for a client to slip in between the look and
//! the wait, as java.util.Timer does. Keep the public API (`Timer::new`,
//! `schedule`, the drop that stops the thread) and keep the
//! `kit::pause_point(WINDOW)` call between the look and the wait: the check
//! holds your thread there while another thread schedules a task due sooner.
//!
//! Check: `cargo xtask exercise check c4`. Hints: `cargo xtask exercise hint c4`.

use std::collections::BinaryHeap;
use std::io;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

pub use condvar_timer::error::ScheduleError;

/// Where the check holds the timer thread: it has looked at the head and
/// is not waiting yet.
pub const WINDOW: &str = "exercise c4: looked at the head, not yet waiting";

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

/// The queue, under its own lock.
#[derive(Default)]
struct Queue {
    heap: BinaryHeap<Entry>,
    next_seq: u64,
}

struct Shared {
    queue: Mutex<Queue>,
    /// The monitor the thread waits on; it guards the stop flag.
    monitor: Mutex<bool>,
    /// Signalled, under the monitor, when a task is added or the timer stops.
    changed: Condvar,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A timer whose thread waits on a monitor for the earliest task.
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
            queue: Mutex::new(Queue::default()),
            monitor: Mutex::new(false),
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
        {
            let mut queue = lock(&self.shared.queue);
            let seq = queue.next_seq;
            queue.next_seq += 1;
            queue.heap.push(Entry {
                due,
                seq,
                task: Box::new(task),
            });
        }
        let _monitor = lock(&self.shared.monitor);
        self.shared.changed.notify_one();
        Ok(())
    }
}

/// The timer thread.
fn main_loop(shared: &Shared) {
    loop {
        let now = Instant::now();
        // Look at the head under the queue's lock; run it if it is due.
        let wait = {
            let mut queue = lock(&shared.queue);
            match queue.heap.peek().map(|head| head.due) {
                Some(due) if due <= now => {
                    let entry = queue.heap.pop().expect("the head we just peeked");
                    drop(queue); // tasks run outside the lock
                    (entry.task)();
                    continue;
                }
                Some(due) => Some(due - now),
                None => None,
            }
        };
        kit::pause_point(WINDOW);
        // TODO(C4): the queue's lock is free here, and the monitor not yet
        // taken: a client can insert a task due sooner and notify, and
        // nobody is waiting to hear it. Close this gap.
        let stopped = lock(&shared.monitor);
        if *stopped {
            return;
        }
        let _stopped = match wait {
            Some(wait) => {
                shared
                    .changed
                    .wait_timeout(stopped, wait)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0
            }
            None => shared
                .changed
                .wait(stopped)
                .unwrap_or_else(PoisonError::into_inner),
        };
    }
}

impl Drop for Timer {
    /// Stops the thread and waits for it; tasks not yet run are dropped.
    fn drop(&mut self) {
        *lock(&self.shared.monitor) = true;
        self.shared.changed.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
