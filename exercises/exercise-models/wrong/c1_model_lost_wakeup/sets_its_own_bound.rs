//! Wrong: runs the reference model with a preemption bound of its own, one
//! instead of the chapter's three: loom then tries far fewer orders, and a
//! model that found nothing would prove less than the check says. The
//! grader owns loom's settings and rejects a model that sets them.

use std::time::Duration;

use exercise_models::c1::Timer;
use exercise_models::{FAR, Latch};

#[test]
fn model() {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(1);
    builder.check(|| {
        let timer = Timer::new();
        timer.schedule(FAR, || {}).unwrap();
        let ran = Latch::new();
        let signal = ran.clone();
        timer
            .schedule(Duration::ZERO, move || signal.open())
            .unwrap();
        ran.wait();
        drop(timer);
    });
}
