//! Wrong: it sleeps and hopes. No pause point: it schedules the task,
//! sleeps a moment so that the timer thread is "surely" in its window, and
//! cancels. The window is a few instructions wide; the sleep does not land
//! the cancel in it.
// verdict: never-held

use std::time::Duration;

use exercises::catch::p3::Timer;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn p3_cancel_notify_race_caught() {
    let name = threads::unique_name("catch-p3");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();
    timer.schedule(ms(800), || {}).expect("a small delay");
    std::thread::sleep(Duration::from_micros(200));
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
