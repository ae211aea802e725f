//! Wrong: it fails always. After the panic it asserts that `schedule`
//! refuses task 2: java.util.Timer's answer (*A timer you can interrupt*,
//! "close on the way out"). None of the timers here gives it: the dying one
//! accepts task 2 and never runs it, the correct ones accept it and run it.
//! A refusal would be honest too, but it is not the only honest answer.
// verdict: rejects-correct

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
    rec.eventually("task 1 panics", ms(5000))
        .expect("task 1 ran");
    let accepted = timer.schedule(ms(50), || {});
    assert!(
        accepted.is_err(),
        "I6 panic_kills_timer: task 2 was accepted after the panic"
    );
}
