//! Wrong: models another race, two clients scheduling at once, with a
//! check that holds. Every task is due now, so the timer's thread never
//! waits on its monitor for a deadline, and the window of C1 (between
//! taking the head and waiting for it) never opens: every execution passes
//! on racy.rs too.

use std::time::Duration;

use exercise_models::Latch;
use exercise_models::c1::Timer;

#[test]
fn model() {
    loom::model(|| {
        let timer = loom::sync::Arc::new(Timer::new());
        let (first, second) = (Latch::new(), Latch::new());
        let client = {
            let (timer, signal) = (timer.clone(), first.clone());
            loom::thread::spawn(move || {
                timer
                    .schedule(Duration::ZERO, move || signal.open())
                    .unwrap();
            })
        };
        let signal = second.clone();
        timer
            .schedule(Duration::ZERO, move || signal.open())
            .unwrap();
        client.join().unwrap();
        first.wait();
        second.wait();
    });
}
