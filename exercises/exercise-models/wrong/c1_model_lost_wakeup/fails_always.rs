//! Wrong: checks something no timer promises. The due task runs on the
//! timer's thread some time after `schedule` returns, not by then, so loom
//! finds an execution where it has not run yet, on timer_style.rs as on
//! racy.rs.

use std::time::Duration;

use exercise_models::c1::Timer;
use exercise_models::{FAR, Latch};

#[test]
fn model() {
    loom::model(|| {
        let timer = Timer::new();
        timer.schedule(FAR, || {}).unwrap();
        let ran = Latch::new();
        let signal = ran.clone();
        timer
            .schedule(Duration::ZERO, move || signal.open())
            .unwrap();
        assert!(ran.is_open(), "the task due now has not run yet");
        drop(timer);
    });
}
