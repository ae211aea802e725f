//! Wrong: waits for the far task to run before cancelling. Under loom the
//! clock is frozen and a timed wait never times out, so the far task never
//! comes due, on poison_pill.rs too: loom reports a deadlock on the fixed
//! version.

use exercise_models::p3::Timer;
use exercise_models::{FAR, Latch};

#[test]
fn model() {
    loom::model(|| {
        let timer = Timer::new();
        let ran = Latch::new();
        let signal = ran.clone();
        timer.schedule(FAR, move || signal.open()).unwrap();
        ran.wait();
        timer.cancel();
        drop(timer);
    });
}
