//! loom models of the delayed queue's takers (T10): in every interleaving
//! an item that is due is taken, exactly once, and no taker is left
//! waiting untimed beside a due item: (a) an offer wakes a taker, (b) an
//! earlier head reaches past a leader waiting for a later one, (c) a
//! taker that took an item hands on to the next. Each runs for the
//! leader-follower queue, the herd, and leader-successor; three more are
//! leader-successor's own: (d) three takers and two due items, (e) a new
//! second item while a successor waits for a later one, (f) an
//! interrupted taker, successor or not, leaves the due items to the other.
//!
//! Under loom the clock is frozen (src/sync.rs): an item due "now" is due
//! at once, and a later deadline never comes, so a leader's timed wait for
//! it is a plain wait that only a notify ends. A lost notify is then a
//! taker that never returns: loom reports it as a deadlock. To end a
//! model, the taker that got the item interrupts the other one, as
//! `shutdown_now` would.
//!
//! What a frozen clock cannot show is a timed wait that ends at its time:
//! in these models no item that was not due when a taker looked ever
//! becomes due. So they check the notifies (every due item reaches a
//! taker), not the deadlines; that a successor's time is right, and that
//! it leads without a wake-up, is tests/t10_thundering_herd.rs's part.
//!
//! ```text
//! cargo xtask loom threadpool-executor loom_delayed_queue
//! ```
//!
//! runs its models, which must pass, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p threadpool-executor --release --target-dir target/loom --test loom_delayed_queue -- --include-ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::time::Duration;

use interrupt_cancel::interrupt::{InterruptHandle, InterruptToken};
use loom::thread::JoinHandle;
use threadpool_executor::deadline::Deadline;
use threadpool_executor::delayed_queue::{DelayedQueue, Plain, Wait};
use threadpool_executor::queue::WorkQueue;

/// A test item, named by the value it carries.
type Item = Plain<&'static str>;

fn item(name: &'static str, deadline: Deadline) -> Arc<Item> {
    // Outside loom's view on purpose: a creation number decides nothing
    // the model checks.
    static SEQUENCE: AtomicU64 = AtomicU64::new(0);
    Arc::new(Item::new(deadline, SEQUENCE.fetch_add(1, SeqCst), name))
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
        Some(taken.value)
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

#[test]
fn t10_loom_due_item_taken_once_successor() {
    due_item_is_taken_once(Wait::LeaderSuccessor);
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

#[test]
fn t10_loom_earlier_head_taken_successor() {
    earlier_head_is_taken(Wait::LeaderSuccessor);
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
                loom::thread::spawn(move || queue.take(&InterruptToken::new()).unwrap().value)
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

#[test]
fn t10_loom_leader_hands_on_successor() {
    leader_hands_on(Wait::LeaderSuccessor);
}

/// A far item: an hour away, it never comes on the frozen clock.
fn far(name: &'static str, hours: u64) -> Arc<Item> {
    item(
        name,
        Deadline::now().after(Duration::from_secs(3600 * hours)),
    )
}

/// (d) Leader-successor, three takers, two items due now, offered while
/// the takers start and wait. The first offer is a new head (one notify),
/// the second a new second with nobody succeeding (no notify): the taker
/// that takes the first must hand on, or take the second itself on its way
/// back, and whoever a notify reaches (a leader, a successor, a follower)
/// must look again and act. Each taker takes until interrupted; the one
/// whose take makes two interrupts all three.
///
/// Three takers and the offering thread are too many interleavings to
/// explore without a bound (it ran for over 15 minutes): unless
/// `LOOM_MAX_PREEMPTIONS` says otherwise, this model takes the CI's bound,
/// 3 preemptions (about 13 s).
#[test]
fn t10_loom_two_due_items_three_takers_successor() {
    let mut model = loom::model::Builder::new();
    model.preemption_bound = model.preemption_bound.or(Some(3));
    model.check(|| {
        let queue: DelayedQueue<Item> = DelayedQueue::with_wait(Wait::LeaderSuccessor);
        let tokens: Vec<InterruptToken> = (0..3).map(|_| InterruptToken::new()).collect();
        let handles: Arc<Vec<InterruptHandle>> =
            Arc::new(tokens.iter().map(InterruptToken::handle).collect());
        let count = Arc::new(loom::sync::atomic::AtomicUsize::new(0));
        let takers: Vec<_> = tokens
            .into_iter()
            .map(|token| {
                let (queue, handles, count) =
                    (queue.clone(), Arc::clone(&handles), Arc::clone(&count));
                loom::thread::spawn(move || {
                    let mut took = Vec::new();
                    while let Ok(item) = queue.take(&token) {
                        took.push(item.value);
                        if count.fetch_add(1, SeqCst) + 1 == 2 {
                            handles.iter().for_each(InterruptHandle::interrupt);
                        }
                    }
                    took
                })
            })
            .collect();
        queue.offer(item("first", Deadline::now())).unwrap();
        queue.offer(item("second", Deadline::now())).unwrap();
        let mut took: Vec<_> = takers.into_iter().flat_map(|t| t.join().unwrap()).collect();
        took.sort_unstable();
        assert_eq!(took, ["first", "second"], "each taken exactly once");
        assert_eq!(queue.len(), 0);
    });
}

/// (e) Leader-successor: two takers start on an empty queue; then two far
/// items (one taker may lead for "far1"; nobody succeeds for "far2": a new
/// second with no successor wakes nobody), then two items due now. The
/// first is a new head: the leader becomes the successor (it timed
/// "far1", now the second), and one taker is woken: loom wakes the one
/// that waited longest, which is the follower if the leader re-parked
/// after it. The second is a new second, earlier than "far1" that the
/// successor waits for: `offer` must take the successor's role away (and
/// wake a taker to time it). Each taker takes once. Had the successor kept
/// its role, the taker of the first would promote it to lead where it
/// sleeps and leave without a hand-on, and the second, due, would wait
/// beside it forever: loom reports the deadlock.
#[test]
fn t10_loom_new_second_is_taken_successor() {
    loom::model(|| {
        let queue: DelayedQueue<Item> = DelayedQueue::with_wait(Wait::LeaderSuccessor);
        let takers: Vec<_> = (0..2)
            .map(|_| {
                let queue = queue.clone();
                loom::thread::spawn(move || queue.take(&InterruptToken::new()).unwrap().value)
            })
            .collect();
        let (far1, far2) = (far("far1", 1), far("far2", 2));
        queue.offer(Arc::clone(&far1)).unwrap();
        queue.offer(Arc::clone(&far2)).unwrap();
        queue.offer(item("first", Deadline::now())).unwrap();
        queue.offer(item("second", Deadline::now())).unwrap();
        let mut took: Vec<_> = takers.into_iter().map(|t| t.join().unwrap()).collect();
        took.sort_unstable();
        assert_eq!(took, ["first", "second"]);
        assert!(queue.contains(&far1) && queue.contains(&far2));
    });
}

/// (f) Leader-successor: two far items queued (a leader and a successor
/// for them, in the interleavings where both takers wait in time). One
/// taker is interrupted, in any role or before it looked, and leaves; then
/// two items due now. The other taker must take both: whatever role the
/// one that left held, it gave it up, and no promotion may hand the lead
/// to a taker that is gone. The taker that takes the second interrupts
/// itself, to end the model.
#[test]
fn t10_loom_interrupted_taker_leaves_the_rest_successor() {
    loom::model(|| {
        let queue: DelayedQueue<Item> = DelayedQueue::with_wait(Wait::LeaderSuccessor);
        queue.offer(far("far1", 1)).unwrap();
        queue.offer(far("far2", 2)).unwrap();
        let (stays, leaves) = (InterruptToken::new(), InterruptToken::new());
        let (stays_handle, leaves_handle) = (stays.handle(), leaves.handle());
        let stayer = {
            let queue = queue.clone();
            loom::thread::spawn(move || {
                let mut took = Vec::new();
                while let Ok(item) = queue.take(&stays) {
                    took.push(item.value);
                    if took.len() == 2 {
                        stays_handle.interrupt();
                    }
                }
                took
            })
        };
        let leaver = {
            let queue = queue.clone();
            loom::thread::spawn(move || queue.take(&leaves).err().is_some())
        };
        leaves_handle.interrupt();
        assert!(leaver.join().unwrap(), "interrupted, it took nothing");
        queue.offer(item("first", Deadline::now())).unwrap();
        queue.offer(item("second", Deadline::now())).unwrap();
        assert_eq!(stayer.join().unwrap(), ["first", "second"]);
        assert_eq!(queue.len(), 2, "the far items stay");
    });
}
