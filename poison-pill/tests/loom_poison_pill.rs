//! loom models of poison_pill.rs (P4): every interleaving of a cancel with the
//! timer thread, which does all its waiting in the queue the pill goes
//! into.
//!
//! Under loom the stage's clock is frozen (`sync::now`) and a timed wait
//! never times out. A far task is never due, so a thread waiting for it
//! wakes only if a notify reaches it: a lost cancel would show as a
//! deadlock of the drop, which joins the thread.
//!
//! ```text
//! cargo xtask loom poison-pill loom_poison_pill
//! ```
//!
//! runs its models, which must pass, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p poison-pill --release --target-dir target/loom --test loom_poison_pill -- --include-ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

use std::time::Duration;

use loom::sync::Arc;
use loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use poison_pill::error::ScheduleError;
use poison_pill::poison_pill::Timer;

/// A far deadline: under the frozen clock, never due.
fn far() -> Duration {
    kit::ms(3_600_000)
}

/// P3's scenario (and P2's): a far task is queued, then the timer is
/// cancelled and dropped. Whatever the interleaving, the thread ends.
#[test]
fn p4_poison_pill_loom_cancel_with_a_far_task() {
    loom::model(|| {
        let timer = Timer::new("loom-pill").unwrap();
        timer.schedule(far(), || {}).unwrap();
        timer.cancel();
        drop(timer);
    });
}

/// P1's scenario: nothing queued; the cancel lands before, during or after
/// the thread's wait on the empty queue. Whatever the interleaving, the
/// thread ends.
#[test]
fn p4_poison_pill_loom_cancel_when_idle() {
    loom::model(|| {
        let timer = Timer::new("loom-pill").unwrap();
        timer.cancel();
        drop(timer);
    });
}

/// A client schedules a task due now while another cancels. Whatever the
/// interleaving: a refused task never runs, an accepted one runs at most
/// once, and the thread ends.
#[test]
fn p4_poison_pill_loom_schedule_races_cancel() {
    loom::model(|| {
        let timer = Arc::new(Timer::new("loom-pill").unwrap());
        let runs = Arc::new(AtomicUsize::new(0));
        let client = {
            let (timer, runs) = (Arc::clone(&timer), Arc::clone(&runs));
            loom::thread::spawn(move || {
                let counted = Arc::clone(&runs);
                timer.schedule(Duration::ZERO, move || {
                    counted.fetch_add(1, SeqCst);
                })
            })
        };
        timer.cancel();
        let scheduled = client.join().unwrap();
        // The client's clone is gone with its thread: the last owner,
        // whose drop joins the timer thread.
        drop(timer);
        let ran = runs.load(SeqCst);
        match scheduled {
            Ok(()) => assert!(ran <= 1, "the task ran {ran} times"),
            Err(err) => {
                assert_eq!(err, ScheduleError::Cancelled);
                assert_eq!(ran, 0, "a refused task ran");
            }
        }
    });
}
