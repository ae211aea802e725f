//! Wrong: it asserts nothing. It forces the window well, waits for the
//! task, and never says what it expected.
// verdict: misses-the-bug

use exercises::find::f1::{PLANNED, Pause, Timer};
use kit::{Recorder, ms, threads};

#[test]
fn f1_inbox_timer_caught() {
    let name = threads::unique_name("find-f1");
    let rec = Recorder::new();
    let pause = Pause::arm(PLANNED, &name);
    let timer = Timer::new(&name).expect("start the timer");
    pause.wait_reached();
    let r = rec.clone();
    timer
        .schedule(ms(50), move || {
            r.record("task ran");
        })
        .expect("a small delay");
    pause.release();
    let ran = rec.eventually("task ran", ms(350));
    println!("the task ran at {ran:?}");
}
