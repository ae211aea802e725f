//! The check of exercise P4: cancel the timer while its thread is about to
//! block, on an empty queue (P1) and on a far task (P2); the thread must be
//! gone soon after, and no queued task may run.
//!
//! `cargo xtask exercise check p4` runs it against your file.

use std::sync::Arc;
use std::time::Duration;

use exercises::p4_poison_pill::{IDLE, Timer, WAIT};
use kit::pause::Pause;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

/// How far out the queued task is due.
const FAR_MS: u64 = 1000;
/// How soon after the cancel the thread must be gone.
const STOPS_WITHIN_MS: u64 = 300;

/// Holds the thread at `point` (after scheduling a far task, if `far`),
/// cancels from another thread, lets the thread go, and checks it is gone
/// within `STOPS_WITHIN_MS`, naming `bug` if it is not.
fn cancel_at(prefix: &str, point: &'static str, far: bool, bug: &str) {
    let name = threads::unique_name(prefix);
    let rec = Recorder::new();
    let pause = Pause::arm(point, &name);
    let timer = Arc::new(Timer::new(&name).expect("start the timer"));
    if far {
        let r = rec.clone();
        timer
            .schedule(ms(FAR_MS), move || {
                r.record("far task ran");
            })
            .expect("schedule the far task");
    }
    assert!(
        pause.reached_within(ms(5000)),
        "the timer thread never reached its pause point: keep the \
         `kit::pause_point` calls where the skeleton has them"
    );
    let client = {
        let (timer, rec) = (Arc::clone(&timer), rec.clone());
        std::thread::spawn(move || {
            rec.record("cancel");
            timer.cancel();
            rec.record("cancel returned");
        })
    };
    // A cancel that takes the thread's lock may have to wait for the release.
    let _ = rec.eventually("cancel returned", ms(100));
    pause.release();
    client.join().expect("the client thread");
    let cancelled = rec.at("cancel").expect("recorded");
    let gone = threads::gone_within(&name, ms(STOPS_WITHIN_MS));
    let seen = rec.elapsed();
    if !gone {
        // The thread does not stop, so dropping the timer (which joins it)
        // would hang the check: leave it to the end of this test process.
        std::mem::forget(timer);
        panic!(
            "{bug}: cancelled at {} ms, thread still running at {} ms{}",
            in_ms(cancelled),
            in_ms(seen),
            if far {
                format!(" (a task was due at {FAR_MS} ms)")
            } else {
                String::new()
            }
        );
    }
    drop(timer);
    assert!(
        rec.still_absent("far task ran", ms(FAR_MS + 100)).is_ok(),
        "P6: a queued task ran after cancel\n{}",
        rec.log()
    );
}

#[test]
fn p4_poison_pill_stops_an_idle_timer() {
    cancel_at("ex-p4-idle", IDLE, false, "P1 cancel_hangs_idle");
}

#[test]
fn p4_poison_pill_stops_a_waiting_timer() {
    cancel_at("ex-p4-wait", WAIT, true, "P2 cancel_waits_for_deadline");
}

#[test]
fn p4_poison_pill_refuses_work_after_cancel() {
    let name = threads::unique_name("ex-p4-after");
    let timer = Timer::new(&name).expect("start the timer");
    timer.cancel();
    assert!(
        timer.schedule(Duration::ZERO, || {}).is_err(),
        "P6: schedule after cancel must be refused (\"Timer already cancelled.\")"
    );
    // The skeleton's thread may be blocked for good: do not join it.
    if threads::gone_within(&name, ms(STOPS_WITHIN_MS)) {
        drop(timer);
    } else {
        std::mem::forget(timer);
    }
}
