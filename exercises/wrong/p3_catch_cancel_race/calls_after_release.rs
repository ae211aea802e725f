//! Wrong: it holds the thread, but cancels only after the release. Whether
//! the cancel's notify comes before the released thread waits is then up to
//! the scheduler: it catches the bug when the test thread wins, and misses
//! it when the timer thread does.
// verdict: luck | misses-the-bug

use exercises::catch::p3::{Pause, Timer, WINDOW};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn p3_cancel_notify_race_caught() {
    let name = threads::unique_name("catch-p3");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();
    let pause = Pause::arm(WINDOW, &name);
    timer.schedule(ms(800), || {}).expect("a small delay");
    pause.wait_reached();
    pause.release();
    let cancelled = rec.record("cancel");
    timer.cancel();
    drop(timer);
    let ended = rec.record("ended");
    assert!(
        ended <= cancelled + ms(300),
        "P3 cancel_notify_race: cancelled at {} ms, ended at {} ms",
        in_ms(cancelled),
        in_ms(ended)
    );
}
