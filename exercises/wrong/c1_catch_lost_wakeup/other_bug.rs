//! Wrong: it catches another bug. It holds the thread in the window, lets
//! it go, and only once the thread is surely waiting for task 1 schedules
//! task 2, due sooner. A timer whose thread sleeps blind until task 1 (S1,
//! *A timer that oversleeps*) runs task 2 late; the racy timer, already
//! waiting on its monitor, hears the notify and runs it on time. It catches
//! S1, not the lost wake-up.
// verdict: catches-another

use std::sync::Arc;

use exercises::catch::c1::{Pause, Timer, WINDOW};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn c1_lost_wakeup_caught() {
    let name = threads::unique_name("catch-c1");
    let timer = Arc::new(Timer::new(&name).expect("start the timer"));
    let rec = Recorder::new();
    let pause = Pause::arm(WINDOW, &name);
    timer.schedule(ms(1000), || {}).expect("a small delay");
    pause.wait_reached();
    pause.release();
    // Long enough for the released thread to be waiting, whichever way.
    std::thread::sleep(ms(200));
    let r = rec.clone();
    let due = rec.record("schedule task 2") + ms(50);
    timer
        .schedule(ms(50), move || {
            r.record("task 2 ran");
        })
        .expect("a small delay");
    let by = due + ms(300);
    let ran = rec.eventually("task 2 ran", by.saturating_sub(rec.elapsed()));
    assert!(
        ran.is_some_and(|ran| ran <= by),
        "C1 lost_wakeup: task 2 due at {} ms had not run by {} ms",
        in_ms(due),
        in_ms(by)
    );
}
