//! Catch it, S1 `missed_earlier_task`: the reference test.
//!
//! The scenario of *A timer that oversleeps*, forced. Task 1 is due far
//! out; the timer thread is held with task 1 in hand, about to wait for it;
//! while it is held, a client schedules task 2, due soon; then the thread
//! is let go. A timer whose wait `schedule` can cut short runs task 2 on
//! time. The sleeping one sleeps toward task 1, blind to task 2.

use std::sync::Arc;
use std::thread;

use exercises::catch::s1::{Pause, Timer, WINDOW};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

/// When task 1 is due: far enough that waiting for it is unmistakable.
const TASK1_MS: u64 = 1000;
/// When task 2 is due, from when the client schedules it.
const TASK2_MS: u64 = 50;
/// How late task 2 may run on a timer that hears about it.
const MARGIN_MS: u64 = 300;
/// How long the client may try to get in while the thread is held.
const HOLD_MS: u64 = 100;

#[test]
fn s1_missed_earlier_task_caught() {
    let name = threads::unique_name("catch-s1");
    let timer = Arc::new(Timer::new(&name).expect("start the timer"));
    let rec = Recorder::new();

    // Armed first: the thread reaches the window as soon as it has task 1.
    let pause = Pause::arm(WINDOW, &name);
    let r = rec.clone();
    timer
        .schedule(ms(TASK1_MS), move || {
            r.record("task 1 ran");
        })
        .expect("a small delay");
    pause.wait_reached();

    // The second half of the race, from another thread: where the window
    // is inside the timer's lock, this call waits for the release.
    let client = {
        let (timer, rec) = (Arc::clone(&timer), rec.clone());
        thread::spawn(move || {
            let r = rec.clone();
            let called = rec.record("schedule task 2");
            timer
                .schedule(ms(TASK2_MS), move || {
                    r.record("task 2 ran");
                })
                .expect("a small delay");
            rec.record("task 2 scheduled");
            called + ms(TASK2_MS)
        })
    };
    // Give the client its chance to get in while the thread is held.
    let _ = rec.eventually("task 2 scheduled", ms(HOLD_MS));
    pause.release();
    let due = client.join().expect("the client thread");

    let by = due + ms(MARGIN_MS);
    let ran = rec.eventually("task 2 ran", by.saturating_sub(rec.elapsed()));
    assert!(
        ran.is_some_and(|ran| ran <= by),
        "S1 missed_earlier_task: task 2 due at {} ms had not run by {} ms (task 1 is due at {} ms): \
         the thread slept toward task 1\n{}",
        in_ms(due),
        in_ms(by),
        TASK1_MS,
        rec.log()
    );
}
