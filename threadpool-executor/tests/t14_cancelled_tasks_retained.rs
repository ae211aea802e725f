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
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::time::{Duration, Instant};

use threadpool_executor::deadline::Deadline;
use threadpool_executor::delayed_queue::{Delayed, DelayedQueue, Plain};
use threadpool_executor::queue::WorkQueue;

/// Schedule-then-cancel rounds with removal.
const ROUNDS: usize = 200_000;
/// Items left in without removal (memory, not time, is the limit here).
const RETAINED: usize = 100_000;

type Item = Plain;

/// A timeout an hour away, as a cancelled RPC deadline would be.
fn timeout() -> Arc<Item> {
    static SEQUENCE: AtomicU64 = AtomicU64::new(0);
    Arc::new(Item::new(
        Deadline::now().after(Duration::from_secs(3600)),
        SEQUENCE.fetch_add(1, SeqCst),
        (),
    ))
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
        .map(|i| Arc::new(Item::new(now.after(Duration::from_millis(5 - i)), i, ())))
        .collect();
    for item in &items {
        queue.offer(Arc::clone(item)).unwrap();
    }
    let stranger = timeout();
    assert!(!queue.remove_item(&stranger), "never queued");
    assert!(queue.remove_item(&items[2]));
    assert!(!queue.remove_item(&items[2]), "already removed");
    assert!(!queue.contains(&items[2]));
    let drained: Vec<u64> = queue.drain().iter().map(|i| i.sequence()).collect();
    assert_eq!(drained, [4, 3, 1, 0], "deadline order");
    assert!(!queue.remove_item(&items[0]), "drained");
    assert_eq!(queue.len(), 0);
}

// The pool's tests follow (added with src/scheduled.rs).
//
// The same loop on the scheduled pool: `schedule` a far task, `cancel` it,
// 200 000 times, as a server does with the timeout of every request
// answered in time. With Java's default (`remove_on_cancel` off) each
// cancelled task stays queued until its deadline, an hour away; with ours
// it leaves the queue at once.

mod support;

use threadpool_executor::scheduled::ScheduledThreadPool;

/// Schedule-then-cancel rounds on the pool.
const POOL_ROUNDS: usize = 200_000;
/// Long-lived tasks due before every round's task, as a busy server's
/// other timeouts are (and so a round's task is never the queue's head,
/// which would wake the waiting worker for nothing).
const STANDING: usize = 64;
/// How often the loop samples the queue's length.
const SAMPLE_EVERY: usize = 100_000;

/// What a schedule-then-cancel loop left behind.
struct Rounds {
    /// The queue's length every `SAMPLE_EVERY` rounds.
    samples: Vec<usize>,
    /// After the loop, with the standing tasks still queued.
    after_loop: usize,
    /// After the standing tasks were cancelled too.
    at_end: usize,
    took: Duration,
}

fn schedule_then_cancel(remove_on_cancel: bool) -> Rounds {
    let pool = ScheduledThreadPool::builder()
        .remove_on_cancel(remove_on_cancel)
        .thread_factory(support::threads(&support::prefix("t14")))
        .build()
        .unwrap();
    let standing: Vec<_> = (0..STANDING)
        .map(|_| pool.schedule(Duration::from_secs(1800), || ()).unwrap())
        .collect();
    let mut samples = Vec::new();
    let start = Instant::now();
    for round in 0..POOL_ROUNDS {
        let timeout = pool.schedule(Duration::from_secs(3600), || ()).unwrap();
        assert!(timeout.cancel(false), "round {round}");
        if round % SAMPLE_EVERY == 0 {
            samples.push(pool.queue().len() - STANDING);
        }
    }
    let took = start.elapsed();
    let after_loop = pool.queue().len() - STANDING;
    for future in &standing {
        assert!(future.cancel(false));
    }
    Rounds {
        samples,
        after_loop,
        at_end: pool.queue().len(),
        took,
    }
}

/// The correctness check: cancelled tasks do not stay in the queue.
fn assert_flat_and_empty(rounds: &Rounds, policy: &str) {
    let most = rounds.samples.iter().copied().max().unwrap_or(0);
    assert!(
        most == 0 && rounds.after_loop == 0 && rounds.at_end == 0,
        "T14 cancelled_tasks_retained: after {POOL_ROUNDS} schedule-then-cancel rounds \
         ({policy}) the delayed queue holds {} cancelled tasks (at most {most} while sampled, \
         {} once every task was cancelled), expected 0",
        rounds.after_loop,
        rounds.at_end
    );
}

#[test]
fn t14_cancelled_tasks_retained_reproduces() {
    let rounds = schedule_then_cancel(false);
    println!(
        "T14 lazy removal (the JDK's default): {POOL_ROUNDS} rounds in {} ms left {} cancelled \
         tasks queued; sampled: {:?}",
        rounds.took.as_millis(),
        rounds.after_loop,
        rounds.samples
    );
    assert_eq!(rounds.after_loop, POOL_ROUNDS, "every cancelled task stays");
    assert!(
        rounds.samples.windows(2).all(|w| w[1] > w[0]),
        "and the queue only grows: {:?}",
        rounds.samples
    );
    assert_eq!(rounds.at_end, STANDING + POOL_ROUNDS, "dead, all of them");
}

#[test]
fn t14_cancelled_tasks_retained_fixed() {
    let rounds = schedule_then_cancel(true);
    println!(
        "T14 remove on cancel (ours): {POOL_ROUNDS} rounds in {} ms ({} ns each), queue sampled \
         {:?} above its {STANDING} standing tasks, {} at the end",
        rounds.took.as_millis(),
        rounds.took.as_nanos() / POOL_ROUNDS as u128,
        rounds.samples,
        rounds.at_end
    );
    assert_flat_and_empty(&rounds, "remove_on_cancel on");
}

#[test]
#[ignore = "T14 cancelled_tasks_retained: shows the bug with lazy removal (remove_on_cancel off)"]
fn t14_cancelled_tasks_retained_on_lazy_removal() {
    assert_flat_and_empty(&schedule_then_cancel(false), "remove_on_cancel off");
}
