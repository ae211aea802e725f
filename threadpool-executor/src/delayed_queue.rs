//! The delayed work queue: the scheduled pool's [`WorkQueue`], a heap
//! ordered by deadline whose takers wait leader-follower (T10), and whose
//! items can leave from the middle in O(log n) (T14's fix).
//!
//! ScheduledThreadPoolExecutor is a ThreadPoolExecutor with another queue:
//! Java's `DelayedWorkQueue`. Its workers call the same `take` and `poll`;
//! what changes is what "an item is there" means: the head exists **and is
//! due**. Three ideas make it, each a section below:
//!
//! - **A heap in a `Vec`**, ordered by (deadline, sequence): the
//!   earliest deadline is the root, and among equal deadlines the one
//!   scheduled first (a number every item is given at creation). Pushing
//!   and popping cost O(log n). Each item has sixteen children, not two,
//!   and the heap's array keeps a copy of each item's key: both for speed
//!   with many tasks queued (`ARITY` and `Entry` say why).
//! - **Items that know where they sit.** Every time the heap moves an
//!   item, it writes the item's new position into the item itself
//!   ([`Delayed::heap_index`]). Cancelling a task then finds it at once and
//!   removes it in O(log n) ([`DelayedQueue::remove_item`]), instead of a
//!   linear search, or, worse, no removal at all: a cancelled task left in
//!   the queue until its deadline is T14 (`cancelled_tasks_retained`).
//! - **Leader-follower waiting.** A worker can only wait for the head to
//!   become due. If every idle worker waited, timed, for that deadline,
//!   all of them would wake when it comes, and all but one would find
//!   nothing to do and go back to sleep: the thundering herd of T10 (see
//!   [`crate::herd`]). Instead one worker, the *leader*, waits timed for
//!   the head; every other one, a *follower*, waits without a time limit.
//!   The leader takes the head when it is due and, on its way out, wakes
//!   one follower, who becomes the next leader. A new, earlier head makes
//!   the leader's deadline wrong: `offer` then clears the leader and wakes
//!   one taker, who leads for the new head.
//!
//! One lock guards the heap and the leader, and one condition variable
//! carries every wake-up (the JDK's `ReentrantLock` and `available`). An
//! interrupt (`shutdown_now`) wakes takers through the same condition
//! variable, as in [`crate::queue`].
//!
//! Leader-follower still costs two wake-ups per task when more are queued:
//! the leader's, and the follower's it hands on to. [`crate::successor`]
//! goes one step further ([`Wait::LeaderSuccessor`], the scheduled pool's
//! default): a second taker waits timed for the next deadline and becomes
//! the leader without being woken.

use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use interrupt_cancel::interrupt::{InterruptToken, Interrupted, Wake};

use crate::deadline::Deadline;
use crate::queue::{Ticket, WorkQueue};
use crate::sync::{Arc, Condvar, Mutex, MutexGuard};
use crate::{herd, successor};

/// What the delayed queue holds: something with a deadline, a creation
/// number, and a slot the queue writes its heap position into.
///
/// The queue reads `deadline` and `sequence` once, when the item is
/// offered, and orders by that copy, so neither may change while the item
/// is queued (a periodic task sets its next deadline after it was taken,
/// and before it is offered again). An item sits in at most one queue at a
/// time.
pub trait Delayed: Send + Sync + 'static {
    /// When the item is due.
    fn deadline(&self) -> Deadline;
    /// FIFO tie-break among equal deadlines: an increasing number, given
    /// at creation or by [`number`](Delayed::number).
    fn sequence(&self) -> u64;
    /// Called by the queue, under its lock, each time it takes the item,
    /// with the queue's next number; returns the number the item goes by.
    /// By default the item keeps the one it was made with. Stage 6's
    /// tasks take the queue's instead, the first time only (a periodic
    /// task keeps its number, as in the JDK): a counter under a lock the
    /// queue holds anyway costs no atomic read-modify-write of its own.
    fn number(&self, next: u64) -> u64 {
        let _ = next;
        self.sequence()
    }
    /// Where the item sits in the queue's heap, or [`NOT_QUEUED`]; kept by
    /// the queue, under its lock only. Start it at [`NOT_QUEUED`].
    fn heap_index(&self) -> &AtomicUsize;
}

/// The [`Delayed::heap_index`] of an item in no queue.
pub const NOT_QUEUED: usize = usize::MAX;

/// The plainest [`Delayed`] item: a deadline, a creation number, the
/// queue's slot, and a value of any type beside them. For what looks at
/// the queue alone (its tests, its loom models, an example, the benches);
/// the scheduled pool queues tasks of its own.
#[derive(Debug)]
pub struct Plain<V = ()> {
    /// What the item carries: a name for a test to read back, or nothing.
    pub value: V,
    deadline: Deadline,
    sequence: u64,
    index: AtomicUsize,
}

impl<V> Plain<V> {
    /// An item due at `deadline`, numbered `sequence`, in no queue yet.
    pub fn new(deadline: Deadline, sequence: u64, value: V) -> Plain<V> {
        Plain {
            value,
            deadline,
            sequence,
            index: AtomicUsize::new(NOT_QUEUED),
        }
    }
}

impl<V: Send + Sync + 'static> Delayed for Plain<V> {
    fn deadline(&self) -> Deadline {
        self.deadline
    }
    fn sequence(&self) -> u64 {
        self.sequence
    }
    fn heap_index(&self) -> &AtomicUsize {
        &self.index
    }
}

/// How idle takers wait for the head to become due.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Wait {
    /// One leader waits timed for the head; the others wait untimed (the
    /// JDK's, the fix of T10).
    #[default]
    LeaderFollower,
    /// Buggy: every idle taker waits timed on the head, and a new head
    /// wakes them all (src/herd.rs, T10 `thundering_herd`).
    Herd,
    /// One leader waits timed for the head, one successor timed for the
    /// item after it, the others untimed: when the leader takes the head,
    /// the successor leads without a wake-up (src/successor.rs, ours: one
    /// wake-up per fired task instead of two).
    LeaderSuccessor,
}

/// A queue of [`Delayed`] items, taken in deadline order when due.
///
/// Clones share one queue, so a test can keep one to look at.
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::AtomicUsize;
/// use std::time::Duration;
/// use interrupt_cancel::interrupt::InterruptToken;
/// use threadpool_executor::deadline::Deadline;
/// use threadpool_executor::delayed_queue::{Delayed, DelayedQueue, NOT_QUEUED};
/// use threadpool_executor::queue::WorkQueue;
///
/// struct Item(Deadline, u64, AtomicUsize);
/// impl Delayed for Item {
///     fn deadline(&self) -> Deadline { self.0 }
///     fn sequence(&self) -> u64 { self.1 }
///     fn heap_index(&self) -> &AtomicUsize { &self.2 }
/// }
/// let item = |delay: u64, sequence| {
///     let due = Deadline::now().after(Duration::from_millis(delay));
///     Arc::new(Item(due, sequence, AtomicUsize::new(NOT_QUEUED)))
/// };
///
/// let queue = DelayedQueue::new();
/// let (late, soon, cancelled) = (item(20, 1), item(1, 2), item(5, 3));
/// for i in [&late, &soon, &cancelled] {
///     queue.offer(Arc::clone(i)).ok().unwrap();
/// }
/// assert!(queue.poll_now().is_none(), "nothing is due yet");
/// assert!(queue.remove_item(&cancelled));
/// let token = InterruptToken::new();
/// assert!(Arc::ptr_eq(&queue.take(&token)?, &soon));
/// assert!(Arc::ptr_eq(&queue.take(&token)?, &late));
/// assert_eq!(queue.len(), 0);
/// # Ok::<(), interrupt_cancel::interrupt::Interrupted>(())
/// ```
pub struct DelayedQueue<T: Delayed + ?Sized> {
    shared: Arc<Shared<T>>,
}

impl<T: Delayed + ?Sized> Clone for DelayedQueue<T> {
    fn clone(&self) -> Self {
        DelayedQueue {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<T: Delayed + ?Sized> Default for DelayedQueue<T> {
    fn default() -> Self {
        DelayedQueue::new()
    }
}

/// Where a taker stops after it took an item and released the lock: the
/// leadership is handed on by then.
const TOOK: &str = "threadpool-executor::delayed_queue: took an item, leadership handed on";

/// What the takers, `offer`, and an interrupt's waker share.
pub(crate) struct Shared<T: ?Sized> {
    state: Mutex<State<T>>,
    /// Notified, under `state`, when a taker may have something to do: a
    /// new head, leadership handed on, an interrupt.
    available: Condvar,
    wait: Wait,
}

/// Everything the lock guards.
pub(crate) struct State<T: ?Sized> {
    heap: Heap<T>,
    /// The taker waiting timed for the head, if one is: Java's `leader`
    /// thread. A number given to each call of `take` or `poll`.
    pub(crate) leader: Option<u64>,
    /// The taker waiting timed for the item after the head, if one is
    /// (only [`Wait::LeaderSuccessor`] has one).
    pub(crate) successor: Option<u64>,
    /// The number the next taking call gets.
    pub(crate) next_taker: u64,
    /// The number [`Delayed::number`] offers the next item queued.
    next_sequence: u64,
    /// Takers inside a wait right now.
    waiting: usize,
    /// Waits that have ended, for whatever reason: the cost T10 counts.
    wakeups: u64,
}

impl<T: Delayed + ?Sized> State<T> {
    /// The head's deadline, if there is a head.
    pub(crate) fn head(&self) -> Option<Deadline> {
        self.heap.items.first().map(|head| head.key.0)
    }

    /// Where the *second* is: the item that becomes the head when the head
    /// is taken, the earliest of the head's children.
    pub(crate) fn second_index(&self) -> Option<usize> {
        let items = &self.heap.items;
        (1..items.len().min(ARITY + 1)).min_by_key(|&at| items[at].key)
    }

    /// The second's deadline, if there is a second.
    pub(crate) fn second(&self) -> Option<Deadline> {
        self.second_index().map(|at| self.heap.items[at].key.0)
    }

    /// Takes the head out. The second becomes the head, so a successor
    /// (timed for it) becomes the leader; with no successor the leader is
    /// left as it is (src/successor.rs).
    pub(crate) fn pop(&mut self) -> Option<Arc<T>> {
        if self.heap.items.is_empty() {
            return None;
        }
        if let Some(successor) = self.successor.take() {
            self.leader = Some(successor);
        }
        Some(self.heap.remove_at(0))
    }
}

impl<T: Delayed + ?Sized> Shared<T> {
    /// Waits on `available` until notified, or until `until` (`None`, or a
    /// deadline too far for an `Instant`: no time limit). Counts the wait
    /// and its end.
    pub(crate) fn park(&self, state: &mut MutexGuard<'_, State<T>>, until: Option<Deadline>) {
        state.waiting += 1;
        match until.and_then(Deadline::to_instant) {
            Some(instant) => self.available.wait_until(state, instant),
            None => self.available.wait(state),
        }
        state.waiting -= 1;
        state.wakeups += 1;
    }

    /// Wakes one waiting taker, any one.
    pub(crate) fn notify_one(&self) {
        self.available.notify_one();
    }

    /// Wakes every waiting taker: the herd's answer to a new head.
    pub(crate) fn notify_all(&self) {
        self.available.notify_all();
    }
}

impl<T: Delayed + ?Sized> Wake for Shared<T> {
    fn wake(&self) {
        // The taker checks its interrupt under this lock before it waits:
        // holding it here means this notify cannot fall between the two.
        // Every taker wakes; those not interrupted go back to waiting.
        let _state = self.state.lock();
        self.available.notify_all();
    }
}

// ---------------------------------------------------------------------
// The heap.

/// A heap in a `Vec` with [`ARITY`] children per item: the children of
/// `i` are `16i + 1` to `16i + 16`, and no child comes before its parent.
/// Every item's [`Delayed::heap_index`] is its position.
struct Heap<T: ?Sized> {
    items: Vec<Entry<T>>,
}

/// Children per item. A binary heap would do, and is the textbook's;
/// sixteen is for speed at scale. Every item the heap moves must learn its
/// new place: a write to a task that, with 10^5 tasks queued, is rarely in
/// the cache, and that the unlock (a locked instruction on x86) then waits
/// for. That write is the cost that grows with the heap, so the heap is
/// made to move few items. A simulation of a heap of random deadlines
/// moves, per push, 1.27 items with two children, 0.29 with eight, 0.17
/// with sixteen; per removal from the middle 1.22, 0.23, 0.12; per pop 16,
/// 6 and 5. The price is comparisons on the way down, sixteen per level,
/// on keys that lie side by side in the array: six cache lines read in a
/// row.
pub(crate) const ARITY: usize = 16;

/// What the heap orders by: the deadline, then the creation number, so
/// that tasks due at the same moment run in the order they were scheduled.
type Key = (Deadline, u64);

/// One place in the heap: an item and a copy of its key.
///
/// The copy is for speed at scale. With 10^5 tasks queued, a task the heap
/// compares is rarely in the cache, and reading its deadline through the
/// `Arc` waits for memory at every level of a sift. The keys in the heap's
/// own array sit side by side instead: a sift reads only the array, and
/// touches a task only to write its new place.
struct Entry<T: ?Sized> {
    key: Key,
    item: Arc<T>,
}

/// An item's key, read from the item itself.
fn key<T: Delayed + ?Sized>(item: &T) -> Key {
    (item.deadline(), item.sequence())
}

impl<T: Delayed + ?Sized> Heap<T> {
    /// Writes an item's position into it.
    fn placed(&self, index: usize) {
        // ORDERING: Relaxed is enough: the index is written and read only
        // under the queue's lock, and the lock orders every access.
        self.items[index].item.heap_index().store(index, Relaxed);
    }

    // ANCHOR: sift
    /// Moves the item at `index` up while it comes before its parent;
    /// returns where it stopped. Every item moved learns its new place.
    fn sift_up(&mut self, mut index: usize) -> usize {
        while index > 0 {
            let parent = (index - 1) / ARITY;
            if self.items[parent].key <= self.items[index].key {
                break;
            }
            self.items.swap(parent, index);
            self.placed(index); // the parent, moved down
            index = parent;
        }
        self.placed(index);
        index
    }
    // ANCHOR_END: sift

    /// Moves the item at `index` down while a child comes before it;
    /// returns where it stopped.
    fn sift_down(&mut self, mut index: usize) -> usize {
        loop {
            let first = ARITY * index + 1;
            let children = first..(first + ARITY).min(self.items.len());
            let Some(child) = children.min_by_key(|&child| self.items[child].key) else {
                break; // a leaf
            };
            if self.items[index].key <= self.items[child].key {
                break;
            }
            self.items.swap(index, child);
            self.placed(index); // the child, moved up
            index = child;
        }
        self.placed(index);
        index
    }

    /// Adds `item`; returns where it landed (0: it is the new head).
    fn push(&mut self, item: Arc<T>) -> usize {
        let key = key(&*item);
        self.items.push(Entry { key, item });
        self.sift_up(self.items.len() - 1)
    }

    /// Takes out the item at `index`: the last item fills the hole and
    /// sifts down, or, if it belongs higher than the hole, up.
    fn remove_at(&mut self, index: usize) -> Arc<T> {
        let removed = self.items.swap_remove(index).item;
        if index < self.items.len() && self.sift_down(index) == index {
            self.sift_up(index);
        }
        // ORDERING: as in `placed`.
        removed.heap_index().store(NOT_QUEUED, Relaxed);
        removed
    }

    /// Where `item` is, if it is in this heap: its own index, checked (an
    /// item taken, removed, or in another queue points elsewhere).
    fn index_of(&self, item: &Arc<T>) -> Option<usize> {
        // ORDERING: as in `placed`.
        let index = item.heap_index().load(Relaxed);
        (index < self.items.len() && Arc::ptr_eq(&self.items[index].item, item)).then_some(index)
    }
}

// ---------------------------------------------------------------------
// The queue.

impl<T: Delayed + ?Sized> DelayedQueue<T> {
    /// An empty queue whose takers wait leader-follower.
    pub fn new() -> Self {
        DelayedQueue::with_wait(Wait::LeaderFollower)
    }

    /// An empty queue whose takers wait as `wait` says.
    pub fn with_wait(wait: Wait) -> Self {
        DelayedQueue {
            shared: Arc::new(Shared {
                state: Mutex::new(State {
                    heap: Heap { items: Vec::new() },
                    leader: None,
                    successor: None,
                    next_taker: 0,
                    next_sequence: 1,
                    waiting: 0,
                    wakeups: 0,
                }),
                available: Condvar::new(),
                wait,
            }),
        }
    }

    /// How its takers wait.
    pub fn wait_kind(&self) -> Wait {
        self.shared.wait
    }

    // ANCHOR: remove_item
    /// Takes `item` out of the queue in O(log n), through the index it
    /// carries: what cancelling a scheduled task does (T14's fix). `false`
    /// if it is not queued here (already taken, or removed).
    ///
    /// A leader waiting for a removed head wakes at that deadline, finds
    /// the new head, and waits again: one wake-up too many, nothing lost.
    pub fn remove_item(&self, item: &Arc<T>) -> bool {
        let mut state = self.shared.state.lock();
        match state.heap.index_of(item) {
            Some(index) => {
                state.heap.remove_at(index);
                true
            }
            None => false,
        }
    }
    // ANCHOR_END: remove_item

    /// A copy of the queued items, in no particular order: to look through
    /// them, and take some out with [`DelayedQueue::remove_item`], without
    /// holding the lock (the scheduled pool's shutdown policies).
    pub fn snapshot(&self) -> Vec<Arc<T>> {
        let state = self.shared.state.lock();
        state
            .heap
            .items
            .iter()
            .map(|entry| Arc::clone(&entry.item))
            .collect()
    }

    /// Whether `item` is queued here.
    pub fn contains(&self, item: &Arc<T>) -> bool {
        self.shared.state.lock().heap.index_of(item).is_some()
    }

    /// The head's deadline: when the next item is due.
    pub fn peek_deadline(&self) -> Option<Deadline> {
        self.shared.state.lock().head()
    }

    /// How many times a taker came back from a wait: timed out, notified,
    /// or woken spuriously. What the thundering herd costs (T10).
    pub fn wakeups(&self) -> u64 {
        self.shared.state.lock().wakeups
    }

    /// How many takers are waiting right now: idle workers.
    pub fn waiting(&self) -> usize {
        self.shared.state.lock().waiting
    }

    /// Whether a taker is waiting, timed, for the head (always `false`
    /// for [`Wait::Herd`], which has no leader).
    pub fn has_leader(&self) -> bool {
        self.shared.state.lock().leader.is_some()
    }

    /// Whether a taker is waiting, timed, for the item after the head
    /// (only ever `true` for [`Wait::LeaderSuccessor`]).
    pub fn has_successor(&self) -> bool {
        self.shared.state.lock().successor.is_some()
    }

    /// `take` and `poll` in one: waits until an item is due, or until
    /// `limit` (`None`: forever).
    fn wait_for(
        &self,
        limit: Option<Deadline>,
        token: &InterruptToken,
    ) -> Result<Option<Arc<T>>, Interrupted> {
        let _blocked = token.block_on(Arc::clone(&self.shared) as Arc<dyn Wake>)?;
        let taken = {
            let mut state = self.shared.state.lock();
            match self.shared.wait {
                Wait::LeaderFollower => self.leader_follower(&mut state, limit, token),
                Wait::Herd => herd::wait_for(&self.shared, &mut state, limit, token),
                Wait::LeaderSuccessor => {
                    successor::wait_for(&self.shared, &mut state, limit, token)
                }
            }
        };
        if let Ok(Some(_)) = taken {
            kit::pause_point(TOOK);
        }
        taken
    }

    /// Leader-follower: waits until the head is due, the JDK's way.
    fn leader_follower(
        &self,
        state: &mut MutexGuard<'_, State<T>>,
        limit: Option<Deadline>,
        token: &InterruptToken,
    ) -> Result<Option<Arc<T>>, Interrupted> {
        // ANCHOR: take
        let shared = &*self.shared;
        let me = state.next_taker;
        state.next_taker += 1;
        let taken = loop {
            let now = Deadline::now();
            let head = state.head();
            if head.is_some_and(|due| due <= now) {
                break Ok(state.pop());
            }
            if let Err(interrupted) = token.check() {
                break Err(interrupted);
            }
            if limit.is_some_and(|limit| limit <= now) {
                break Ok(None);
            }
            match head {
                // Nobody times the head, and it is due before our own
                // limit: lead. Wait timed for it.
                Some(due) if state.leader.is_none() && limit.is_none_or(|limit| due <= limit) => {
                    state.leader = Some(me);
                    shared.park(state, Some(due));
                    // `offer` of an earlier head clears the leader, and
                    // another taker may lead now: give up only our own.
                    if state.leader == Some(me) {
                        state.leader = None;
                    }
                }
                // No head: wait for an offer. Or a leader times the head:
                // follow, without a time limit, until it hands on (or
                // until our own limit).
                _ => shared.park(state, limit),
            }
        };
        // ANCHOR_END: take
        // ANCHOR: hand_on_after_take
        // Whatever ends this call (an item, a time-out, an interrupt), a
        // head nobody times would be missed: the followers wait untimed.
        // Wake one to lead.
        if state.leader.is_none() && !state.heap.items.is_empty() {
            shared.available.notify_one();
        }
        taken
    }
    // ANCHOR_END: hand_on_after_take
}

impl<T: Delayed + ?Sized> WorkQueue<Arc<T>> for DelayedQueue<T> {
    // ANCHOR: offer
    /// Never refuses for room (the queue is unbounded). The ticket is the
    /// item's sequence number.
    ///
    /// # Errors
    /// Gives `item` back if it is queued already (here or in another
    /// queue): queued twice, its index would point at one place only.
    fn offer(&self, item: Arc<T>) -> Result<Ticket, Arc<T>> {
        let shared = &*self.shared;
        let mut state = shared.state.lock();
        // ORDERING: as in `Heap::placed`.
        if item.heap_index().load(Relaxed) != NOT_QUEUED {
            return Err(item);
        }
        let ticket = Ticket(item.number(state.next_sequence));
        state.next_sequence += 1;
        let at = state.heap.push(item);
        match shared.wait {
            // A new head: whoever waits timed waits for the wrong
            // deadline, too late.
            Wait::LeaderFollower if at == 0 => {
                state.leader = None;
                shared.available.notify_one();
            }
            Wait::Herd if at == 0 => herd::new_head(shared),
            // A new head or a new second: src/successor.rs.
            Wait::LeaderSuccessor => successor::offered(shared, &mut state, at),
            _ => {}
        }
        Ok(ticket)
    }
    // ANCHOR_END: offer

    fn take(&self, token: &InterruptToken) -> Result<Arc<T>, Interrupted> {
        self.wait_for(None, token)
            .map(|item| item.expect("an untimed wait ends with an item"))
    }

    fn poll(
        &self,
        timeout: Duration,
        token: &InterruptToken,
    ) -> Result<Option<Arc<T>>, Interrupted> {
        // Saturates: a timeout too long for the clock is FOREVER.
        self.wait_for(Some(Deadline::now().after(timeout)), token)
    }

    /// Takes the head if it is due; never waits.
    fn poll_now(&self) -> Option<Arc<T>> {
        let mut state = self.shared.state.lock();
        let due = state.head().is_some_and(|due| due <= Deadline::now());
        if due { state.pop() } else { None }
    }

    /// Finds the item by its sequence number: a linear scan, for the rare
    /// path (`execute` withdrawing its own task); cancelling uses
    /// [`DelayedQueue::remove_item`].
    fn remove(&self, ticket: Ticket) -> Option<Arc<T>> {
        let mut state = self.shared.state.lock();
        let index = state
            .heap
            .items
            .iter()
            .position(|entry| entry.key.1 == ticket.0)?;
        Some(state.heap.remove_at(index))
    }

    /// Every item, due or not, in deadline order.
    fn drain(&self) -> Vec<Arc<T>> {
        let mut entries = std::mem::take(&mut self.shared.state.lock().heap.items);
        entries.sort_by_key(|entry| entry.key);
        let items: Vec<Arc<T>> = entries.into_iter().map(|entry| entry.item).collect();
        for item in &items {
            // ORDERING: as in `Heap::placed`; these items are ours now.
            item.heap_index().store(NOT_QUEUED, Relaxed);
        }
        items
    }

    /// Every item, due or not.
    fn len(&self) -> usize {
        self.shared.state.lock().heap.items.len()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    type Item = Plain;

    /// A linear congruential generator from a fixed start (Knuth's MMIX constants):
    /// the same "random" operations on every run, no dependency.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self, below: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 33) % below
        }
    }

    /// Every item's index is its position, and no child comes before its
    /// parent.
    fn check(heap: &Heap<Item>, step: usize) {
        for (i, entry) in heap.items.iter().enumerate() {
            assert_eq!(
                entry.item.index.load(Relaxed),
                i,
                "step {step}: index of item at {i}"
            );
            assert_eq!(entry.key, key(&*entry.item), "step {step}: key at {i}");
            if i > 0 {
                let parent = (i - 1) / ARITY;
                assert!(
                    heap.items[parent].key <= entry.key,
                    "step {step}: item at {i} comes before its parent"
                );
            }
        }
    }

    #[test]
    fn random_offers_and_removes_keep_order_and_indices() {
        let mut rng = Lcg(0x7410);
        let mut heap = Heap { items: Vec::new() };
        let mut outside: Vec<Arc<Item>> = Vec::new();
        let mut sequence = 0;
        for step in 0..4_000 {
            match rng.next(10) {
                // Offer a new item (deadlines collide often: the sequence
                // must break the ties).
                0..=4 => {
                    sequence += 1;
                    heap.push(Arc::new(Item::new(
                        Deadline::from_nanos(rng.next(50)),
                        sequence,
                        (),
                    )));
                }
                // Pop the head: it is the least key.
                5..=6 => {
                    if !heap.items.is_empty() {
                        let least = heap.items.iter().map(|e| e.key).min().unwrap();
                        let head = heap.remove_at(0);
                        assert_eq!(key(&*head), least, "step {step}");
                        outside.push(head);
                    }
                }
                // Remove an item from anywhere, through its own index.
                7..=8 => {
                    if !heap.items.is_empty() {
                        let at = rng.next(heap.items.len() as u64) as usize;
                        let victim = Arc::clone(&heap.items[at].item);
                        let at = heap.index_of(&victim).expect("queued");
                        assert!(Arc::ptr_eq(&heap.remove_at(at), &victim));
                        assert_eq!(heap.index_of(&victim), None, "step {step}");
                        outside.push(victim);
                    }
                }
                // An item not in the heap is not found.
                _ => {
                    if let Some(gone) = outside.last() {
                        assert_eq!(gone.index.load(Relaxed), NOT_QUEUED);
                        assert_eq!(heap.index_of(gone), None, "step {step}");
                    }
                }
            }
            check(&heap, step);
        }
        // Popping everything gives the keys in order.
        let mut last = None;
        while !heap.items.is_empty() {
            let next = key(&*heap.remove_at(0));
            assert!(last <= Some(next));
            last = Some(next);
            check(&heap, usize::MAX);
        }
    }
}
