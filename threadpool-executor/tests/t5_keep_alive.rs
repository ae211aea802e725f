//! T5 `keep_alive`: idle workers above core size end after the
//! keep-alive, and the pool shrinks back to exactly its core size, never
//! below (JDK-6458662: several workers timing out at once each saw "above
//! core" and all left). With core threads allowed to time out, the pool
//! reaches zero, and a task submitted then still runs. Prestarting starts
//! core threads before any task.
#![cfg(not(loom))]

mod support;

use std::time::Duration;

use threadpool_executor::ThreadPool;
use threadpool_executor::queue::TaskQueue;

use kit::pause::Pause;
use kit::{Recorder, ms, threads};
use support::{Gate, eventually, prefix};

const KEEP_ALIVE_MS: u64 = 30;
const MAY_LEAVE: &str = "threadpool-executor::worker: may leave, count read, not yet lowered";

/// A pool of core 1, max 3, queue of 1, grown to 3 by a burst of 4 held
/// tasks, then let go.
fn grown(prefix: &str, rec: &Recorder) -> (ThreadPool, Gate) {
    let pool = ThreadPool::builder()
        .core_pool_size(1)
        .maximum_pool_size(3)
        .keep_alive(ms(KEEP_ALIVE_MS))
        .queue(TaskQueue::bounded(1).unwrap())
        .thread_factory(support::threads(prefix))
        .build()
        .unwrap();
    let gate = Gate::new();
    for i in 0..4 {
        let (gate, rec) = (gate.waiter(), rec.clone());
        pool.execute(move || {
            gate.wait();
            rec.record(format!("task {i}"));
        })
        .unwrap();
    }
    assert_eq!(pool.pool_size(), 3);
    (pool, gate)
}

#[test]
fn t5_keep_alive_shrinks_to_core() {
    let rec = Recorder::new();
    let (pool, gate) = grown(&prefix("t5"), &rec);
    let opened = rec.record_as("test", "gate opened");
    gate.open();
    assert!(
        eventually(ms(5000), || pool.pool_size() == 1),
        "back to core"
    );
    // Not before: a worker leaves a whole keep-alive after its last task.
    let shrunk = rec.elapsed();
    assert!(shrunk >= opened + ms(KEEP_ALIVE_MS), "shrunk at {shrunk:?}");
    rec.wait_until_count("task 3", 1, ms(5000))
        .expect("all ran");
    // And it stays there: the core thread waits without a limit.
    assert!(!eventually(ms(4 * KEEP_ALIVE_MS), || pool.pool_size() != 1));
    assert_eq!(pool.largest_pool_size(), 3);
    assert_eq!(pool.completed_task_count(), 4);
}

/// All three workers time out and are held where each has read the word
/// (3 workers, core 1: "above core, I may leave") and not yet lowered it.
/// Released at once, they race for the CAS: one wins; the two others find
/// the word changed, read it again, and one of them wins with 2; the last
/// reads 1, is at core size, and stays. Lowering the count without the
/// CAS, all three would leave: a pool of 0 with a core size of 1.
#[test]
fn t5_keep_alive_never_below_core() {
    let prefix = prefix("t5-race");
    let names: Vec<String> = (1..=3).map(|m| format!("{prefix}{m}")).collect();
    let pauses: Vec<Pause> = names
        .iter()
        .map(|name| Pause::arm(MAY_LEAVE, name))
        .collect();
    let rec = Recorder::new();
    let (pool, gate) = grown(&prefix, &rec);
    gate.open();
    for pause in &pauses {
        pause.wait_reached();
    }
    assert_eq!(pool.pool_size(), 3, "all three timed out, none left yet");
    drop(pauses);
    assert!(eventually(ms(5000), || pool.pool_size() == 1));
    assert!(!eventually(ms(4 * KEEP_ALIVE_MS), || pool.pool_size() != 1));
    assert_eq!(pool.ctl().worker_count(), 1);
}

/// Core threads may time out: the pool reaches zero, and still runs what
/// comes next.
#[test]
fn t5_keep_alive_core_timeout_reaches_zero() {
    let prefix = prefix("t5-zero");
    let pool = ThreadPool::builder()
        .core_pool_size(2)
        .maximum_pool_size(2)
        .keep_alive(ms(KEEP_ALIVE_MS))
        .allow_core_thread_timeout(true)
        .thread_factory(support::threads(&prefix))
        .build()
        .unwrap();
    assert!(pool.allows_core_thread_timeout());
    assert_eq!(pool.prestart_all_core_threads(), 2);
    assert!(
        eventually(ms(5000), || pool.pool_size() == 0),
        "both timed out"
    );
    threads::assert_gone(&format!("{prefix}1"));
    assert!(!pool.is_shutdown());

    let rec = Recorder::new();
    let r = rec.clone();
    pool.execute(move || {
        r.record("ran");
    })
    .unwrap();
    assert!(rec.eventually("ran", ms(5000)).is_some());
    assert_eq!(pool.largest_pool_size(), 2);
}

/// Turning it on later wakes the idle core threads to look again.
#[test]
fn t5_keep_alive_core_timeout_turned_on_later() {
    let pool = ThreadPool::builder()
        .core_pool_size(2)
        .maximum_pool_size(2)
        .keep_alive(ms(KEEP_ALIVE_MS))
        .thread_factory(support::threads(&prefix("t5-later")))
        .build()
        .unwrap();
    assert_eq!(pool.prestart_all_core_threads(), 2);
    assert!(!eventually(ms(3 * KEEP_ALIVE_MS), || pool.pool_size() != 2));
    pool.allow_core_thread_timeout(true).unwrap();
    assert!(eventually(ms(5000), || pool.pool_size() == 0));
}

#[test]
fn t5_keep_alive_prestart() {
    let prefix = prefix("t5-pre");
    let pool = ThreadPool::builder()
        .core_pool_size(3)
        .maximum_pool_size(3)
        .thread_factory(support::threads(&prefix))
        .build()
        .unwrap();
    assert_eq!(pool.pool_size(), 0, "no thread before a task");
    assert!(pool.prestart_core_thread());
    assert_eq!(pool.prestart_all_core_threads(), 2);
    assert!(!pool.prestart_core_thread(), "all started");
    assert_eq!(pool.prestart_all_core_threads(), 0);
    assert_eq!(pool.pool_size(), 3);
    for m in 1..=3 {
        assert_eq!(
            threads::tids_named_within(&format!("{prefix}{m}"), ms(1000))
                .unwrap()
                .len(),
            1
        );
    }
    drop(pool);
    for m in 1..=3 {
        threads::assert_gone(&format!("{prefix}{m}"));
    }
}

/// A keep-alive changed while workers wait applies at once.
#[test]
fn t5_keep_alive_shorter_applies_now() {
    let rec = Recorder::new();
    let (pool, gate) = grown(&prefix("t5-set"), &rec);
    pool.set_keep_alive(Duration::from_secs(3600)).unwrap();
    gate.open();
    rec.wait_until_count("task 3", 1, ms(5000)).unwrap();
    assert!(!eventually(ms(3 * KEEP_ALIVE_MS), || pool.pool_size() != 3));
    pool.set_keep_alive(ms(1)).unwrap();
    assert!(eventually(ms(5000), || pool.pool_size() == 1));
}
