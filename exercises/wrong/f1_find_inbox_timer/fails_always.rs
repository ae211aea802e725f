//! Wrong: it fails always. It forces the window well, then asserts more
//! than a timer does: that the task ran before it was due.
// verdict: rejects-correct

use exercises::find::f1::{PLANNED, Pause, Timer};
use kit::{Recorder, ms, threads};

#[test]
fn f1_inbox_timer_caught() {
    let name = threads::unique_name("find-f1");
    let rec = Recorder::new();
    let pause = Pause::arm(PLANNED, &name);
    let timer = Timer::new(&name).expect("start the timer");
    pause.wait_reached();
    let scheduled = rec.record("schedule the task");
    let r = rec.clone();
    timer
        .schedule(ms(50), move || {
            r.record("task ran");
        })
        .expect("a small delay");
    pause.release();
    let ran = rec.eventually("task ran", ms(350));
    assert!(
        ran.is_some_and(|at| at < scheduled + ms(25)),
        "F1 inbox timer: the task had not run halfway to its due time: {ran:?}"
    );
}
