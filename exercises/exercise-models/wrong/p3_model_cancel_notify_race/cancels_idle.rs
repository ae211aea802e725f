//! Wrong: models another bug. With nothing queued, the timer's thread may
//! be blocked in `take` on the empty queue when the cancel comes: the
//! notify goes to the monitor, nobody wakes the queue, and the drop waits
//! for ever. loom finds that deadlock on notify_on_cancel.rs, but it is
//! P1 `cancel_hangs_idle`, not P3: the thread was never waiting for a
//! deadline.

use exercise_models::p3::Timer;

#[test]
fn model() {
    loom::model(|| {
        let timer = Timer::new();
        timer.cancel();
        drop(timer);
    });
}
