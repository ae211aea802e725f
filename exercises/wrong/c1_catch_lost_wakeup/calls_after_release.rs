//! Wrong: it holds the thread, but makes the call that races only after
//! the release. Whether task 2's notify comes before the released thread
//! waits is then up to the scheduler: it catches the bug when the test
//! thread wins, and misses it when the timer thread does.
// verdict: luck | misses-the-bug | catches-another

use exercises::catch::c1::{Pause, Timer, WINDOW};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn c1_lost_wakeup_caught() {
    let name = threads::unique_name("catch-c1");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();
    let pause = Pause::arm(WINDOW, &name);
    let r = rec.clone();
    timer
        .schedule(ms(1000), move || {
            r.record("task 1 ran");
        })
        .expect("a small delay");
    pause.wait_reached();
    pause.release();
    let due = rec.record("schedule task 2") + ms(50);
    let r = rec.clone();
    timer
        .schedule(ms(50), move || {
            r.record("task 2 ran");
        })
        .expect("a small delay");
    let by = due + ms(300);
    let ran = rec.eventually("task 2 ran", by.saturating_sub(rec.elapsed()));
    assert!(
        ran.is_some(),
        "C1 lost_wakeup: task 2 due at {} ms had not run by {} ms",
        in_ms(due),
        in_ms(by)
    );
}
