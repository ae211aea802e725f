//! Wrong: reads the grader's choice through an alias of `std::env`, as a
//! student who knows the check once matched text might. The grader reads
//! the file as Rust, not as text, and rejects it before running it.

use exercise_models::c1::Timer;
use std::env as e;

#[test]
fn model() {
    loom::model(|| {
        let timer = Timer::new();
        let racy = e::var("EXERCISE_MODEL_SUBJECT").is_ok_and(|s| s == "racy");
        assert!(!racy, "C1 lost_wakeup, found by looking");
        drop(timer);
    });
}
