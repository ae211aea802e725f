//! Wrong: it catches another bug. It schedules a task due late, and once
//! the thread is surely waiting for it, one due sooner, and asserts the
//! second ran on time. A thread that sleeps blind until the first task (S1,
//! *A timer that oversleeps*) runs it late; the busy loop, which looks
//! again and again, runs it on time. It catches S1, not the busy wait.
// verdict: catches-another

use exercises::catch::n1::Timer;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn n1_busy_wait_caught() {
    let name = threads::unique_name("catch-n1");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();
    timer.schedule(ms(600), || {}).expect("a small delay");
    // Long enough for the thread to be waiting for it, whichever way.
    std::thread::sleep(ms(100));
    let r = rec.clone();
    let due = rec.record("schedule task 2") + ms(50);
    timer
        .schedule(ms(50), move || {
            r.record("task 2 ran");
        })
        .expect("a small delay");
    let by = due + ms(250);
    let ran = rec.eventually("task 2 ran", by.saturating_sub(rec.elapsed()));
    assert!(
        ran.is_some_and(|ran| ran <= by),
        "N1 busy_wait: task 2 due at {} ms had not run by {} ms",
        in_ms(due),
        in_ms(by)
    );
}
