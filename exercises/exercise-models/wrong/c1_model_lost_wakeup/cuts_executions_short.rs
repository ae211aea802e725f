//! Wrong: cuts short every execution it does not like. Where the task due
//! now has not run by the time it looks, it tells loom to stop exploring
//! that execution, and the failing assertion after it is never reached: on
//! the racy version too, "every execution passed". The grader rejects a
//! model that calls `loom::stop_exploring` or `loom::skip_branch`, however
//! it names them, before running it.

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
        if !ran.is_open() {
            loom::stop_exploring();
        }
        assert!(ran.is_open(), "C1 lost_wakeup: the due task never ran");
        drop(timer);
    });
}
