//! Wrong: it asserts nothing. It makes task 1 panic, schedules task 2,
//! waits for it, and never says what it expected.
// verdict: misses-the-bug

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
    let r = rec.clone();
    let accepted = timer.schedule(ms(50), move || {
        r.record("task 2 ran");
    });
    let ran = rec.eventually("task 2 ran", ms(550));
    println!("task 2: {accepted:?}, ran at {ran:?}");
}
