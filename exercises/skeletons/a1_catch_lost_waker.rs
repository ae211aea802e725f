//! Catch it, A1 `lost_waker`: write the test that catches the waker lost as
//! the driver fires, of *A timer for futures*.
//!
//! `exercises::catch::a1` is a timer for futures behind which one of
//! several versions runs: the racy poll, which looks at the entry under
//! its lock, lets go, then stores the task's waker; correct ones, built in
//! different ways (the chapter's, which looks and stores under one hold of
//! the lock the driver fires under, among them); and timers with other
//! bugs of the chapter. Your test cannot tell which it got, except by what
//! the timer does. The check runs it against every one, several times
//! each, some of them with every core busy: it must fail on the racy poll
//! every time, by an assertion of yours, and pass on every correct one
//! every time.
//!
//! The driver runs on a manual clock: nothing comes due until your test
//! calls `timer.advance(...)`. `Task` is a waker that counts its wakes, and
//! `poll_once(&mut sleep, &task)` polls a `Sleep` as that task would.
//!
//! Do not hope for the race: force it. `WINDOW` is the poll's window
//! (between its look at the entry and the store of its waker), and
//! `Pause::arm(WINDOW, &poller)` holds the thread named `poller` there
//! until you release it. A test that hopes instead is told so.
//!
//! Check: `cargo xtask exercise check a1-catch`. Hints:
//! `cargo xtask exercise hint a1-catch`.

use std::thread;

use exercises::catch::a1::{Task, Timer, poll_once, tick};
use kit::threads;

#[test]
fn a1_lost_waker_caught() {
    let name = threads::unique_name("catch-a1");
    let timer = Timer::new(&name).expect("start the driver");
    let task = Task::new();
    let poller = format!("{name}p");
    let mut sleep = timer.sleep(tick());

    // TODO(A1): arm the pause here, for the thread named `poller`, before
    // it polls (`Pause` and `WINDOW` come from `exercises::catch::a1`, `ms`
    // from `kit`: add them to the `use` lines above).

    let polled = thread::scope(|s| {
        let poll = thread::Builder::new()
            .name(poller.clone())
            .spawn_scoped(s, || poll_once(&mut sleep, &task))
            .expect("spawn the poller");

        // TODO(A1): wait until the poller is held in its window. While it
        // is held, let the deadline pass, and give the driver time to fire
        // the entry if it can. Then release the pause.

        poll.join().expect("the poller")
    });
    // TODO(A1): a poll that returned `Ready` saw the sleep fired: nothing
    // to wake. One that returned `Pending` left its waker for the driver:
    // its task must be woken. Assert that it is, within a second or two, in
    // a message that starts with "A1".
    let _ = polled;
}
