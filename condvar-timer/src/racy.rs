//! The Java Timer article's "serious solution", written fresh: a priority
//! queue, a separate monitor to wait on, and a timer thread that takes the
//! head, waits for it and puts it back.
//!
//! This version is problematic. Between taking the head and waiting on the
//! monitor there is a window: a client that inserts an earlier task right
//! then notifies a monitor nobody waits on, and the thread sleeps until the
//! later task is due (C1 `lost_wakeup`). And every wake-up takes the head
//! out and puts it back (C3).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::io;
use std::sync::PoisonError;
use std::time::{Duration, Instant};

use crate::error::ScheduleError;
use crate::sync::{self, Arc, Condvar, Mutex, lock, thread};

/// A task: runs once, on the timer thread.
pub(crate) type Task = Box<dyn FnOnce() + Send + 'static>;

/// A task and when it is due. The heap puts the earliest deadline on top;
/// `seq` keeps tasks with the same deadline in the order they came.
pub(crate) struct Entry {
    pub(crate) deadline: Instant,
    pub(crate) seq: u64,
    pub(crate) task: Task,
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

/// What the timer has done so far; see [`Timer::stats`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Entries put into the heap: one per `schedule`, one per put-back.
    pub pushes: u64,
    /// Entries taken out of the heap (to run, or to wait for).
    pub pops: u64,
    /// Notifies sent by `schedule` (when the new task became the head).
    pub notifies: u64,
    /// Times the thread came back from a timed wait for a deadline
    /// (notified, timed out, or woken spuriously).
    pub wakeups: u64,
}

// ANCHOR: shared
/// The queue, standing in for Java's `PriorityBlockingQueue`: its own lock,
/// and a condvar that `take` blocks on while the queue is empty.
struct Queue {
    heap: BinaryHeap<Entry>,
    next_seq: u64,
    /// Set by `Drop`: `take` returns `None` from now on.
    closed: bool,
    /// Counters for C3's test; they change nothing the timer does.
    stats: Stats,
}

struct Shared {
    queue: Mutex<Queue>,
    not_empty: Condvar,
    /// The article's `lock` object: the monitor the thread waits on. The
    /// article's guards nothing; ours guards one flag, "stopping", which
    /// `Drop` sets so that the thread stops instead of waiting again.
    monitor: Mutex<bool>,
    wakeup: Condvar,
}
// ANCHOR_END: shared

impl Shared {
    /// Blocks until the queue has an entry, and takes the head; `None` once
    /// the queue is closed.
    fn take(&self) -> Option<Entry> {
        let mut queue = lock(&self.queue);
        loop {
            if queue.closed {
                return None;
            }
            if let Some(entry) = queue.heap.pop() {
                queue.stats.pops += 1;
                return Some(entry);
            }
            queue = self
                .not_empty
                .wait(queue)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Puts an entry back after a wake-up (the article's `queue.offer`).
    fn put_back(&self, entry: Entry) {
        let mut queue = lock(&self.queue);
        queue.stats.wakeups += 1;
        queue.stats.pushes += 1;
        queue.heap.push(entry);
    }
}

/// A timer with one thread, built on wait/notify, that can lose a wake-up.
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
            queue: Mutex::new(Queue {
                heap: BinaryHeap::new(),
                next_seq: 0,
                closed: false,
                stats: Stats::default(),
            }),
            not_empty: Condvar::new(),
            monitor: Mutex::new(false),
            wakeup: Condvar::new(),
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
        let became_head = {
            let mut queue = lock(&self.shared.queue);
            let seq = queue.next_seq;
            queue.next_seq += 1;
            queue.heap.push(Entry {
                deadline,
                seq,
                task: Box::new(task),
            });
            queue.stats.pushes += 1;
            // The queue's own signal, for a `take` blocked on an empty queue.
            self.shared.not_empty.notify_one();
            let became_head = queue.heap.peek().is_some_and(|head| head.seq == seq);
            if became_head {
                queue.stats.notifies += 1;
            }
            became_head
        };
        if became_head {
            // Wakes the thread if it is waiting on the monitor. If it is
            // between `take` and `wait`, nobody hears this: C1.
            let _monitor = lock(&self.shared.monitor);
            self.shared.wakeup.notify_one();
        }
        Ok(())
    }
    // ANCHOR_END: schedule

    /// A snapshot of the counters (heap operations, notifies, wake-ups).
    pub fn stats(&self) -> Stats {
        lock(&self.shared.queue).stats
    }
}

// ANCHOR: main_loop
fn main_loop(shared: &Shared) {
    while let Some(entry) = shared.take() {
        let now = sync::now();
        if entry.deadline <= now {
            (entry.task)();
            continue;
        }
        // C1: the head is out of the queue and we are not waiting yet. A
        // client that inserts an earlier task now notifies nobody, and we
        // then wait for this entry's (later) deadline.
        kit::pause_point("condvar-timer::racy: took the head, not yet waiting");
        let stopping = lock(&shared.monitor);
        // Only for C3's test: held here, the thread keeps every notify out
        // (a notify needs the monitor) until it waits.
        kit::pause_point("condvar-timer::racy: holding the monitor, about to wait");
        // Drop sets the flag under this lock before notifying, so we either
        // see it here or are waiting when the notify comes.
        if *stopping {
            return;
        }
        let (stopping, _) = shared
            .wakeup
            .wait_timeout(stopping, entry.deadline - now)
            .unwrap_or_else(PoisonError::into_inner);
        drop(stopping);
        shared.put_back(entry);
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
            let mut queue = lock(&self.shared.queue);
            queue.closed = true;
            self.shared.not_empty.notify_all();
        }
        {
            let mut stopping = lock(&self.shared.monitor);
            *stopping = true;
            self.shared.wakeup.notify_all();
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
