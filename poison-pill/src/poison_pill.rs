//! Fix 2 (P4): the poison pill. `cancel` puts a message into the queue that
//! sorts before every task; the thread takes it as it takes a task, and its
//! loop ends. No flag is read by the thread, so none can be missed.
//!
//! A pill reaches the thread only where the thread waits on the pill's
//! queue. In the article's timer the thread also waits on a separate
//! monitor for the head's deadline, and there a pill is as unheard as a
//! flag (the P3 window stays open). So here the deadline wait moves into
//! the queue: `take` hands out an item only once it is due, as Java's
//! `DelayQueue` does, and the pill is always due. The thread blocks in one
//! place, inside the queue, and checks and waits under the queue's lock,
//! which every `put` takes too: the pill is either there when the thread
//! looks, or arrives while it waits and wakes it.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::io;
use std::sync::PoisonError;
use std::time::{Duration, Instant};

use crate::cancel_flag::Task;
use crate::error::ScheduleError;
use crate::sync::{self, Arc, AtomicBool, Condvar, Mutex, SeqCst, lock, thread};

// ANCHOR: item
/// What the queue holds: a task, or the pill.
enum Item {
    Task {
        deadline: Instant,
        run: Task,
    },
    /// Always due, and sorts before every task.
    Pill,
}

/// An item and the order it came in.
struct Entry {
    seq: u64,
    item: Item,
}

impl Entry {
    /// How long until the item is due; zero once it is (the pill always is).
    fn left(&self, now: Instant) -> Duration {
        match &self.item {
            Item::Task { deadline, .. } => deadline.saturating_duration_since(now),
            Item::Pill => Duration::ZERO,
        }
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap pops its greatest element: the pill, then the earliest
        // deadline, then the first to come.
        match (&self.item, &other.item) {
            (Item::Pill, Item::Pill) => Ordering::Equal,
            (Item::Pill, Item::Task { .. }) => Ordering::Greater,
            (Item::Task { .. }, Item::Pill) => Ordering::Less,
            (Item::Task { deadline: a, .. }, Item::Task { deadline: b, .. }) => {
                (b, other.seq).cmp(&(a, self.seq))
            }
        }
    }
}
// ANCHOR_END: item

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

/// A queue that hands out an item only once it is due (Java's
/// `DelayQueue`). Like the article's queue, it knows nothing about
/// cancelling: the pill is an item like any other.
struct DelayQueue {
    heap: Mutex<Heap>,
    /// Notified when a new head arrives.
    changed: Condvar,
}

struct Heap {
    entries: BinaryHeap<Entry>,
    next_seq: u64,
}

impl DelayQueue {
    fn new() -> DelayQueue {
        DelayQueue {
            heap: Mutex::new(Heap {
                entries: BinaryHeap::new(),
                next_seq: 0,
            }),
            changed: Condvar::new(),
        }
    }

    // ANCHOR: put
    fn put(&self, item: Item) {
        let mut heap = lock(&self.heap);
        let seq = heap.next_seq;
        heap.next_seq += 1;
        let entry = Entry { seq, item };
        let new_head = heap.entries.peek().is_none_or(|head| entry > *head);
        heap.entries.push(entry);
        if new_head {
            // The taker waits for the old head (or for anything at all);
            // under this lock it is either waiting or has not looked yet.
            self.changed.notify_one();
        }
    }
    // ANCHOR_END: put

    // ANCHOR: take
    /// Blocks until the head is due, and takes it.
    fn take(&self) -> Item {
        let mut heap = lock(&self.heap);
        loop {
            let now = sync::now();
            match heap.entries.peek().map(|head| head.left(now)) {
                None => {
                    kit::pause_point("poison-pill::poison_pill: queue empty, about to wait");
                    heap = self
                        .changed
                        .wait(heap)
                        .unwrap_or_else(PoisonError::into_inner);
                }
                Some(left) if left.is_zero() => {
                    return heap.entries.pop().expect("the head we just peeked").item;
                }
                Some(left) => {
                    // Still under the lock `put` takes: a pill cannot slip
                    // in between this look and the wait. No P3 window.
                    kit::pause_point("poison-pill::poison_pill: peeked the head, not yet waiting");
                    heap = self
                        .changed
                        .wait_timeout(heap, left)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0;
                }
            }
        }
    }
    // ANCHOR_END: take

    /// Takes every item out, to be dropped outside the lock.
    fn take_all(&self) -> BinaryHeap<Entry> {
        std::mem::take(&mut lock(&self.heap).entries)
    }
}

struct Shared {
    /// Read by `schedule` only: the thread learns of a cancel from the pill.
    cancelled: AtomicBool,
    queue: DelayQueue,
}

/// A timer with one thread that stops when it takes the poison pill.
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
            queue: DelayQueue::new(),
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
        // A cancel between the check above and this put leaves the task
        // behind the pill: accepted, and discarded like any queued task.
        self.shared.queue.put(Item::Task {
            deadline,
            run: Box::new(task),
        });
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
        if !self.shared.cancelled.swap(true, SeqCst) {
            self.shared.queue.put(Item::Pill);
        }
    }
    // ANCHOR_END: cancel
}

// ANCHOR: main_loop
fn main_loop(shared: &Shared) {
    loop {
        kit::pause_point("poison-pill::poison_pill: about to take");
        match shared.queue.take() {
            Item::Task { run, .. } => run(),
            Item::Pill => break,
        }
    }
    // What is still queued is discarded, dropped outside the queue's lock.
    drop(shared.queue.take_all());
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
