//! Wrong: checks something neither version promises. A cancelled timer
//! refuses new tasks, so this assertion fails in every execution, on
//! poison_pill.rs too.

use std::time::Duration;

use exercise_models::FAR;
use exercise_models::p3::Timer;

#[test]
fn model() {
    loom::model(|| {
        let timer = Timer::new();
        timer.schedule(FAR, || {}).unwrap();
        timer.cancel();
        assert!(
            timer.schedule(Duration::ZERO, || {}).is_ok(),
            "a cancelled timer refused a task"
        );
        drop(timer);
    });
}
