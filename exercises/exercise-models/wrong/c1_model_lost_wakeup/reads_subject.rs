//! Wrong: tells the versions apart by reading the grader's choice instead
//! of by how they behave, and fails on purpose on the racy one. It would
//! pass both runs; the grader rejects it before running it.

use exercise_models::c1::Timer;

#[test]
fn model() {
    loom::model(|| {
        let timer = Timer::new();
        let racy = std::env::var("EXERCISE_MODEL_SUBJECT").as_deref() == Ok("racy");
        assert!(!racy, "C1 lost_wakeup, found by looking");
        drop(timer);
    });
}
