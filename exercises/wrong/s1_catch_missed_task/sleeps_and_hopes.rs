//! Wrong: it sleeps and hopes. No pause point: it schedules task 1, sleeps
//! 20 ms so that the timer thread is "surely" asleep toward it, and
//! schedules task 2. Here the window is the whole sleep, so it catches the
//! bug nearly every time; but "nearly" is a bet on the thread having got
//! there, and the check does not take bets.
// verdict: never-held

use std::time::Duration;

use exercises::catch::s1::Timer;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn s1_missed_earlier_task_caught() {
    let name = threads::unique_name("catch-s1");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();
    let r = rec.clone();
    timer
        .schedule(ms(1000), move || {
            r.record("task 1 ran");
        })
        .expect("a small delay");
    std::thread::sleep(Duration::from_millis(20));
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
        "S1 missed_earlier_task: task 2 due at {} ms had not run by {} ms",
        in_ms(due),
        in_ms(by)
    );
}
