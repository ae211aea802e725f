//! Find it, F4: write the test that catches the bug of the retry timer in
//! `exercises/find/f4_find_retry_timer.rs`, once you have found it.
//!
//! `exercises::find::f4::Retrier` is a retry timer behind which one of
//! several versions runs: the one in that file, as it was written, and
//! others, correct ones and ones with other bugs. Your test cannot tell
//! which it got, except by what the retry timer does. The check runs it
//! against each, several times, some with every core busy: it must fail on
//! the one as written every time, by an assertion of yours, and pass on
//! every correct one every time.
//!
//! Do not hope for the race: force it. `TRIED`, `ASKED` and `QUEUED` are
//! the pause points of an attempt, on the pool's worker, one per step, and
//! `Pause::arm(<point>, &name)` holds the worker named `name` there until
//! you release it. Which of them lie in the bug's window is for you to
//! find.
//!
//! Check: `cargo xtask exercise check f4-find`. Hints:
//! `cargo xtask exercise hint f4-find`.

// The window: TODO(F4) say here where the bug's window is, and what a
// cancel that lands in it does.

use exercises::find::f4::Retrier;
use kit::{Recorder, ms, threads};

#[test]
fn f4_retry_timer_caught() {
    let name = threads::unique_name("find-f4");
    let retrier = Retrier::new(&name).expect("start the retry timer");
    let rec = Recorder::new();

    // TODO(F4): the first attempt starts at once: to hold the worker
    // during it, arm the pause here.

    let r = rec.clone();
    let retry = retrier.retry(ms(100), move || {
        r.record("attempt");
        false // it always fails
    });

    // TODO(F4): once the worker is held in the window, do there what the
    // bug cannot take (from another thread, if the call may have to wait
    // for a lock the held thread has), let the worker go, and assert
    // what a retry timer promises (no attempt starts after `cancel` has
    // returned), in a message that starts with "F4".
    let _ = rec.eventually("attempt", ms(100));
    retry.cancel();
}
