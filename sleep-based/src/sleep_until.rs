//! The sleep-based timer: take the earliest task, sleep until it is due, run
//! it.
//!
//! Deadlines are `Instant`s, the monotonic clock: stage 1's N3 taught that a
//! wall-clock deadline moves when someone sets the date.
//!
//! Java has a `PriorityBlockingQueue`; Rust's standard library has a
//! `BinaryHeap` and a `Condvar`. Together they make the same thing: a heap
//! behind a mutex, and a condvar that `take` waits on only while the heap is
//! empty. The wait for a deadline is a plain `thread::sleep`, and that is the
//! flaw: a sleeping thread sees nothing that happens meanwhile (S1).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::io;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::error::ScheduleError;

// ANCHOR: entry
/// A task and when it is due.
struct Entry {
    due: Instant,
    /// Submission order: two tasks due at the same instant run first come,
    /// first served.
    seq: u64,
    task: Box<dyn FnOnce() + Send>,
}

/// Earliest deadline first: `BinaryHeap` pops its greatest element, so an
/// entry is "greater" when it is due sooner.
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        (other.due, other.seq).cmp(&(self.due, self.seq))
    }
}
// ANCHOR_END: entry

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

// ANCHOR: queue
/// The priority blocking queue, and the timer's one piece of state.
struct Queue {
    heap: BinaryHeap<Entry>,
    next_seq: u64,
    stopped: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    /// Signalled when a task is added or the timer stops; `take` waits on it
    /// only while the heap is empty.
    not_empty: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // Tasks never run under this lock, so a poisoned lock can only come
        // from a bug here, and a heap stays a heap either way.
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Blocks while the queue is empty; then removes the earliest task.
    /// `None` once the timer is stopped.
    fn take(&self) -> Option<Entry> {
        let mut queue = self.lock();
        while queue.heap.is_empty() && !queue.stopped {
            queue = self
                .not_empty
                .wait(queue)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if queue.stopped {
            return None;
        }
        queue.heap.pop()
    }
}
// ANCHOR_END: queue

// ANCHOR: timer
/// A timer whose thread sleeps until the earliest task is due. See the
/// module docs.
pub struct Timer {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}
// ANCHOR_END: timer

impl Timer {
    /// A timer whose thread is named `name`. The thread starts here.
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be spawned.
    pub fn new(name: &str) -> io::Result<Timer> {
        if name.contains('\0') {
            // std would panic on it; a bad name is bad input, so an error.
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a thread name cannot contain NUL",
            ));
        }
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                heap: BinaryHeap::new(),
                next_seq: 0,
                stopped: false,
            }),
            not_empty: Condvar::new(),
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
        // Wakes a `take` waiting on an empty queue. It cannot wake a
        // `thread::sleep`: that is bug S1.
        self.shared.not_empty.notify_one();
        Ok(())
    }
    // ANCHOR_END: schedule
}

// ANCHOR: main_loop
/// The timer thread.
fn main_loop(shared: &Shared) {
    while let Some(entry) = shared.take() {
        kit::pause_point("sleep-based::sleep_until: took the head, going to sleep");
        // Blind until `due`: a task added now, due sooner, waits (S1).
        thread::sleep(entry.due.saturating_duration_since(Instant::now()));
        if shared.lock().stopped {
            return; // dropped while asleep: the task is dropped unrun
        }
        (entry.task)();
    }
}
// ANCHOR_END: main_loop

// ANCHOR: drop
impl Drop for Timer {
    /// Stops the thread and waits for it; queued tasks are dropped unrun.
    ///
    /// If the thread is asleep toward a task, this waits out that sleep:
    /// nothing can wake a `thread::sleep`. *A timer that will not stop* names that bug P2.
    fn drop(&mut self) {
        self.shared.lock().stopped = true;
        self.shared.not_empty.notify_all();
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
        let timer = Timer::new(&kit::threads::unique_name("sb-overflow")).unwrap();
        assert_eq!(
            timer.schedule(Duration::MAX, || {}),
            Err(ScheduleError::DelayOverflow(Duration::MAX))
        );
    }

    #[test]
    fn runs_tasks_earliest_deadline_first() {
        let name = kit::threads::unique_name("sb-order");
        let rec = kit::Recorder::new();
        let timer = Timer::new(&name).unwrap();
        // Hold the thread before it takes anything, so both tasks are queued
        // when it chooses.
        let hold = kit::pause::Pause::arm(
            "sleep-based::sleep_until: took the head, going to sleep",
            &name,
        );
        let blocker = rec.clone();
        timer
            .schedule(Duration::ZERO, move || {
                blocker.record("first");
            })
            .unwrap();
        hold.wait_reached();
        for (label, delay) in [("late", kit::ms(40)), ("early", kit::ms(20))] {
            let rec = rec.clone();
            timer
                .schedule(delay, move || {
                    rec.record(label);
                })
                .unwrap();
        }
        hold.release();
        assert!(rec.wait_until_count("late", 1, kit::ms(5000)).is_some());
        let order: Vec<_> = rec.events().into_iter().map(|e| e.what).collect();
        assert_eq!(order, ["first", "early", "late"]);
        drop(timer);
        kit::threads::assert_gone(&name);
    }
}
