//! A delay queue whose `take` can be interrupted (I1): Java's `DelayQueue`,
//! with `Err(Interrupted)` for `InterruptedException`.
//!
//! [`InterruptibleQueue::take`] blocks in the two places a timer thread
//! blocks: on an empty queue (where stage 4's P1 left the thread for good)
//! and until the head's deadline (where P2 left it until that deadline).
//! Both waits observe the caller's interrupt, so one
//! [`InterruptHandle::interrupt`](crate::interrupt::InterruptHandle::interrupt)
//! ends either at once.
//!
//! The pause points mark every step of the take/wait cycle; the I1 tests
//! raise an interrupt at each of them and check that none is lost.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

use crate::interrupt::{InterruptToken, Interrupted, Wake};
use crate::sync::{self, Arc, Condvar, Mutex};

/// A blocking queue ordered by deadline; see the module docs. Clones share
/// one queue.
///
/// ```
/// use interrupt_cancel::interrupt::{InterruptToken, Interrupted};
/// use interrupt_cancel::interruptible_queue::InterruptibleQueue;
/// use std::time::Duration;
///
/// let queue = InterruptibleQueue::new();
/// let token = InterruptToken::new();
/// queue.push_after(Duration::from_millis(1), "soon").unwrap();
/// assert_eq!(queue.take(&token), Ok("soon"));
///
/// // An hour away: only an interrupt ends this take.
/// queue.push_after(Duration::from_secs(3600), "later").unwrap();
/// let handle = token.handle();
/// let taker = std::thread::spawn({
///     let queue = queue.clone();
///     move || queue.take(&token)
/// });
/// handle.interrupt();
/// assert_eq!(taker.join().unwrap(), Err(Interrupted));
/// ```
pub struct InterruptibleQueue<T> {
    shared: Arc<Shared<T>>,
}

impl<T> Clone for InterruptibleQueue<T> {
    fn clone(&self) -> Self {
        InterruptibleQueue {
            shared: Arc::clone(&self.shared),
        }
    }
}

struct Shared<T> {
    state: Mutex<State<T>>,
    /// Notified on a new head, on close, and by an interrupt's waker.
    changed: Condvar,
}

struct State<T> {
    heap: BinaryHeap<Entry<T>>,
    next_seq: u64,
    /// Set by `close`: `push` refuses from then on.
    closed: bool,
}

/// An item and when it is due; `seq` keeps equal deadlines in order.
struct Entry<T> {
    deadline: Instant,
    seq: u64,
    item: T,
}

impl<T> Ord for Entry<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap pops its greatest element: reverse, earliest first.
        (other.deadline, other.seq).cmp(&(self.deadline, self.seq))
    }
}

impl<T> PartialOrd for Entry<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> PartialEq for Entry<T> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<T> Eq for Entry<T> {}

// ANCHOR: wake
impl<T: Send> Wake for Shared<T> {
    fn wake(&self) {
        // Taking the lock is the point: a taker that checked its interrupt
        // under it and is about to wait still holds it, so this notify
        // comes after its wait began and cannot be lost.
        let _state = self.state.lock();
        self.changed.notify_all();
    }
}
// ANCHOR_END: wake

impl<T: Send + 'static> Default for InterruptibleQueue<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Send + 'static> InterruptibleQueue<T> {
    /// An empty, open queue.
    pub fn new() -> InterruptibleQueue<T> {
        InterruptibleQueue {
            shared: Arc::new(Shared {
                state: Mutex::new(State {
                    heap: BinaryHeap::new(),
                    next_seq: 0,
                    closed: false,
                }),
                changed: Condvar::new(),
            }),
        }
    }

    /// Adds `item`, due at `deadline`. Wakes a taker only if `item` is the
    /// new head: a later item changes nothing it waits for.
    ///
    /// # Errors
    /// Gives `item` back if the queue is closed.
    pub fn push(&self, deadline: Instant, item: T) -> Result<(), T> {
        let mut state = self.shared.state.lock();
        if state.closed {
            return Err(item);
        }
        let seq = state.next_seq;
        state.next_seq += 1;
        state.heap.push(Entry {
            deadline,
            seq,
            item,
        });
        if state.heap.peek().is_some_and(|head| head.seq == seq) {
            self.shared.changed.notify_all();
        }
        Ok(())
    }

    /// Adds `item`, due `delay` from now (on the stage's clock: the one
    /// loom freezes).
    ///
    /// # Errors
    /// Gives `item` back if the queue is closed, or if `now + delay` is
    /// past the end of the clock.
    pub fn push_after(&self, delay: Duration, item: T) -> Result<(), T> {
        match sync::now().checked_add(delay) {
            Some(deadline) => self.push(deadline, item),
            None => Err(item),
        }
    }

    // ANCHOR: take
    /// Waits until the head is due and takes it.
    ///
    /// # Errors
    /// [`Interrupted`] if `token`'s interrupt is raised before the call or
    /// while it waits, on an empty queue or for a deadline.
    pub fn take(&self, token: &InterruptToken) -> Result<T, Interrupted> {
        let _blocked = token.block_on(Arc::clone(&self.shared) as Arc<dyn Wake>)?;
        kit::pause_point(
            "interrupt-cancel::interruptible_queue: registered the waker, not yet locked",
        );
        let mut state = self.shared.state.lock();
        loop {
            // An interrupt raised since `block_on` may have notified before
            // we held the lock, reaching nobody: read the flag under it.
            token.check()?;
            let now = sync::now();
            match state.heap.peek().map(|head| head.deadline) {
                None => {
                    kit::pause_point(
                        "interrupt-cancel::interruptible_queue: queue empty, not yet waiting",
                    );
                    self.shared.changed.wait(&mut state);
                }
                Some(deadline) if deadline <= now => {
                    return Ok(state.heap.pop().expect("the head we just peeked").item);
                }
                Some(deadline) => {
                    kit::pause_point(
                        "interrupt-cancel::interruptible_queue: head not due, not yet waiting",
                    );
                    self.shared.changed.wait_until(&mut state, deadline);
                }
            }
            kit::pause_point(
                "interrupt-cancel::interruptible_queue: woke up, not yet looked again",
            );
        }
    }
    // ANCHOR_END: take

    /// Closes the queue: later pushes are refused, and the items queued now
    /// are dropped (after the lock is released: an item's drop may run any
    /// code). Returns how many were dropped.
    pub fn close(&self) -> usize {
        let dropped = {
            let mut state = self.shared.state.lock();
            state.closed = true;
            self.shared.changed.notify_all();
            std::mem::take(&mut state.heap)
        };
        dropped.len()
    }

    /// Whether [`InterruptibleQueue::close`] was called.
    pub fn is_closed(&self) -> bool {
        self.shared.state.lock().closed
    }

    /// How many items are queued.
    pub fn len(&self) -> usize {
        self.shared.state.lock().heap.len()
    }

    /// Whether no item is queued.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
