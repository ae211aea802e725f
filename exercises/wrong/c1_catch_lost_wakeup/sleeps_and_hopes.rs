//! Wrong: it sleeps and hopes. No pause point: it schedules task 1, sleeps
//! a moment so that the timer thread is "surely" in its window, and
//! schedules task 2. The window is a few instructions wide; the sleep does
//! not land the call in it.
// verdict: never-held

use std::time::Duration;

use exercises::catch::c1::Timer;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn c1_lost_wakeup_caught() {
    let name = threads::unique_name("catch-c1");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();
    let r = rec.clone();
    timer
        .schedule(ms(1000), move || {
            r.record("task 1 ran");
        })
        .expect("a small delay");
    std::thread::sleep(Duration::from_micros(200));
    let due = rec.record("schedule task 2") + ms(50);
    let r = rec.clone();
    timer
        .schedule(ms(50), move || {
            r.record("task 2 ran");
        })
        .expect("a small delay");
    let by = due + ms(300);
    let ran = rec.eventually("task 2 ran", by.saturating_sub(rec.elapsed()));
    assert!(
        ran.is_some(),
        "C1 lost_wakeup: task 2 due at {} ms had not run by {} ms",
        in_ms(due),
        in_ms(by)
    );
}
