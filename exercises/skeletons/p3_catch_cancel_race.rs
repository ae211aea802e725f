//! Catch it, P3 `cancel_notify_race`: write the test that catches the
//! cancel nobody hears, of *A timer that will not stop*.
//!
//! `exercises::catch::p3` is a timer behind which one of several versions
//! runs: fix 1, whose `cancel` sets a flag and notifies the monitor the
//! thread waits on; correct ones, which stop at once in different ways
//! (the poison pill, whose `cancel` puts a pill in the queue the thread
//! does all its waiting in, among them); and timers with other bugs of the
//! chapter. Your test cannot tell which it got, except by what the timer
//! does. The check runs it against each of them, several times, some with
//! every core busy: it must fail on fix 1 every time, by an assertion of
//! yours, and pass on every correct one every time.
//!
//! Do not hope for the race: force it. `WINDOW` is the timer thread's race
//! window (it has taken a task not yet due, after reading the flag, and is
//! not waiting yet), and `Pause::arm(WINDOW, &name)` holds the thread named
//! `name` there until you release it. A test that sleeps and hopes instead
//! is told so.
//!
//! Check: `cargo xtask exercise check p3-catch`. Hints:
//! `cargo xtask exercise hint p3-catch`.

use std::sync::Arc;

use exercises::catch::p3::Timer;
use kit::{Recorder, ms, threads};

#[test]
fn p3_cancel_notify_race_caught() {
    let name = threads::unique_name("catch-p3");
    let timer = Arc::new(Timer::new(&name).expect("start the timer"));
    let rec = Recorder::new();

    // TODO(P3): arm the pause here, before the task is scheduled: the thread
    // reaches WINDOW as soon as it has the task in hand.

    let r = rec.clone();
    timer
        .schedule(ms(800), move || {
            r.record("task ran");
        })
        .expect("a small delay");

    // TODO(P3): wait until the thread is held there. While it is held,
    // cancel the timer from another thread (the call may have to wait for a
    // lock the held thread has), noting when you called it. Let that thread
    // try for a moment, then release the pause. Then drop the timer, which
    // waits for its thread to end, and assert that it ended within 300 ms
    // of the cancel, in a message that starts with "P3".
}
