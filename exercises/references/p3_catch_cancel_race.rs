//! Catch it, P3 `cancel_notify_race`: the reference test.
//!
//! The scenario of *A timer that will not stop*, forced. A task is due far
//! out; the timer thread is held in its window with that task in hand; a
//! client cancels while it is held; the thread is let go, and the timer
//! dropped, which waits for its thread to end. A cancel the thread cannot
//! miss ends it at once. A cancel that notified nobody leaves it waiting
//! for the task's deadline.

use std::sync::Arc;
use std::thread;

use exercises::catch::p3::{Pause, Timer, WINDOW};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

/// When the task is due: far enough that waiting for it is unmistakable.
const TASK_MS: u64 = 800;
/// How soon after it is let go the thread must have ended.
const MARGIN_MS: u64 = 300;
/// How long the client may try to get in while the thread is held.
const HOLD_MS: u64 = 100;

#[test]
fn p3_cancel_notify_race_caught() {
    let name = threads::unique_name("catch-p3");
    let timer = Arc::new(Timer::new(&name).expect("start the timer"));
    let rec = Recorder::new();

    // Armed first: the thread reaches the window as soon as it has the task.
    let pause = Pause::arm(WINDOW, &name);
    let due = rec.record("schedule the task") + ms(TASK_MS);
    let r = rec.clone();
    timer
        .schedule(ms(TASK_MS), move || {
            r.record("task ran");
        })
        .expect("a small delay");
    pause.wait_reached();

    // The cancel, from another thread: where the window is inside the
    // timer's lock, it waits for the release.
    let client = {
        let (timer, rec) = (Arc::clone(&timer), rec.clone());
        thread::spawn(move || {
            rec.record("cancel called");
            timer.cancel();
            rec.record("cancel returned");
        })
    };
    let _ = rec.eventually("cancel returned", ms(HOLD_MS));
    // Judged from the release, not from the cancel: where the cancel waits
    // for the held thread's lock, the hold itself is part of its wait.
    let let_go = rec.record("thread let go");
    pause.release();
    client.join().expect("the client thread");
    let cancelled = rec.at("cancel called").expect("recorded by the client");

    // The last owner drops the timer: that waits for its thread to end.
    drop(timer);
    let ended = rec.record("the timer's thread ended");
    assert!(
        ended <= let_go + ms(MARGIN_MS),
        "P3 cancel_notify_race: cancelled at {} ms, let go at {} ms, the timer's thread \
         ended at {} ms (its task was due at {} ms): the cancel's notify reached nobody\n{}",
        in_ms(cancelled),
        in_ms(let_go),
        in_ms(ended),
        in_ms(due),
        rec.log()
    );
}
