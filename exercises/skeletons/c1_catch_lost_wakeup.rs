//! Catch it, C1 `lost_wakeup`: write the test that catches the lost
//! wake-up of *A timer that loses a wake-up*.
//!
//! `exercises::catch::c1` is a timer behind which one of several versions
//! runs: the racy one, whose thread takes the head and only then waits;
//! correct timers that close that gap in different ways (one lock over
//! both, or a semaphore that keeps a notify nobody waited for); and timers
//! with other bugs. Your test cannot tell which it got, except by what the
//! timer does. The check runs it against every one, part of the runs with
//! every core busy: it must fail on the racy one every time, by an
//! assertion of yours, and pass on every correct timer every time.
//!
//! Do not hope for the race: force it. `WINDOW` is the timer thread's race
//! window (it has looked at the earliest task and is not waiting yet), and
//! `Pause::arm(WINDOW, &name)` holds the thread named `name` there until
//! you release it. A test that sleeps and hopes instead is told so.
//!
//! Check: `cargo xtask exercise check c1-catch`. Hints:
//! `cargo xtask exercise hint c1-catch`.

use std::sync::Arc;

use exercises::catch::c1::Timer;
use kit::{Recorder, ms, threads};

#[test]
fn c1_lost_wakeup_caught() {
    let name = threads::unique_name("catch-c1");
    let timer = Arc::new(Timer::new(&name).expect("start the timer"));
    let rec = Recorder::new();

    // TODO(C1): arm the pause here, before task 1 is scheduled: the thread
    // reaches WINDOW as soon as it has task 1 in hand.

    let r = rec.clone();
    timer
        .schedule(ms(1000), move || {
            r.record("task 1 ran");
        })
        .expect("a small delay");

    // TODO(C1): wait until the thread is held there. While it is held,
    // schedule task 2, due in `ms(50)`, from another thread (the call may
    // have to wait for a lock the held thread has), and note when task 2 is
    // due. Let that thread try for a moment, then release the pause. Then
    // assert that task 2 ran within 300 ms of its due time, in a message
    // that starts with "C1".
}
