//! The Java Timer article's first try at cancellation: `cancel` sets a flag,
//! and the timer thread reads it at the top of every turn of its loop.
//!
//! The timer underneath is stage 3's wait/notify timer (`racy.rs`): a
//! priority queue with its own lock, standing in for Java's
//! `PriorityBlockingQueue`; a thread that takes the head, waits for its
//! deadline on a separate monitor, and puts it back.
//!
//! This version is problematic. The thread reads the flag only between two
//! blocking calls, and a cancel ends neither of them:
//! - with nothing queued, the thread is blocked in `take`, and nothing a
//!   cancel does puts anything in the queue: the thread never ends, and a
//!   program whose `main` drops the timer never exits (P1
//!   `cancel_hangs_idle`);
//! - with a task due far out, the thread is in its timed wait for it and
//!   reads the flag only once the deadline has passed; then it ends without
//!   running the task (P2 `cancel_waits_for_deadline`).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::io;
use std::sync::PoisonError;
use std::time::{Duration, Instant};

use crate::error::ScheduleError;
use crate::sync::{self, Arc, AtomicBool, Condvar, Mutex, SeqCst, lock, thread};

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

// ANCHOR: queue
/// The article's `PriorityBlockingQueue`: a heap behind its own lock, whose
/// `take` blocks while it is empty. It knows nothing about cancelling.
pub(crate) struct BlockingQueue {
    heap: Mutex<Heap>,
    not_empty: Condvar,
}
// ANCHOR_END: queue

struct Heap {
    entries: BinaryHeap<Entry>,
    next_seq: u64,
}

impl BlockingQueue {
    pub(crate) fn new() -> BlockingQueue {
        BlockingQueue {
            heap: Mutex::new(Heap {
                entries: BinaryHeap::new(),
                next_seq: 0,
            }),
            not_empty: Condvar::new(),
        }
    }

    /// Adds a task; returns whether it became the head.
    pub(crate) fn put(&self, deadline: Instant, task: Task) -> bool {
        let mut heap = lock(&self.heap);
        let seq = heap.next_seq;
        heap.next_seq += 1;
        heap.entries.push(Entry {
            deadline,
            seq,
            task,
        });
        self.not_empty.notify_one();
        heap.entries.peek().is_some_and(|head| head.seq == seq)
    }

    /// Puts back an entry that `take` handed out (the article's `offer`).
    pub(crate) fn put_back(&self, entry: Entry) {
        lock(&self.heap).entries.push(entry);
        self.not_empty.notify_one();
    }

    // ANCHOR: take
    /// Blocks until the queue holds an entry, and takes the head.
    pub(crate) fn take(&self) -> Entry {
        let mut heap = lock(&self.heap);
        loop {
            if let Some(entry) = heap.entries.pop() {
                return entry;
            }
            heap = self
                .not_empty
                .wait(heap)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
    // ANCHOR_END: take
}

// ANCHOR: shared
struct Shared {
    /// The article's `AtomicBoolean`: set by `cancel`, read by the thread
    /// at the top of its loop and by `schedule`.
    cancelled: AtomicBool,
    queue: BlockingQueue,
    /// The article's `lock` object: the monitor the thread waits on for
    /// the head's deadline. It guards nothing.
    monitor: Mutex<()>,
    wakeup: Condvar,
}
// ANCHOR_END: shared

/// A timer with one thread and a cancel flag that a blocked thread never
/// reads.
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
            cancelled: AtomicBool::new(false),
            queue: BlockingQueue::new(),
            monitor: Mutex::new(()),
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
    /// [`ScheduleError::Cancelled`] once the timer is cancelled;
    /// [`ScheduleError::DelayOverflow`] if `now + delay` overflows the clock.
    pub fn schedule<F>(&self, delay: Duration, task: F) -> Result<(), ScheduleError>
    where
        F: FnOnce() + Send + 'static,
    {
        if self.shared.cancelled.load(SeqCst) {
            return Err(ScheduleError::Cancelled);
        }
        let deadline = sync::now()
            .checked_add(delay)
            .ok_or(ScheduleError::DelayOverflow(delay))?;
        if self.shared.queue.put(deadline, Box::new(task)) {
            let _monitor = lock(&self.shared.monitor);
            self.shared.wakeup.notify_one();
        }
        Ok(())
    }
    // ANCHOR_END: schedule

    // ANCHOR: cancel
    /// Asks the timer to stop: sets the flag, and nothing else. Returns at
    /// once; the thread stops whenever it next reads the flag, which may be
    /// never (P1) or at the head's deadline (P2).
    pub fn cancel(&self) {
        self.shared.cancelled.store(true, SeqCst);
    }
    // ANCHOR_END: cancel

    /// Not part of java.util.Timer, and not a fix: a way for a test to free
    /// a thread that P1 left blocked in `take`, so that no thread outlives
    /// its test.
    ///
    /// The returned function puts a no-op task, due now, into the queue,
    /// past the cancelled check: the thread takes it, runs it, reads the
    /// flag and ends.
    pub fn rescue(&self) -> impl Fn() + Send + Sync + 'static {
        let shared = Arc::clone(&self.shared);
        move || {
            shared.queue.put(sync::now(), Box::new(|| {}));
        }
    }

    /// Not part of java.util.Timer, and not a fix: a way for a test to end
    /// a thread that a cancel left in its timed wait until a far deadline
    /// (P2, P3) without waiting out the deadline, once the test has
    /// seen what it came for.
    ///
    /// The returned function notifies the monitor: the thread wakes, puts
    /// its task back, reads the flag and ends. A thread not cancelled goes
    /// back to its wait.
    pub fn rescue_from_wait(&self) -> impl Fn() + Send + Sync + 'static {
        let shared = Arc::clone(&self.shared);
        move || {
            let _monitor = lock(&shared.monitor);
            shared.wakeup.notify_all();
        }
    }
}

// ANCHOR: main_loop
fn main_loop(shared: &Shared) {
    while !shared.cancelled.load(SeqCst) {
        kit::pause_point("poison-pill::cancel_flag: checked the flag, about to take");
        // P1: on an empty queue this blocks until a task comes, and after
        // a cancel none comes: the flag is never read again.
        let entry = shared.queue.take();
        let now = sync::now();
        if entry.deadline <= now {
            (entry.task)();
            continue;
        }
        kit::pause_point("poison-pill::cancel_flag: took the head, not yet waiting");
        let monitor = lock(&shared.monitor);
        kit::pause_point("poison-pill::cancel_flag: holding the monitor, about to wait");
        // P2: only a new head's notify or the deadline ends this wait, and
        // `cancel` sends no notify.
        let (monitor, _) = shared
            .wakeup
            .wait_timeout(monitor, entry.deadline - now)
            .unwrap_or_else(PoisonError::into_inner);
        drop(monitor);
        shared.queue.put_back(entry);
    }
}
// ANCHOR_END: main_loop

// ANCHOR: drop
impl Drop for Timer {
    /// Cancels, then joins the thread: returns once the thread has ended,
    /// which here can be never (P1) or at the head's deadline (P2).
    ///
    /// On the timer thread itself (a task dropped the last owner) it only
    /// cancels: a thread cannot join itself.
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
