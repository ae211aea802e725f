//! Find it, F1: write the test that catches the bug of the timer that
//! waits on its inbox, `exercises/find/f1_find_inbox_timer.rs`.
//!
//! `exercises::find::f1::Timer` is a timer behind which one of several
//! versions runs: the scheduler in that file, as it was written, and
//! others, correct ones and ones with other bugs. Your test cannot tell
//! which it got, except by what the timer does. The check runs it against
//! every one, several times each, some with every core busy: it must fail
//! on the scheduler as written every time, by an assertion of yours, and
//! pass on every correct one every time.
//!
//! Read the scheduler first: its loop, and the pause points after each of
//! its steps (`RAN`, `PLANNED`, `TOOK_IN`). `Pause::arm(<point>, &name)`
//! holds the thread named `name` there until you release it. A test that
//! sleeps and hopes instead is told so.
//!
//! Check: `cargo xtask exercise check f1-find`. Hints:
//! `cargo xtask exercise hint f1-find`.

// The window: TODO(F1) say here where the bug's window is, between which
// steps of the loop, and what a task scheduled in it suffers.

use exercises::find::f1::Timer;
use kit::{Recorder, ms, threads};

#[test]
fn f1_inbox_timer_caught() {
    let name = threads::unique_name("find-f1");
    let rec = Recorder::new();

    // TODO(F1): the thread makes its first pass through the loop as soon
    // as it starts: to hold it on that pass, arm the pause here.

    let timer = Timer::new(&name).expect("start the timer");

    // TODO(F1): once the thread is held in the window, do there what the
    // bug cannot take, let the thread go, and assert what a timer promises
    // (a task runs within 300 ms of its due time), in a message that starts
    // with "F1".
    let r = rec.clone();
    timer
        .schedule(ms(50), move || {
            r.record("task ran");
        })
        .expect("a small delay");
    let _ = rec.eventually("task ran", ms(350));
}
