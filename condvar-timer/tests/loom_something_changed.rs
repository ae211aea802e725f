//! loom models of the "something has changed" TimerQueue: every
//! interleaving, not just the ones a run happens to hit.
//!
//! Under loom the queue's clock is frozen (`sync::now`) and a timed wait
//! never times out. A far deadline is therefore never reached: a thread
//! waiting for it wakes only if somebody's notify gets through. A lost
//! notify would show as a deadlock.
//!
//! ```text
//! cargo xtask loom condvar-timer loom_something_changed
//! ```
//!
//! runs its models, which must pass, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p condvar-timer --release --target-dir target/loom --test loom_something_changed -- --include-ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

mod loom_support;

use std::time::Duration;

use condvar_timer::something_changed::TimerQueue;
use loom::sync::{Arc, Mutex};
use loom_support::Latch;

/// A far deadline: under the frozen clock, never due.
fn far() -> Duration {
    kit::ms(3_600_000)
}

/// C1's scenario: the thread computes its wait from a far item while a
/// client adds one due now. Whatever the interleaving, the semaphore's
/// permit wakes the thread and the new item runs (a lost wake-up would
/// leave the client waiting forever: loom reports a deadlock).
#[test]
fn c5_something_changed_loom_never_loses_the_wakeup() {
    loom::model(|| {
        let queue = TimerQueue::new("loom-sc").unwrap();
        queue.add(far(), |aborted| assert!(aborted)).unwrap();
        let ran = Latch::new();
        let signal = ran.clone();
        queue
            .add(Duration::ZERO, move |aborted| {
                assert!(!aborted, "the near item was cancelled");
                signal.open();
            })
            .unwrap();
        ran.wait();
        assert_eq!(queue.shutdown(), Some(0));
    });
}

/// A cancel racing with the thread taking the item out: the handler runs
/// exactly once either way, aborted exactly when the cancel succeeded.
#[test]
fn c6_exactly_once_loom_cancel_races_the_run() {
    loom::model(|| {
        let queue = TimerQueue::new("loom-sc").unwrap();
        let runs = Arc::new(Mutex::new(Vec::new()));
        let record = Arc::clone(&runs);
        let id = queue
            .add(Duration::ZERO, move |aborted| {
                record.lock().unwrap().push(aborted);
            })
            .unwrap();
        let cancelled = queue.cancel(id);
        // Shutdown joins the thread: every handler has run by now.
        assert_eq!(queue.shutdown(), Some(0));
        assert_eq!(*runs.lock().unwrap(), [cancelled]);
    });
}

/// C7 fixed, in every interleaving: a husk behind a live far item is
/// cancelled too, and the queue is empty when the thread exits.
#[test]
fn c7_queue_empty_at_exit_loom() {
    loom::model(|| {
        let queue = TimerQueue::new("loom-sc").unwrap();
        let runs = Arc::new(Mutex::new(0));
        for delay in [far(), far() * 2] {
            let record = Arc::clone(&runs);
            let id = queue
                .add(delay, move |aborted| {
                    assert!(aborted);
                    *record.lock().unwrap() += 1;
                })
                .unwrap();
            if delay > far() {
                assert!(queue.cancel(id));
            }
        }
        assert_eq!(queue.shutdown(), Some(0));
        assert_eq!(*runs.lock().unwrap(), 2);
    });
}
