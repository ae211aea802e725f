//! Wrong: the right threads and the right tasks, and no check. Nothing
//! waits for the due task, so the lost notify harms nobody: the drop stops
//! the thread whatever it was waiting for, and every execution passes, on
//! racy.rs too.

use std::time::Duration;

use exercise_models::FAR;
use exercise_models::c1::Timer;

#[test]
fn model() {
    loom::model(|| {
        let timer = Timer::new();
        timer.schedule(FAR, || {}).unwrap();
        timer.schedule(Duration::ZERO, || {}).unwrap();
        drop(timer);
    });
}
