//! C7 cancel_all_skips_cancelled: the C++ TimerQueue post's second
//! historical bug.
//!
//! `cancel` leaves a husk at the timer's old deadline. The old `cancel_all`
//! skipped items that were cancelled already, the husk among them, so the
//! husk kept its far deadline. Shutdown cancels everything, runs what is due
//! and stops the thread: the husk is not due yet and is still in the queue
//! when the thread exits. In the C++ queue, the worker thread's run loop
//! asserted an empty queue as it ended, and the destructor is what ends it:
//! so the assert fired while the queue was being destroyed. Here the
//! thread returns the count, and the test checks it.
//!
//! The husk must not be at the head, or the thread drops it on its next
//! look: a live timer due earlier keeps it behind.
#![cfg(not(loom))]

use std::time::Duration;

use condvar_timer::something_changed::TimerQueue;
use condvar_timer::{cancel_all_skips_cancelled, something_changed};
use kit::Recorder;
use kit::threads::{assert_gone, unique_name};

/// Items left in the queue when the thread exited.
struct Outcome {
    left: usize,
    rec: Recorder,
}

/// A live timer due in 1000 ms, and one due in 2000 ms that is cancelled
/// (its husk stays behind the first), then shutdown.
fn husk_behind_a_live_timer(queue: TimerQueue, name: &str) -> Outcome {
    let rec = Recorder::new();
    let add = |delay: Duration, label: &'static str| {
        let rec = rec.clone();
        queue
            .add(delay, move |aborted| {
                rec.record(format!("{label} aborted={aborted}"));
            })
            .unwrap()
    };
    add(kit::ms(1000), "live");
    let cancelled = add(kit::ms(2000), "cancelled");
    assert!(queue.cancel(cancelled));
    rec.eventually("cancelled aborted=true", kit::ms(5000))
        .expect("the cancelled handler never ran");
    let left = queue.shutdown().expect("the thread exited normally");
    assert_gone(name);
    // Either way, every handler ran exactly once: the bug only leaves a
    // husk behind, which has nothing to run.
    assert_eq!(rec.count("live aborted=true"), 1, "{}", rec.log());
    assert_eq!(rec.count("cancelled aborted=true"), 1, "{}", rec.log());
    assert_eq!(rec.events().len(), 2, "{}", rec.log());
    Outcome { left, rec }
}

fn assert_empty_at_exit(outcome: &Outcome) {
    assert!(
        outcome.left == 0,
        "C7 cancel_all_skips_cancelled: {} item(s) left in the queue when the timer thread exited\n{}",
        outcome.left,
        outcome.rec.log()
    );
}

#[test]
fn c7_cancel_all_skips_cancelled_reproduces() {
    let name = unique_name("c7");
    let queue = cancel_all_skips_cancelled::new(&name).unwrap();
    let outcome = husk_behind_a_live_timer(queue, &name);
    assert_eq!(outcome.left, 1, "the husk should be left behind");
}

#[test]
fn c7_cancel_all_skips_cancelled_fixed() {
    let name = unique_name("c7");
    let queue = something_changed::TimerQueue::new(&name).unwrap();
    assert_empty_at_exit(&husk_behind_a_live_timer(queue, &name));
}

#[test]
#[ignore = "C7 cancel_all_skips_cancelled: shows the bug in cancel_all_skips_cancelled.rs"]
fn c7_cancel_all_skips_cancelled_on_original_cancel_all() {
    let name = unique_name("c7");
    let queue = cancel_all_skips_cancelled::new(&name).unwrap();
    assert_empty_at_exit(&husk_behind_a_live_timer(queue, &name));
}
