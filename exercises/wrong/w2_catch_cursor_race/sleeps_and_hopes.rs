//! Wrong: it sleeps and hopes. No pause point: it sleeps until just
//! before a tick ends, so that the cursor "surely" moves while `schedule`
//! works, and schedules. The window is a few instructions wide, and the
//! sleep does not land the tick in it.
// verdict: never-held

use std::time::Instant;

use exercises::catch::w2::{Wheel, revolution, tick};
use kit::{Recorder, threads};

#[test]
fn w2_cursor_race_caught() {
    let name = threads::unique_name("catch-w2");
    let wheel = Wheel::new(&name).expect("start the wheel");
    let rec = Recorder::new();
    let start = Instant::now();
    let k = wheel.ticks();
    let next = tick() * u32::try_from(k + 1).expect("a few ticks");
    std::thread::sleep(next.saturating_sub(start.elapsed() + tick() / 20));
    let r = rec.clone();
    let due = rec.record("schedule") + tick() * 2;
    wheel
        .schedule(tick() * 2, move || {
            r.record("task ran");
        })
        .expect("room for one task");
    let ran = rec.eventually("task ran", revolution() * 2);
    assert!(
        ran.is_some_and(|ran| ran < due + revolution()),
        "W2 cursor_race: due at {due:?}, ran at {ran:?}"
    );
}
