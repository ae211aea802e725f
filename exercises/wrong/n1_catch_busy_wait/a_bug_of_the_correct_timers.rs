//! Wrong: it catches a bug the correct timers have too. What it asserts
//! is that a task that panics leaves the timer working (I6
//! `panic_kills_timer`: *A timer you can interrupt* fixes it; no timer of
//! this exercise does). It fails on the correct timers too.
// verdict: rejects-correct

use exercises::catch::n1::Timer;
use kit::{Recorder, ms, threads};

#[test]
fn n1_busy_wait_caught() {
    let name = threads::unique_name("catch-n1");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();
    timer
        .schedule(ms(0), || panic!("task 1 panics, on purpose"))
        .expect("a small delay");
    let _ = threads::gone_within(&name, ms(1000));
    let r = rec.clone();
    timer
        .schedule(ms(50), move || {
            r.record("task 2 ran");
        })
        .expect("a small delay");
    assert!(
        rec.eventually("task 2 ran", ms(600)).is_some(),
        "N1 busy_wait: task 2 never ran"
    );
}
