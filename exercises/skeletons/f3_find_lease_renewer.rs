//! Find it, F3: write the test that catches the bug of the lease renewer in
//! `exercises/find/f3_find_lease_renewer.rs`, once you have found it.
//!
//! `exercises::find::f3::Renewer` is a renewer behind which one of several
//! versions runs: the one in that file, as it was written, and others,
//! correct ones and ones with other bugs. Your test cannot tell which it
//! got, except by what the renewer does. The check runs it against each,
//! several times, some with every core busy: it must fail on the one as
//! written every time, by an assertion of yours, and pass on every correct
//! one every time.
//!
//! Do not hope for the race: force it. `RENEWED`, `PLANNED` and `ASKED` are
//! the thread's pause points, one per step of its loop, and
//! `Pause::arm(<point>, &name)` holds the thread named `name` there until
//! you release it. Which of them lies in the bug's window is for you to
//! find.
//!
//! Check: `cargo xtask exercise check f3-find`. Hints:
//! `cargo xtask exercise hint f3-find`.

// The window: TODO(F3) say here where the bug's window is, and what a
// stop that lands in it does.

use exercises::find::f3::Renewer;
use kit::{Recorder, ms, threads};

#[test]
fn f3_lease_renewer_caught() {
    let name = threads::unique_name("find-f3");
    let rec = Recorder::new();

    // TODO(F3): the thread renews and goes round its loop as soon as it
    // starts: to hold it on that first pass, arm the pause here.

    let r = rec.clone();
    let renewer = Renewer::new(&name, ms(1000), move || {
        r.record("renewed");
    })
    .expect("start the renewer");

    // TODO(F3): once the thread is held in the window, do there what the
    // bug cannot take (from another thread, if the call may have to wait
    // for a lock the held thread has), let the thread go, and assert
    // what a renewer promises (its thread ends within 300 ms of a stop,
    // with no renewal after it), in a message that starts with "F3".
    let _ = rec.eventually("renewed", ms(100));
    drop(renewer);
}
