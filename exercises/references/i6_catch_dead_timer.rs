//! Catch it, I6 `panic_kills_timer`: the reference test.
//!
//! The scenario of *A timer you can interrupt*. Task 1 panics. Then task 2
//! is scheduled, and `schedule` says `Ok`. A caller is owed what `Ok`
//! promises: the task runs (or, from a timer that cannot run it, an error
//! instead of `Ok`). On a correct timer task 2 runs, soon: whether its
//! thread caught the panic and went on, or died and left the queue to
//! another. On the timer whose thread died with task 1 and left nobody,
//! task 2 was accepted all the same, and never runs.
//!
//! No thread is held: this bug is no race. Task 2 is scheduled once task 1
//! has started to panic, and on the dying timer nothing runs after that,
//! however the threads are scheduled.

use exercises::catch::i6::Timer;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

/// Task 2's delay, from when it is scheduled.
const TASK2_MS: u64 = 50;
/// How late task 2 may run on a live timer. Generous: task 1's panic is
/// reported on the timer's thread before anything else runs there, and
/// with `RUST_BACKTRACE` set that report walks and prints the stack, which
/// on a busy machine takes a second or more.
const MARGIN_MS: u64 = 3000;

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
    let panicked = rec
        .eventually("task 1 panics", ms(5000))
        .expect("task 1 ran");

    let r = rec.clone();
    let scheduled = rec.record("schedule task 2");
    let accepted = timer.schedule(ms(TASK2_MS), move || {
        r.record("task 2 ran");
    });
    if let Err(refused) = accepted {
        // A timer that cannot run it says so: no bug.
        println!("task 2 refused: {refused}");
        return;
    }
    let by = scheduled + ms(TASK2_MS + MARGIN_MS);
    let ran = rec.eventually("task 2 ran", by.saturating_sub(rec.elapsed()));
    assert!(
        ran.is_some(),
        "I6 panic_kills_timer: task 1 panicked at {} ms; task 2, scheduled at {} ms and \
         accepted with Ok, due at {} ms, had not run at {} ms: the timer's thread died with \
         task 1, and the timer still takes work\n{}",
        in_ms(panicked),
        in_ms(scheduled),
        in_ms(scheduled + ms(TASK2_MS)),
        in_ms(by),
        rec.log()
    );
}
