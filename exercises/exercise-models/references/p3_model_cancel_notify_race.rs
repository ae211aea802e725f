//! Reference model for P3 `cancel_notify_race`: a far task is queued, then
//! the timer is cancelled and dropped; the drop joins the timer's thread.
//!
//! On notify_on_cancel.rs loom finds the execution where the cancel (flag
//! and notify) lands after the thread read the flag and before it waits on
//! the monitor for the far task: the notify reaches nobody, the thread
//! waits for the far task for ever, the drop waits for the thread for
//! ever, and loom reports a deadlock. On poison_pill.rs the cancel is a
//! pill in the queue the thread waits on, which no timing can lose.
//!
//! The far task is queued before the cancel, so the thread never blocks in
//! `take` on an empty queue once the cancel is sent: P1 cannot block this
//! model, only P3 can. The check is the drop's join: loom reports a thread
//! that never ends as a deadlock.

use exercise_models::FAR;
use exercise_models::p3::Timer;

#[test]
fn model() {
    loom::model(|| {
        let timer = Timer::new();
        timer.schedule(FAR, || {}).unwrap();
        timer.cancel();
        // The check: the drop joins the thread, which must end.
        drop(timer);
    });
}
