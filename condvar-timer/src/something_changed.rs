//! The C++ TimerQueue post's queue, written fresh: a wake-up means
//! "something has changed, look again", never "here is work".
//!
//! One thread owns the queue's clock. It computes how long to wait, waits on
//! a [`Semaphore`] until then, and runs whatever is due. Clients that add or
//! cancel only change the queue and notify the semaphore. A notify that
//! lands before the thread waits is kept as a permit, so the wait returns at
//! once and the thread looks again: nothing is lost, and a wake-up with
//! nothing to do costs one more look.
//!
//! What the queue promises:
//!
//! - every handler runs exactly once: with `aborted = false` at its
//!   deadline, or with `aborted = true` if it was cancelled first;
//! - handlers always run on the queue's own thread, and never while the
//!   queue's lock is held, so a handler may call back into the queue;
//! - dropping the queue cancels every pending handler (each runs, aborted)
//!   and joins the thread;
//! - the order of handlers due at the same moment is not promised.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::collections::binary_heap::PeekMut;
use std::io;
use std::time::{Duration, Instant};

use crate::error::ScheduleError;
use crate::semaphore::Semaphore;
use crate::sync::{self, Arc, Mutex, thread};

/// Names one timer of one queue, to cancel it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimerId(u64);

/// What a timer runs: told `true` if it was cancelled, `false` if it is due.
type Handler = Box<dyn FnOnce(bool) + Send + 'static>;

// ANCHOR: item
/// One entry of the queue.
pub(crate) struct Item {
    /// When the thread takes it out and runs it.
    pub(crate) due: Instant,
    /// Insertion order: equal deadlines leave in the order they came.
    seq: u64,
    id: TimerId,
    /// Set by a cancel: the handler will be told `aborted = true`.
    pub(crate) cancelled: bool,
    /// `None` once `cancel` has moved the handler into a new item: what is
    /// left is a husk, which the thread drops without running anything.
    handler: Option<Handler>,
}
// ANCHOR_END: item

impl Ord for Item {
    /// Reversed, because `BinaryHeap` pops the greatest and we want the
    /// earliest deadline first.
    fn cmp(&self, other: &Item) -> Ordering {
        (other.due, other.seq).cmp(&(self.due, self.seq))
    }
}

impl PartialOrd for Item {
    fn partial_cmp(&self, other: &Item) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Item {
    fn eq(&self, other: &Item) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Item {}

/// How `cancel_all` marks the items: `&mut` access to every item, the time
/// to make them due at, and the number of handlers it newly cancelled.
pub(crate) type CancelAll = fn(&mut [Item], Instant) -> usize;

struct State {
    items: BinaryHeap<Item>,
    next_id: u64,
    next_seq: u64,
    /// Set by shutdown: once nothing more is due, the thread exits.
    stopping: bool,
}

impl State {
    fn push(&mut self, due: Instant, id: TimerId, cancelled: bool, handler: Option<Handler>) {
        self.next_seq += 1;
        let seq = self.next_seq;
        self.items.push(Item {
            due,
            seq,
            id,
            cancelled,
            handler,
        });
    }

    /// Lets `f` change any item, then rebuilds the heap: O(n). `BinaryHeap`
    /// only hands out its head mutably; the C++ queue's `cancel` and
    /// `cancelAll` scan every item too.
    fn with_items<R>(&mut self, f: impl FnOnce(&mut [Item]) -> R) -> R {
        let mut items = std::mem::take(&mut self.items).into_vec();
        let result = f(&mut items);
        self.items = BinaryHeap::from(items);
        result
    }
}

struct Shared {
    state: Mutex<State>,
    /// "Something has changed": notified by every add, cancel and shutdown.
    check_work: Semaphore,
}

/// A timer queue with its own thread. See the module docs for what it
/// promises.
pub struct TimerQueue {
    shared: Arc<Shared>,
    thread: Option<thread::JoinHandle<usize>>,
    cancel_all: CancelAll,
}

impl TimerQueue {
    /// Starts a queue whose thread is named `name` (Linux keeps 15 bytes).
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be started.
    pub fn new(name: &str) -> io::Result<TimerQueue> {
        TimerQueue::with_cancel_all(name, cancel_every_item)
    }

    /// Starts a queue whose `cancel_all` marks items with `cancel_all`: the
    /// hook `cancel_all_skips_cancelled` uses to keep the C++ queue's old
    /// bug.
    pub(crate) fn with_cancel_all(name: &str, cancel_all: CancelAll) -> io::Result<TimerQueue> {
        if name.contains('\0') {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a thread name cannot contain a NUL byte",
            ));
        }
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                items: BinaryHeap::new(),
                next_id: 0,
                next_seq: 0,
                stopping: false,
            }),
            check_work: Semaphore::new(),
        });
        let thread = {
            let shared = Arc::clone(&shared);
            thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || run(&shared))?
        };
        Ok(TimerQueue {
            shared,
            thread: Some(thread),
            cancel_all,
        })
    }

    // ANCHOR: add
    /// Runs `handler(false)` on the queue's thread once `delay` has passed,
    /// or `handler(true)` if the timer is cancelled first.
    ///
    /// # Errors
    /// [`ScheduleError::DelayOverflow`] if `now + delay` overflows the clock.
    pub fn add(
        &self,
        delay: Duration,
        handler: impl FnOnce(bool) + Send + 'static,
    ) -> Result<TimerId, ScheduleError> {
        let due = sync::now()
            .checked_add(delay)
            .ok_or(ScheduleError::DelayOverflow(delay))?;
        let mut state = sync::lock(&self.shared.state);
        state.next_id += 1;
        let id = TimerId(state.next_id);
        state.push(due, id, false, Some(Box::new(handler)));
        drop(state);
        // Something changed. Whether the thread waits already or is about
        // to, the permit reaches it: it looks again and sees the new head.
        self.shared.check_work.notify();
        Ok(id)
    }
    // ANCHOR_END: add

    // ANCHOR: cancel
    /// Cancels timer `id`: its handler runs as soon as possible, on the
    /// queue's thread, with `aborted = true`.
    ///
    /// Returns `false` if it was too late (or `id` was never ours). Too late
    /// does not mean the handler has run: the thread may have taken it out
    /// a moment ago and be about to run it (C8).
    pub fn cancel(&self, id: TimerId) -> bool {
        let now = sync::now();
        let mut state = sync::lock(&self.shared.state);
        let handler = state.with_items(|items| {
            let item = items.iter_mut().find(|i| i.id == id && !i.cancelled)?;
            item.cancelled = true;
            // `take` leaves `None` behind: the husk has nothing left to run
            // (C6). The C++ queue moved the handler out and had to clear the
            // source by hand; before it did, a handler could run twice.
            item.handler.take()
        });
        let Some(handler) = handler else {
            return false;
        };
        // As in the C++ queue: the husk stays in the heap with its old
        // deadline, and the handler moves to a new item, due now.
        state.push(now, id, true, Some(handler));
        drop(state);
        self.shared.check_work.notify();
        true
    }
    // ANCHOR_END: cancel

    // ANCHOR: all_cancelled
    /// Cancels every pending timer: each handler runs, with
    /// `aborted = true`, as soon as possible. Returns how many it cancelled
    /// (timers cancelled before are not counted again).
    pub fn cancel_all(&self) -> usize {
        let cancelled = self.cancel_all_locked(&mut sync::lock(&self.shared.state));
        self.shared.check_work.notify();
        cancelled
    }

    fn cancel_all_locked(&self, state: &mut State) -> usize {
        let (cancel_all, now) = (self.cancel_all, sync::now());
        state.with_items(|items| cancel_all(items, now))
    }
    // ANCHOR_END: all_cancelled

    // ANCHOR: shutdown
    /// Cancels everything, waits for the thread to run the aborted handlers
    /// and exit, and returns how many items were still in the queue when it
    /// exited: always 0 here, 1 or more with the faulty `cancel_all` of
    /// [`cancel_all_skips_cancelled`](crate::cancel_all_skips_cancelled).
    ///
    /// `None` if there is nobody to wait for: called from one of this
    /// queue's own handlers (a thread cannot join itself, so the thread is
    /// left to finish the cancelled handlers and exit on its own), or a
    /// handler panicked and took the thread down. Dropping the queue does
    /// the same as this method.
    pub fn shutdown(mut self) -> Option<usize> {
        self.stop()
    }

    fn stop(&mut self) -> Option<usize> {
        let thread = self.thread.take()?;
        // Cancel and stop in one go: the thread sees both or neither.
        let mut state = sync::lock(&self.shared.state);
        self.cancel_all_locked(&mut state);
        state.stopping = true;
        drop(state);
        self.shared.check_work.notify();
        if thread.thread().id() == thread::current().id() {
            return None; // dropped inside a handler: never join yourself
        }
        thread.join().ok()
    }
    // ANCHOR_END: shutdown
}

impl Drop for TimerQueue {
    /// Cancels every pending handler and joins the thread (unless this runs
    /// on that thread, inside a handler: see [`TimerQueue::shutdown`]).
    fn drop(&mut self) {
        self.stop();
    }
}

// ANCHOR: every_item_cancelled
/// The fixed `cancel_all`: every item becomes due now and cancelled,
/// husks included, so nothing keeps a far deadline past shutdown (C7).
fn cancel_every_item(items: &mut [Item], now: Instant) -> usize {
    let mut cancelled = 0;
    for item in items {
        if !item.cancelled {
            cancelled += 1;
        }
        item.due = now;
        item.cancelled = true;
    }
    cancelled
}
// ANCHOR_END: every_item_cancelled

// ANCHOR: run
/// The queue's thread: wait for a change, run what is due, repeat. Returns
/// how many items were left in the queue when it exits.
fn run(shared: &Shared) -> usize {
    loop {
        let wait = next_deadline(shared);
        kit::pause_point("condvar-timer::something_changed: computed the wait, not yet waiting");
        // An add or cancel landing here notifies the semaphore before we
        // wait on it. The permit stays, the wait below returns at once and
        // we compute the wait again: the wake-up C1 loses is kept.
        match wait {
            Some(deadline) => {
                shared.check_work.wait_until(deadline);
            }
            None => shared.check_work.wait(),
        }
        if let Some(left) = run_due(shared) {
            return left;
        }
    }
}

/// The deadline of the first item that still has a handler, dropping the
/// husks that `cancel` left in front of it; `None` for an empty queue.
fn next_deadline(shared: &Shared) -> Option<Instant> {
    let mut state = sync::lock(&shared.state);
    while let Some(head) = state.items.peek() {
        if head.handler.is_some() {
            return Some(head.due);
        }
        state.items.pop();
    }
    None
}
// ANCHOR_END: run

// ANCHOR: fire_due_tasks
/// Runs every due item, unlocking around each handler. Returns the number
/// of items left once shutdown has begun and nothing more is due.
fn run_due(shared: &Shared) -> Option<usize> {
    let mut state = sync::lock(&shared.state);
    while let Some(item) = pop_due(&mut state.items, sync::now()) {
        let Some(handler) = item.handler else {
            continue; // a husk
        };
        // Never call a handler under the lock: it may add or cancel.
        drop(state);
        kit::pause_point("condvar-timer::something_changed: about to run a handler");
        handler(item.cancelled);
        state = sync::lock(&shared.state);
    }
    state.stopping.then(|| state.items.len())
}

fn pop_due(items: &mut BinaryHeap<Item>, now: Instant) -> Option<Item> {
    let head = items.peek_mut()?;
    (head.due <= now).then(|| PeekMut::pop(head))
}
// ANCHOR_END: fire_due_tasks
