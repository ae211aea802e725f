//! loom models of the delayed queue's takers (T10): in every interleaving
//! an item that is due is taken, exactly once, and no taker is left
//! waiting untimed beside a due item: (a) an offer wakes a taker, (b) an
//! earlier head reaches past a leader waiting for a later one, (c) a
//! taker that took an item hands on to the next.
//!
//! Under loom the clock is frozen (src/sync.rs): an item due "now" is due
//! at once, and a later deadline never comes, so a leader's timed wait for
//! it is a plain wait that only a notify ends. A lost notify is then a
//! taker that never returns: loom reports it as a deadlock. To end a
//! model, the taker that got the item interrupts the other one, as
//! `shutdown_now` would.
//!
//! ```text
//! RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test -p threadpool-executor \
//!     --release --target-dir target/loom --test loom_delayed_queue
//! ```
#![cfg(loom)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::time::Duration;

use interrupt_cancel::interrupt::{InterruptHandle, InterruptToken};
use loom::thread::JoinHandle;
use threadpool_executor::deadline::Deadline;
use threadpool_executor::delayed_queue::{Delayed, DelayedQueue, NOT_QUEUED, Wait};
use threadpool_executor::queue::WorkQueue;

#[derive(Debug)]
struct Item {
    name: &'static str,
    deadline: Deadline,
    sequence: u64,
    index: AtomicUsize,
}

impl Delayed for Item {
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

fn item(name: &'static str, deadline: Deadline) -> Arc<Item> {
    // Outside loom's view on purpose: a creation number decides nothing
    // the model checks.
    static SEQUENCE: AtomicU64 = AtomicU64::new(0);
    Arc::new(Item {
        name,
        deadline,
        sequence: SEQUENCE.fetch_add(1, SeqCst),
        index: AtomicUsize::new(NOT_QUEUED),
    })
}

/// A taker that takes once; if it gets an item it interrupts `other`
/// (the other taker) so that the model ends. Joins to what it took.
fn taker(
    queue: &DelayedQueue<Item>,
    token: InterruptToken,
    other: InterruptHandle,
) -> JoinHandle<Option<&'static str>> {
    let queue = queue.clone();
    loom::thread::spawn(move || {
        let taken = queue.take(&token).ok()?;
        other.interrupt();
        Some(taken.name)
    })
}

/// Two takers, each of which interrupts the other once it took an item.
fn two_takers(
    queue: &DelayedQueue<Item>,
) -> (
    JoinHandle<Option<&'static str>>,
    JoinHandle<Option<&'static str>>,
) {
    let (a, b) = (InterruptToken::new(), InterruptToken::new());
    let (a_handle, b_handle) = (a.handle(), b.handle());
    (taker(queue, a, b_handle), taker(queue, b, a_handle))
}

/// (a) Two takers, one offer of an item due now: it is taken exactly once.
/// If both takers could wait untimed with the item due (an offer's notify
/// lost), loom reports the deadlock.
fn due_item_is_taken_once(wait: Wait) {
    loom::model(move || {
        let queue = DelayedQueue::with_wait(wait);
        let (a, b) = two_takers(&queue);
        queue.offer(item("due", Deadline::now())).unwrap();
        let took: Vec<_> = [a, b]
            .into_iter()
            .filter_map(|t| t.join().unwrap())
            .collect();
        assert_eq!(took, ["due"], "taken exactly once");
        assert_eq!(queue.len(), 0);
    });
}

#[test]
fn t10_loom_due_item_taken_once() {
    due_item_is_taken_once(Wait::LeaderFollower);
}

#[test]
fn t10_loom_due_item_taken_once_herd() {
    due_item_is_taken_once(Wait::Herd);
}

/// (b) A head that never comes (an hour away, on a frozen clock), a taker
/// leading for it and one following; then an earlier head, due now. The
/// leader waits for the wrong deadline: `offer` must wake someone to take
/// the new head.
fn earlier_head_is_taken(wait: Wait) {
    loom::model(move || {
        let queue = DelayedQueue::with_wait(wait);
        // Queued before the takers start: the race is the earlier offer
        // against the takers' waits, and the model stays small.
        let later = item("later", Deadline::now().after(Duration::from_secs(3600)));
        queue.offer(Arc::clone(&later)).unwrap();
        let (a, b) = two_takers(&queue);
        queue.offer(item("earlier", Deadline::now())).unwrap();
        let took: Vec<_> = [a, b]
            .into_iter()
            .filter_map(|t| t.join().unwrap())
            .collect();
        assert_eq!(took, ["earlier"], "the due head, once; never the later");
        assert!(queue.contains(&later));
    });
}

#[test]
fn t10_loom_earlier_head_taken() {
    earlier_head_is_taken(Wait::LeaderFollower);
}

#[test]
fn t10_loom_earlier_head_taken_herd() {
    earlier_head_is_taken(Wait::Herd);
}

/// (c) Two items due now, offered while two takers may wait. Only the
/// first offer is a new head, and it wakes one taker (the leader-follower
/// queue); the second offer wakes nobody. The taker that takes the first
/// item must hand on as it leaves, or the other waits untimed beside a due
/// item: loom reports the deadlock. Each taker takes once.
fn leader_hands_on(wait: Wait) {
    loom::model(move || {
        let queue: DelayedQueue<Item> = DelayedQueue::with_wait(wait);
        let takers: Vec<_> = (0..2)
            .map(|_| {
                let queue = queue.clone();
                loom::thread::spawn(move || queue.take(&InterruptToken::new()).unwrap().name)
            })
            .collect();
        queue.offer(item("first", Deadline::now())).unwrap();
        queue.offer(item("second", Deadline::now())).unwrap();
        let mut took: Vec<_> = takers.into_iter().map(|t| t.join().unwrap()).collect();
        took.sort_unstable();
        assert_eq!(took, ["first", "second"]);
        assert_eq!(queue.len(), 0);
    });
}

#[test]
fn t10_loom_leader_hands_on() {
    leader_hands_on(Wait::LeaderFollower);
}

#[test]
fn t10_loom_leader_hands_on_herd() {
    leader_hands_on(Wait::Herd);
}
