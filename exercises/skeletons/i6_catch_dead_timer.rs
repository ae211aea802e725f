//! Catch it, I6 `panic_kills_timer`: write the test that catches the dead
//! timer that still takes work, of *A timer you can interrupt*.
//!
//! `exercises::catch::i6` is a timer behind which one of several versions
//! runs: the interruptible timer, whose thread dies with a task that
//! panics and whose `schedule` goes on saying `Ok`; correct ones, which
//! keep that promise in different ways (the chapter's finished Timer, which
//! catches the panic and goes on, among them); and timers with other bugs.
//! Your test cannot tell which it got, except by what the timer does. The
//! check runs it against each of them, several times, some with every core
//! busy: it must fail on the interruptible timer every time, by an
//! assertion of yours, and pass on every correct one every time.
//!
//! This bug is no race: nothing to hold still. Make a task panic, then ask
//! of the timer what `schedule` promises.
//!
//! Check: `cargo xtask exercise check i6-catch`. Hints:
//! `cargo xtask exercise hint i6-catch`.

use exercises::catch::i6::Timer;
use kit::{Recorder, ms, threads};

#[test]
fn i6_panic_kills_timer_caught() {
    let name = threads::unique_name("catch-i6");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();

    let r = rec.clone();
    timer
        .schedule(ms(0), move || {
            r.record("task 1 panics");
            panic!("task 1 panics, on purpose");
        })
        .expect("a live timer takes task 1");

    // TODO(I6): wait until task 1 has started to panic (`rec.eventually`).
    // Then schedule task 2, due in `ms(50)`, recording "task 2 ran". If
    // `schedule` refuses it, that is no bug. If it says `Ok`, assert that
    // task 2 ran within 3 s of its due time (a panic's report can be slow),
    // in a message that starts with "I6".
}
