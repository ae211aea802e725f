//! T14 `cancelled_tasks_retained` (JDK-6602600; it hit gRPC and Hystrix):
//! cancelling a scheduled task only marked it, so the task stayed in the
//! delayed queue until its deadline. A program that schedules a timeout
//! and cancels it when the work finishes first (every RPC with a
//! deadline) then fills the queue with dead tasks: schedule-then-cancel
//! in a loop grows it without bound.
//!
//! The queue side of the fix: every item carries its heap index, so
//! [`DelayedQueue::remove_item`] finds it at once and takes it out in
//! O(log n). These tests show the queue stays flat when cancelled items
//! are removed, and grows to the count when they are left in. The pool's
//! tests (`remove_on_cancel` on and off) follow below.
#![cfg(not(loom))]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::time::{Duration, Instant};

use threadpool_executor::deadline::Deadline;
use threadpool_executor::delayed_queue::{Delayed, DelayedQueue, NOT_QUEUED};
use threadpool_executor::queue::WorkQueue;

/// Schedule-then-cancel rounds with removal.
const ROUNDS: usize = 1_000_000;
/// Items left in without removal (memory, not time, is the limit here).
const RETAINED: usize = 100_000;

#[derive(Debug)]
struct Item {
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

/// A timeout an hour away, as a cancelled RPC deadline would be.
fn timeout() -> Arc<Item> {
    static SEQUENCE: AtomicU64 = AtomicU64::new(0);
    Arc::new(Item {
        deadline: Deadline::now().after(Duration::from_secs(3600)),
        sequence: SEQUENCE.fetch_add(1, SeqCst),
        index: AtomicUsize::new(NOT_QUEUED),
    })
}

/// Offer-then-remove in a loop: the queue stays flat, and each round is
/// cheap (measured: printed with `--nocapture`).
#[test]
fn t14_queue_remove_item_keeps_the_queue_flat() {
    let queue = DelayedQueue::new();
    // A few long-lived items underneath, so removal works in a real heap.
    let standing: Vec<_> = (0..64).map(|_| timeout()).collect();
    for item in &standing {
        queue.offer(Arc::clone(item)).unwrap();
    }
    let start = Instant::now();
    for round in 0..ROUNDS {
        let item = timeout();
        queue.offer(Arc::clone(&item)).unwrap();
        assert!(queue.remove_item(&item), "round {round}");
        assert!(!queue.remove_item(&item), "removed twice in round {round}");
    }
    let took = start.elapsed();
    println!(
        "{ROUNDS} offer + remove_item rounds: {} ms ({} ns each)",
        took.as_millis(),
        took.as_nanos() / ROUNDS as u128
    );
    assert_eq!(queue.len(), standing.len(), "flat");
    for item in &standing {
        assert!(queue.contains(item));
    }
}

/// The bug's shape: cancelled items left in the queue (marked, not
/// removed) stay until their deadline, and the queue grows to the count.
#[test]
fn t14_queue_without_removal_grows_to_the_count() {
    let queue = DelayedQueue::new();
    for _ in 0..RETAINED {
        queue.offer(timeout()).unwrap();
    }
    assert_eq!(queue.len(), RETAINED);
    assert!(
        queue.poll_now().is_none(),
        "none of them is due for an hour"
    );
}

/// Removal is exact: an item already taken, removed, or never queued is
/// not found, and the others keep their order.
#[test]
fn t14_queue_remove_item_only_removes_what_is_queued() {
    let queue = DelayedQueue::new();
    let now = Deadline::now();
    let items: Vec<_> = (0..5)
        .map(|i| {
            Arc::new(Item {
                deadline: now.after(Duration::from_millis(5 - i)),
                sequence: i,
                index: AtomicUsize::new(NOT_QUEUED),
            })
        })
        .collect();
    for item in &items {
        queue.offer(Arc::clone(item)).unwrap();
    }
    let stranger = timeout();
    assert!(!queue.remove_item(&stranger), "never queued");
    assert!(queue.remove_item(&items[2]));
    assert!(!queue.remove_item(&items[2]), "already removed");
    assert!(!queue.contains(&items[2]));
    let drained: Vec<u64> = queue.drain().iter().map(|i| i.sequence).collect();
    assert_eq!(drained, [4, 3, 1, 0], "deadline order");
    assert!(!queue.remove_item(&items[0]), "drained");
    assert_eq!(queue.len(), 0);
}

// The pool's tests follow (added with src/scheduled.rs).
