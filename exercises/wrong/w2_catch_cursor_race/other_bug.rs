//! Wrong: it catches another bug. It schedules a task two and a half
//! revolutions out and asserts that it does not run early: W3
//! `wraparound_fires_early`, which the post's wheel also has (it takes the
//! delay modulo the ring, with no rounds) and the hashed wheel has not. So
//! it fails on the one and passes on the other, but it never goes near the
//! window W2 is about: no thread is ever held. By what the versions do, the
//! check cannot tell it from a test of W2; it can tell that no thread was
//! held.
// verdict: never-held

use exercises::catch::w2::{Wheel, revolution, tick};
use kit::scale::in_ms;
use kit::{Recorder, threads};

#[test]
fn w2_cursor_race_caught() {
    let name = threads::unique_name("catch-w2");
    let wheel = Wheel::new(&name).expect("start the wheel");
    let rec = Recorder::new();
    let delay = revolution() * 5 / 2;
    let r = rec.clone();
    let due = rec.record("schedule") + delay;
    wheel
        .schedule(delay, move || {
            r.record("task ran");
        })
        .expect("room for one task");
    let ran = rec.eventually("task ran", delay + revolution());
    assert!(
        ran.is_some_and(|ran| ran >= due),
        "W2 cursor_race: due at {} ms, ran at {ran:?} (a tick is {} ms)",
        in_ms(due),
        in_ms(tick())
    );
}
