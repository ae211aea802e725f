//! Find it, F2: write the test that catches the bug of the debouncer,
//! `exercises/find/f2_find_debouncer.rs`.
//!
//! `exercises::find::f2::Debouncer` is a debouncer behind which one of
//! several versions runs: the scheduler in that file, as it was written,
//! and others, correct ones and ones with other bugs. Your test cannot tell
//! which it got, except by what the debouncer does. The check runs it
//! against every one, several times each, some with every core busy: it
//! must fail on the scheduler as written every time, by an assertion of
//! yours, and pass on every correct one every time.
//!
//! Read the scheduler first: its loop, and the pause points after each of
//! its steps (`AFTER_LOOK`, `BEFORE_WAIT`, `AFTER_WAKE`).
//! `Pause::arm(<point>, &name)` holds the thread named `name` there until
//! you release it. A test that sleeps and hopes instead is told so.
//!
//! Check: `cargo xtask exercise check f2-find`. Hints:
//! `cargo xtask exercise hint f2-find`.

// The window: TODO(F2) say here where the bug's window is, between which
// two steps of the loop, and what a poke that lands in it does.

use exercises::find::f2::Debouncer;
use kit::{Recorder, ms, threads};

#[test]
fn f2_debouncer_caught() {
    let name = threads::unique_name("find-f2");
    let rec = Recorder::new();

    // TODO(F2): the thread makes its first pass through the loop as soon
    // as it starts: to hold it on that pass, arm the pause here.

    let r = rec.clone();
    let debouncer = Debouncer::new(&name, ms(50), move || {
        r.record("fired");
    })
    .expect("start the debouncer");

    // TODO(F2): once the thread is held in the window, poke there, from
    // another thread (in some versions the poke waits for a lock the held
    // thread has: give it a moment, then let the thread go), and assert
    // what a debouncer promises (it fires within 300 ms of its quiet
    // time, counted from the poke), in a message that starts with "F2".
    debouncer.poke();
    let _ = rec.eventually("fired", ms(350));
}
