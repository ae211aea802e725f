//! The work queue: where `execute` leaves a task that no new thread takes,
//! and where idle workers wait for one.
//!
//! ThreadPoolExecutor takes any `BlockingQueue`, and the queue's capacity
//! decides how the pool grows (T1, T2), because `execute` starts a thread
//! above core size only when the queue refuses a task:
//!
//! - [`Capacity::Unbounded`] never refuses, so the pool never grows past
//!   its core size: the maximum is dead (T2). Java's `LinkedBlockingQueue`.
//! - [`Capacity::Bounded`] refuses when full: a burst fills the queue,
//!   then grows the pool to its maximum, then is rejected (T1, T3). Java's
//!   `ArrayBlockingQueue`.
//! - [`Capacity::HandOff`] holds nothing: an offer succeeds only if a
//!   worker is waiting right then to take it, so every task either meets an
//!   idle worker or starts a new one. Java's `SynchronousQueue`, the cached
//!   pool's queue (T9).
//!
//! [`WorkQueue`] is what the pool asks of a queue, so a scheduled pool can
//! bring its own (a heap ordered by deadline) and reuse everything else.
//! Every blocking call takes the worker's [`InterruptToken`]: that is how
//! `shutdown` wakes an idle worker and `shutdown_now` stops a busy one
//! (stage 5's I1, reused).

use std::collections::VecDeque;
use std::sync::atomic::Ordering::{Relaxed, Release, SeqCst};
use std::time::{Duration, Instant};

use interrupt_cancel::interrupt::{InterruptToken, Interrupted, Wake};

use crate::error::ConfigError;
use crate::sync::{self, Arc, AtomicU64, AtomicUsize, Condvar, Mutex};

/// What `offer` returns for an item it queued: the handle `remove` takes
/// back. `execute` uses it to withdraw its own task after a shutdown (T7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ticket(pub u64);

// ANCHOR: work_queue
/// What the pool needs of its queue: Java's `BlockingQueue`, cut down to
/// the calls ThreadPoolExecutor makes.
pub trait WorkQueue<T>: Send + Sync {
    /// Adds `item` if there is room right now, without waiting.
    ///
    /// # Errors
    /// Gives `item` back if the queue is full (a hand-off queue is full
    /// unless a taker is waiting).
    fn offer(&self, item: T) -> Result<Ticket, T>;

    /// Waits for an item, however long: a worker at or below core size.
    ///
    /// # Errors
    /// [`Interrupted`] if `token`'s interrupt is raised while it waits.
    fn take(&self, token: &InterruptToken) -> Result<T, Interrupted>;

    /// Waits for an item at most `timeout`: a worker that may time out.
    /// `Ok(None)` means the time ran out.
    ///
    /// # Errors
    /// [`Interrupted`] if `token`'s interrupt is raised while it waits.
    fn poll(&self, timeout: Duration, token: &InterruptToken) -> Result<Option<T>, Interrupted>;

    /// Takes the oldest item, if there is one, without waiting.
    fn poll_now(&self) -> Option<T>;

    /// Takes back the item `offer` gave `ticket` for, if nobody took it.
    fn remove(&self, ticket: Ticket) -> Option<T>;

    /// Whether the item `offer` gave `ticket` for is still queued. Only
    /// asked to forget tickets early: the default (yes) is safe.
    fn contains(&self, ticket: Ticket) -> bool {
        let _ = ticket;
        true
    }

    /// Takes every item, oldest first.
    fn drain(&self) -> Vec<T>;

    /// As `drain`, each item with its ticket (the default has none).
    fn drain_with_tickets(&self) -> Vec<(Option<Ticket>, T)> {
        self.drain().into_iter().map(|item| (None, item)).collect()
    }

    /// How many items are queued.
    fn len(&self) -> usize;

    /// Whether nothing is queued. The pool decides termination on this.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
// ANCHOR_END: work_queue

/// How much a [`TaskQueue`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capacity {
    /// As much as memory allows.
    Unbounded,
    /// At most this many items (at least one).
    Bounded(usize),
    /// Nothing: an item passes only to a taker already waiting.
    HandOff,
}

/// A FIFO [`WorkQueue`] with a [`Capacity`]. Clones share one queue, so a
/// test can keep one to look at.
///
/// Two locks, as Java's `LinkedBlockingQueue` has: `offer` locks only the
/// tail, takers lock only the head, so the thread that submits and the
/// workers that take do not fight over one lock. A taker that finds the
/// head empty moves everything queued at the tail to the head in one swap.
/// A hand-off queue uses the head alone: whether a taker waits is known
/// only there.
///
/// ```
/// use interrupt_cancel::interrupt::InterruptToken;
/// use threadpool_executor::queue::{TaskQueue, WorkQueue};
///
/// let queue = TaskQueue::bounded(1)?;
/// assert!(queue.offer("a").is_ok());
/// assert_eq!(queue.offer("b"), Err("b"), "full");
/// assert_eq!(queue.take(&InterruptToken::new()), Ok("a"));
///
/// let hand_off = TaskQueue::hand_off();
/// assert_eq!(hand_off.offer("c"), Err("c"), "nobody is waiting to take it");
/// # Ok::<(), threadpool_executor::error::ConfigError>(())
/// ```
pub struct TaskQueue<T> {
    shared: Arc<Shared<T>>,
}

impl<T> Clone for TaskQueue<T> {
    fn clone(&self) -> Self {
        TaskQueue {
            shared: Arc::clone(&self.shared),
        }
    }
}

/// How many times a taker looks for an item before it blocks.
const SPIN_STEPS: u32 = 12;
/// Spins before the second look, doubling each time.
const SPIN_FIRST: u32 = 16;

/// Items with their ticket numbers, oldest first.
type Items<T> = VecDeque<(u64, T)>;

// ANCHOR: shared
struct Shared<T> {
    capacity: Capacity,
    /// The submitters' end. Not used by a hand-off queue.
    tail: Padded<Mutex<Items<T>>>,
    /// Items ever added; also the next item's ticket.
    added: Padded<AtomicU64>,
    /// The takers' end.
    head: Padded<Head<T>>,
    /// Takers about to wait, or waiting. Changed under the head's lock,
    /// read by every `offer`.
    waiting: Padded<AtomicUsize>,
}

struct Head<T> {
    items: Mutex<Items<T>>,
    /// Notified, under `items`, when an item arrives for a waiting taker,
    /// and by an interrupt's waker.
    available: Condvar,
    /// Items ever taken out. `added - removed` is the length, read without
    /// a lock.
    removed: AtomicU64,
}
// ANCHOR_END: shared

/// How `pop` looks at the tail when the head is empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Look {
    /// Only if the counters say an item is there: fast, and a stale count
    /// only means one more look later.
    IfCounted,
    /// Under the tail's lock, always: what a taker about to wait must do.
    /// The lock orders this look with every `offer`; the counters alone
    /// would need the two threads' SeqCst accesses to be ordered too,
    /// which loom does not model.
    Always,
}

/// Keeps a field on cache lines of its own. The submitter writes the tail
/// and `added` for every task, the workers write the head, and each reads
/// what the others write only when it must: sharing a line would make
/// every write of one side a cache miss for the other.
#[repr(align(128))]
struct Padded<T>(T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

// ANCHOR: wake
impl<T: Send> Wake for Shared<T> {
    fn wake(&self) {
        // The taker checks its interrupt under this lock before it waits:
        // holding it here means this notify cannot fall between the two.
        let _head = self.head.items.lock();
        self.head.available.notify_all();
    }
}
// ANCHOR_END: wake

/// Adds `by` to a counter that only one thread writes at a time: every
/// write of it is made under one lock (`added` under the tail's, or the
/// head's in a hand-off queue; `removed` under the head's). A load and a
/// store then do what `fetch_add` would, without its read-modify-write: a
/// locked instruction on x86 (as is a SeqCst store), which waits for every
/// earlier store of the thread to reach the cache, on every task.
fn bump(counter: &AtomicU64, by: u64) -> u64 {
    // ORDERING: the lock orders the writes, so Relaxed reads the last one.
    // Release: a reader that sees the new count sees what came before it.
    // The counts decide nothing that must be exact (see `Look`): a stale
    // one means one more look.
    let before = counter.load(Relaxed);
    counter.store(before + by, Release);
    before
}

impl<T> Shared<T> {
    fn len(&self) -> usize {
        // `removed` first: it never passes `added`, so this never wraps.
        let removed = self.head.removed.load(SeqCst);
        (self.added.load(SeqCst) - removed) as usize
    }

    /// The oldest item, from the head, or else from everything at the
    /// tail, moved to the head at once. The tail's lock is taken only if
    /// the counters say something is there (each look takes its cache line
    /// away from the submitter), unless `look` is [`Look::Always`].
    fn pop(&self, head: &mut Items<T>, look: Look) -> Option<T> {
        if head.is_empty()
            && self.capacity != Capacity::HandOff
            && (look == Look::Always || self.len() > 0)
        {
            std::mem::swap(head, &mut *self.tail.lock());
        }
        let (_, item) = head.pop_front()?;
        bump(&self.head.removed, 1);
        Some(item)
    }
}

impl<T: Send + 'static> TaskQueue<T> {
    fn with(capacity: Capacity) -> TaskQueue<T> {
        TaskQueue {
            shared: Arc::new(Shared {
                capacity,
                tail: Padded(Mutex::new(VecDeque::new())),
                added: Padded(AtomicU64::new(0)),
                head: Padded(Head {
                    items: Mutex::new(VecDeque::new()),
                    available: Condvar::new(),
                    removed: AtomicU64::new(0),
                }),
                waiting: Padded(AtomicUsize::new(0)),
            }),
        }
    }

    /// A queue that never refuses.
    pub fn unbounded() -> TaskQueue<T> {
        TaskQueue::with(Capacity::Unbounded)
    }

    /// A queue that holds at most `capacity` items.
    ///
    /// # Errors
    /// [`ConfigError::ZeroCapacity`] for 0: use [`TaskQueue::hand_off`].
    pub fn bounded(capacity: usize) -> Result<TaskQueue<T>, ConfigError> {
        if capacity == 0 {
            return Err(ConfigError::ZeroCapacity);
        }
        Ok(TaskQueue::with(Capacity::Bounded(capacity)))
    }

    /// A queue that holds nothing: `offer` succeeds only while a taker is
    /// waiting, and the item goes to that taker.
    pub fn hand_off() -> TaskQueue<T> {
        TaskQueue::with(Capacity::HandOff)
    }

    /// Its capacity.
    pub fn capacity(&self) -> Capacity {
        self.shared.capacity
    }

    /// How many takers are blocked in `take` or `poll` right now: idle
    /// workers, for a pool's queue.
    pub fn waiting(&self) -> usize {
        self.shared.waiting.load(SeqCst)
    }

    /// Adds `item` to the head of a hand-off queue, if a taker waits for
    /// it: one item for each taker waiting, and none for nobody.
    fn hand_over(&self, item: T) -> Result<Ticket, T> {
        let shared = &*self.shared;
        let mut head = shared.head.items.lock();
        if head.len() >= shared.waiting.load(SeqCst) {
            return Err(item);
        }
        let ticket = bump(&shared.added, 1);
        head.push_back((ticket, item));
        shared.head.available.notify_one();
        Ok(Ticket(ticket))
    }

    /// Looks for an item a few times before a taker blocks, spinning, then
    /// yielding, as crossbeam's channels do: a worker that sleeps when the
    /// next task is a microsecond away costs the submitter a wake-up (a
    /// system call) for every task.
    fn spin_for_item(&self) -> Option<T> {
        let shared = &*self.shared;
        for step in 0..SPIN_STEPS {
            if let Some(item) = shared.pop(&mut shared.head.items.lock(), Look::IfCounted) {
                return Some(item);
            }
            if cfg!(loom) {
                break; // loom explores every interleaving: no need to wait
            } else if step < SPIN_STEPS / 2 {
                for _ in 0..SPIN_FIRST << step {
                    std::hint::spin_loop();
                }
            } else {
                sync::thread::yield_now();
            }
        }
        None
    }

    // ANCHOR: wait_for
    /// `take` and `poll` in one: waits until `deadline` (`None`: forever).
    fn wait_for(
        &self,
        deadline: Option<Instant>,
        token: &InterruptToken,
    ) -> Result<Option<T>, Interrupted> {
        let shared = &*self.shared;
        // The fast path: an item is there, or comes while we spin a little.
        // No registration, no wait, and no wake-up for `offer` to pay.
        if let Some(item) = self.spin_for_item() {
            return Ok(Some(item));
        }
        let _blocked = token.block_on(Arc::clone(&self.shared) as Arc<dyn Wake>)?;
        let mut head = shared.head.items.lock();
        loop {
            // An item first: a hand-off counted on this taker when it
            // accepted the item, so a taker that leaves must take it.
            if let Some(item) = shared.pop(&mut head, Look::Always) {
                return Ok(Some(item));
            }
            token.check()?;
            if deadline.is_some_and(|deadline| deadline <= sync::now()) {
                return Ok(None);
            }
            // Announce the wait, then look at the tail once more: an offer
            // that came before the announcement is seen by this look, and
            // one that came after sees the announcement and notifies.
            shared.waiting.fetch_add(1, SeqCst);
            let last_look = shared.pop(&mut head, Look::Always);
            if last_look.is_none() {
                match deadline {
                    Some(deadline) => shared.head.available.wait_until(&mut head, deadline),
                    None => shared.head.available.wait(&mut head),
                }
            }
            shared.waiting.fetch_sub(1, SeqCst);
            if let Some(item) = last_look {
                return Ok(Some(item));
            }
        }
    }
    // ANCHOR_END: wait_for
}

/// Where the item of `ticket` is queued, if it is: in the head (`true`)
/// or the tail, and at which index. Head, then tail: the order `pop`
/// takes them in, so a ticket no later than the head's last is the head's.
fn locate<T>(head: &Items<T>, tail: &Items<T>, ticket: Ticket) -> Option<(bool, usize)> {
    let in_head = head.back().is_some_and(|(last, _)| ticket.0 <= *last);
    let items = if in_head { head } else { tail };
    let index = items
        .binary_search_by_key(&ticket.0, |(number, _)| *number)
        .ok()?;
    Some((in_head, index))
}

impl<T: Send + 'static> WorkQueue<T> for TaskQueue<T> {
    // ANCHOR: offer
    fn offer(&self, item: T) -> Result<Ticket, T> {
        let shared = &*self.shared;
        if shared.capacity == Capacity::HandOff {
            return self.hand_over(item);
        }
        let ticket = {
            let mut tail = shared.tail.lock();
            // Only `offer` adds, under this lock: the length cannot grow
            // between this look and the push.
            if let Capacity::Bounded(capacity) = shared.capacity
                && shared.len() >= capacity
            {
                return Err(item);
            }
            let ticket = bump(&shared.added, 1);
            tail.push_back((ticket, item));
            ticket
        };
        // Nobody waiting, no lock and no notify: under load, the common
        // case. A taker about to wait holds `head` from its announcement
        // to its wait, so this notify cannot fall between the two.
        if shared.waiting.load(SeqCst) > 0 {
            let _head = shared.head.items.lock();
            shared.head.available.notify_one();
        }
        Ok(Ticket(ticket))
    }
    // ANCHOR_END: offer

    fn take(&self, token: &InterruptToken) -> Result<T, Interrupted> {
        self.wait_for(None, token)
            .map(|item| item.expect("an untimed wait ends with an item"))
    }

    fn poll(&self, timeout: Duration, token: &InterruptToken) -> Result<Option<T>, Interrupted> {
        // A keep-alive too long for the clock is no time limit at all.
        self.wait_for(sync::now().checked_add(timeout), token)
    }

    fn poll_now(&self) -> Option<T> {
        let shared = &*self.shared;
        shared.pop(&mut shared.head.items.lock(), Look::Always)
    }

    fn remove(&self, ticket: Ticket) -> Option<T> {
        let shared = &*self.shared;
        let mut head = shared.head.items.lock();
        let mut tail = shared.tail.lock();
        let (in_head, index) = locate(&head, &tail, ticket)?;
        let items = if in_head { &mut *head } else { &mut *tail };
        let (_, item) = items.remove(index)?;
        bump(&shared.head.removed, 1);
        Some(item)
    }

    fn contains(&self, ticket: Ticket) -> bool {
        let shared = &*self.shared;
        let head = shared.head.items.lock();
        let tail = shared.tail.lock();
        locate(&head, &tail, ticket).is_some()
    }

    fn drain(&self) -> Vec<T> {
        self.drain_with_tickets()
            .into_iter()
            .map(|(_, item)| item)
            .collect()
    }

    fn drain_with_tickets(&self) -> Vec<(Option<Ticket>, T)> {
        let shared = &*self.shared;
        let mut head = shared.head.items.lock();
        let mut tail = shared.tail.lock();
        let items: Vec<(Option<Ticket>, T)> = head
            .drain(..)
            .chain(tail.drain(..))
            .map(|(ticket, item)| (Some(Ticket(ticket)), item))
            .collect();
        bump(&shared.head.removed, items.len() as u64);
        items
    }

    fn len(&self) -> usize {
        self.shared.len()
    }

    /// Under both locks: termination is decided on this, so it must be
    /// ordered with every `offer`, as a taker's last look is.
    fn is_empty(&self) -> bool {
        let shared = &*self.shared;
        let head = shared.head.items.lock();
        let tail = shared.tail.lock();
        head.is_empty() && tail.is_empty()
    }
}
