//! Wrong: it sleeps and hopes. No pause point: it starts the timer, sleeps
//! a moment so that the thread is "surely" between its plan and its
//! take-in, and schedules. The gap is a few instructions wide.
// verdict: never-held

use std::time::Duration;

use exercises::find::f1::Timer;
use kit::{Recorder, ms, threads};

#[test]
fn f1_inbox_timer_caught() {
    let name = threads::unique_name("find-f1");
    let rec = Recorder::new();
    let timer = Timer::new(&name).expect("start the timer");
    std::thread::sleep(Duration::from_micros(100));
    let r = rec.clone();
    timer
        .schedule(ms(50), move || {
            r.record("task ran");
        })
        .expect("a small delay");
    assert!(
        rec.eventually("task ran", ms(350)).is_some(),
        "F1 inbox timer: the task never ran"
    );
}
