//! T3 `rejection_policies`: what happens to a task the pool will not take,
//! for each policy, when the pool is saturated and after it is shut down.
//!
//! Saturated: one thread, busy with a task held at a gate, and a queue of
//! one, full. Then one more task. No rejected task is ever lost without a
//! trace: it comes back in the error, runs on the caller, or goes to the
//! discard hook, counted.
#![cfg(not(loom))]

mod support;

use std::sync::mpsc;
use std::thread;

use threadpool_executor::error::{Reason, Rejected};
use threadpool_executor::queue::TaskQueue;
use threadpool_executor::reject::{
    Abort, CallerRuns, Discard, DiscardOldest, RejectPolicy, Saturated,
};
use threadpool_executor::{Task, ThreadPool};

use kit::{Recorder, ms};
use support::{Gate, prefix};

const SATURATED: Reason = Reason::Saturated {
    pool_size: 1,
    maximum: 1,
    queued: 1,
};

/// A saturated pool: `policy`, one thread held at `gate`, a full queue of
/// `capacity`. Discarded tasks go to `discarded`.
struct Saturation {
    pool: ThreadPool,
    gate: Gate,
    rec: Recorder,
    discarded: mpsc::Receiver<Task>,
}

fn saturated(policy: impl RejectPolicy<Task>, capacity: usize) -> Saturation {
    let (tx, discarded) = mpsc::channel();
    let tx = parking_lot::Mutex::new(tx);
    let pool = ThreadPool::builder()
        .queue(TaskQueue::bounded(capacity).unwrap())
        .reject_policy(policy)
        .on_discard(move |task| tx.lock().send(task).unwrap())
        .thread_factory(support::threads(&prefix("t3")))
        .build()
        .unwrap();
    let (gate, rec) = (Gate::new(), Recorder::new());
    let waiter = gate.waiter();
    let r = rec.clone();
    pool.execute(move || {
        waiter.wait();
        r.record("running");
    })
    .unwrap();
    let s = Saturation {
        pool,
        gate,
        rec,
        discarded,
    };
    for i in 1..=capacity {
        s.pool.execute(s.task(&format!("queued {i}"))).unwrap();
    }
    assert_eq!(s.pool.queue().len(), capacity);
    s
}

impl Saturation {
    fn task(&self, label: &str) -> impl FnOnce() + Send + 'static {
        let (rec, label) = (self.rec.clone(), label.to_owned());
        move || {
            rec.record(label);
        }
    }

    /// Lets everything run, and returns the labels that ran.
    fn finish(self) -> Vec<String> {
        self.gate.open();
        self.pool.shutdown();
        assert!(self.pool.await_termination(ms(5000)));
        self.rec.events().into_iter().map(|e| e.what).collect()
    }
}

#[test]
fn t3_rejection_policies_abort() {
    let s = saturated(Abort, 1);
    let rejected = s.pool.execute(s.task("rejected")).unwrap_err();
    assert_eq!(rejected.reason(), SATURATED);
    assert_eq!(
        rejected.to_string(),
        "task rejected: the pool is saturated: 1 of at most 1 threads, and the queue took no more (1 queued)"
    );
    s.pool.shutdown();
    let after = s.pool.execute(s.task("after shutdown")).unwrap_err();
    assert_eq!(after.reason(), Reason::Shutdown);
    // Both came back: ours to run.
    rejected.into_task()();
    after.into_task()();
    let ran = s.finish();
    assert_eq!(ran, ["rejected", "after shutdown", "running", "queued 1"]);
}

#[test]
fn t3_rejection_policies_caller_runs() {
    let s = saturated(CallerRuns, 1);
    s.pool.execute(s.task("rejected")).unwrap();
    let who = s
        .rec
        .events()
        .into_iter()
        .find(|e| e.what == "rejected")
        .map(|e| e.who);
    assert_eq!(
        who,
        Some(support::me()),
        "ran on the caller, before execute returned"
    );

    // After shutdown Java drops it; here it comes back.
    s.pool.shutdown();
    let after = s.pool.execute(s.task("after shutdown")).unwrap_err();
    assert_eq!(after.reason(), Reason::Shutdown);
    assert_eq!(s.rec.count("after shutdown"), 0, "not run");
    drop(after);
    let ran = s.finish();
    assert_eq!(ran, ["rejected", "running", "queued 1"]);
}

#[test]
fn t3_rejection_policies_discard() {
    let s = saturated(Discard, 1);
    s.pool.execute(s.task("rejected")).unwrap();
    assert_eq!(s.pool.discarded_count(), 1);
    let discarded = s.discarded.try_recv().expect("in the discard hook");
    s.pool.shutdown();
    s.pool.execute(s.task("after shutdown")).unwrap();
    assert_eq!(s.pool.discarded_count(), 2);
    let after = s.discarded.try_recv().expect("in the discard hook");
    discarded(); // found, and ours to run
    drop(after);
    let ran = s.finish();
    assert_eq!(ran, ["rejected", "running", "queued 1"]);
}

#[test]
fn t3_rejection_policies_discard_oldest() {
    let s = saturated(DiscardOldest, 2);
    s.pool.execute(s.task("newest")).unwrap();
    assert_eq!(s.pool.discarded_count(), 1);
    drop(
        s.discarded
            .try_recv()
            .expect("the oldest, evicted to the hook"),
    );
    assert_eq!(s.pool.queue().len(), 2);

    // After shutdown: the new task is discarded, nothing is evicted.
    s.pool.shutdown();
    s.pool.execute(s.task("after shutdown")).unwrap();
    assert_eq!(s.pool.discarded_count(), 2);
    assert_eq!(s.pool.queue().len(), 2, "nothing evicted");
    drop(s.discarded.try_recv().expect("the new task, discarded"));
    let ran = s.finish();
    assert_eq!(ran, ["running", "queued 2", "newest"], "queued 1 never ran");
}

/// Java's DiscardOldestPolicy on a hand-off queue retries forever: there
/// is never anything to evict. Here the new task is discarded.
#[test]
fn t3_rejection_policies_discard_oldest_with_nothing_to_evict() {
    let pool = ThreadPool::builder()
        .core_pool_size(0)
        .queue(TaskQueue::hand_off())
        .reject_policy(DiscardOldest)
        .thread_factory(support::threads(&prefix("t3-hand")))
        .build()
        .unwrap();
    let gate = Gate::new();
    let waiter = gate.waiter();
    pool.execute(move || waiter.wait()).unwrap();
    pool.execute(|| unreachable!("discarded")).unwrap();
    assert_eq!(pool.discarded_count(), 1);
}

/// A policy of your own: any closure. This one keeps rejected tasks for
/// later and says why they were rejected.
#[test]
fn t3_rejection_policies_user_policy() {
    let (tx, kept) = mpsc::channel::<(Reason, Task)>();
    let tx = parking_lot::Mutex::new(tx);
    let policy = move |task: Task, pool: &Saturated<'_, Task>| -> Result<(), Rejected<Task>> {
        tx.lock().send((pool.reason(), task)).unwrap();
        Ok(())
    };
    let s = saturated(policy, 1);
    s.pool.execute(s.task("kept")).unwrap();
    s.pool.shutdown();
    s.pool.execute(s.task("kept after shutdown")).unwrap();
    let (reason, task) = kept.try_recv().unwrap();
    assert_eq!(reason, SATURATED);
    let (after, later) = kept.try_recv().unwrap();
    assert_eq!(after, Reason::Shutdown);
    // Run them elsewhere.
    thread::spawn(move || {
        task();
        later();
    })
    .join()
    .unwrap();
    let ran = s.finish();
    assert_eq!(ran, ["kept", "kept after shutdown", "running", "queued 1"]);
}

/// The policy can be swapped while the pool runs (Java's
/// `setRejectedExecutionHandler`); the next refusal goes to the new one.
#[test]
fn t3_policy_set_after_build() {
    let pool = ThreadPool::builder()
        .thread_factory(support::threads(&prefix("t3-set")))
        .build()
        .unwrap();
    pool.shutdown();
    let refused = pool.execute(|| {}).expect_err("Abort refuses");
    assert_eq!(refused.reason(), Reason::Shutdown);
    pool.set_reject_policy(Discard);
    assert!(pool.execute(|| {}).is_ok(), "Discard drops it, counted");
    assert_eq!(pool.discarded_count(), 1);
    let _policy = pool.reject_policy();
}
