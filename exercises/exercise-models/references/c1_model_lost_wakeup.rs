//! Reference model for C1 `lost_wakeup`: a far task (never due under the
//! frozen clock), then a task due now; the model waits for the due task.
//!
//! On racy.rs loom finds the execution where the second `schedule`
//! inserts and notifies between the timer thread's `take` of the far task
//! and its wait on the monitor: the notify reaches nobody, the thread waits
//! for the far task for ever, the model waits for the due task for ever,
//! and loom reports a deadlock. On timer_style.rs the insert needs the lock
//! the thread holds from its look at the head until it waits, so the notify
//! always finds it waiting, or the thread finds the new head when it looks.
//!
//! Two threads: the model's and the timer's. The drop cannot block the
//! model (it sets the stop flag under the lock the thread checks before it
//! waits); only the lost notify can.

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
        // The check: the task due now runs. If its notify is lost, this
        // waits for ever and loom reports the deadlock.
        ran.wait();
        drop(timer);
    });
}
