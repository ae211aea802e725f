//! Wrong: it catches a bug the correct timers have too. It holds the
//! thread in the window, but what it asserts is that a task that panics
//! leaves the timer working (I6 `panic_kills_timer`: *A timer you can
//! interrupt* fixes it; no timer of this exercise does). It fails on the
//! correct timers too.
// verdict: rejects-correct

use exercises::catch::c1::{Pause, Timer, WINDOW};
use kit::{Recorder, ms, threads};

#[test]
fn c1_lost_wakeup_caught() {
    let name = threads::unique_name("catch-c1");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();
    let pause = Pause::arm(WINDOW, &name);
    timer
        .schedule(ms(100), || panic!("task 1 panics, on purpose"))
        .expect("a small delay");
    pause.wait_reached();
    pause.release();
    let r = rec.clone();
    timer
        .schedule(ms(150), move || {
            r.record("task 2 ran");
        })
        .expect("a small delay");
    assert!(
        rec.eventually("task 2 ran", ms(600)).is_some(),
        "C1 lost_wakeup: task 2 never ran"
    );
}
