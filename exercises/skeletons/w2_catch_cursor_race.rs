//! Catch it, W2 `cursor_race`: write the test that catches the task that
//! misses its slot, of *A wheel of slots*.
//!
//! `exercises::catch::w2` is a wheel behind which one of several versions
//! runs: one with the post's race, whose `schedule` reads the cursor,
//! works out the task's slot from it, and only then puts the task there;
//! correct ones, built in different ways (the chapter's hashed wheel,
//! whose `schedule` sends the task's due tick to the ticker, which alone
//! files it, among them); and wheels with other bugs of the chapter. Your
//! test cannot tell which it got, except by what the wheel does. The check
//! runs it against every one, several times each, some of them with every
//! core busy: it must fail on the one with the race every time, by an
//! assertion of yours, and pass on every correct one every time.
//!
//! Do not hope for the race: force it. `WINDOW` is the adder's race window
//! (it has worked out where its task goes and has not handed it over), and
//! `Pause::arm(WINDOW, &adder)` holds the thread named `adder` there until
//! you release it. A test that sleeps and hopes instead is told so.
//!
//! Check: `cargo xtask exercise check w2-catch`. Hints:
//! `cargo xtask exercise hint w2-catch`.

use std::thread;

use exercises::catch::w2::{Wheel, tick};
use kit::{Recorder, threads};

#[test]
fn w2_cursor_race_caught() {
    let name = threads::unique_name("catch-w2");
    let wheel = Wheel::new(&name).expect("start the wheel");
    let rec = Recorder::new();
    let adder = format!("{name}a");
    let delay = tick() * 2;

    // TODO(W2): arm the pause here, for the thread named `adder`, before it
    // schedules.

    let due = thread::scope(|s| {
        let add = thread::Builder::new()
            .name(adder.clone())
            .spawn_scoped(s, || {
                let r = rec.clone();
                let called = rec.record("schedule called");
                wheel
                    .schedule(delay, move || {
                        r.record("task ran");
                    })
                    .expect("room for one task");
                called + delay
            })
            .expect("spawn the adder");

        // TODO(W2): wait until the adder is held there. While it is held,
        // let the ticker pass the task's tick: note `wheel.ticks()`, and
        // wait (`kit::eventually`) until it has grown by more than 2. Then
        // release the pause.

        add.join().expect("the adder")
    });

    // TODO(W2): a task late by the hold is no bug; a task a revolution late
    // is. Assert that the task ran before `due + revolution()`, in a
    // message that starts with "W2".
    let _ = due;
}
