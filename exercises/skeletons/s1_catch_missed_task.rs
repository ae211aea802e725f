//! Catch it, S1 `missed_earlier_task`: write the test that catches the
//! oversleep of *A timer that oversleeps*.
//!
//! `exercises::catch::s1` is a timer behind which one of several versions
//! runs: the sleep-based one, whose thread sleeps until the earliest task
//! is due; correct timers, whose threads wait in ways a `schedule` can cut
//! short (a condition variable, a semaphore); and timers with other bugs.
//! Your test cannot tell which it got, except by what the timer does. The
//! check runs it against every one, part of the runs with every core busy:
//! it must fail on the sleeper every time, by an assertion of yours, and
//! pass on every correct timer every time.
//!
//! Do not hope for the timing: force it. `WINDOW` is where the timer thread
//! has looked at the earliest task and is about to wait for it, and
//! `Pause::arm(WINDOW, &name)` holds the thread named `name` there until
//! you release it. A test that sleeps and hopes instead is told so, even
//! when it happens to catch the bug.
//!
//! Check: `cargo xtask exercise check s1-catch`. Hints:
//! `cargo xtask exercise hint s1-catch`.

use std::sync::Arc;

use exercises::catch::s1::Timer;
use kit::{Recorder, ms, threads};

#[test]
fn s1_missed_earlier_task_caught() {
    let name = threads::unique_name("catch-s1");
    let timer = Arc::new(Timer::new(&name).expect("start the timer"));
    let rec = Recorder::new();

    // TODO(S1): arm the pause here, before task 1 is scheduled: the thread
    // reaches WINDOW as soon as it has task 1 in hand.

    let r = rec.clone();
    timer
        .schedule(ms(1000), move || {
            r.record("task 1 ran");
        })
        .expect("a small delay");

    // TODO(S1): wait until the thread is held there. Schedule task 2, due in
    // `ms(50)`, from another thread (the call may have to wait for a lock
    // the held thread has), and note when task 2 is due. Let that thread
    // try for a moment, then release the pause. Then assert that task 2 ran
    // within 300 ms of its due time, in a message that starts with "S1".
}
