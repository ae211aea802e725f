//! Wrong: it catches W3, not W2. It forces the race well: the adder,
//! held in its window with a task due in two ticks, while the ticker
//! passes the task's tick. But what it asserts is about another task, due
//! two and a half revolutions out, scheduled from the test's own thread
//! while the adder is held: that it does not run early. That is W3
//! `wraparound_fires_early` (a wheel that keeps no rounds fires it the
//! first time the ticker passes its slot); the held task, the one the
//! cursor race makes a revolution late, it never looks at.
// verdict: catches-another

use std::thread;

use exercises::catch::w2::{Pause, WINDOW, Wheel, revolution, tick};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn w2_cursor_race_caught() {
    let name = threads::unique_name("catch-w2");
    let wheel = Wheel::new(&name).expect("start the wheel");
    let rec = Recorder::new();
    let adder = format!("{name}a");
    let far = revolution() * 5 / 2;
    let pause = Pause::arm(WINDOW, &adder);
    let far_due = thread::scope(|s| {
        let add = thread::Builder::new()
            .name(adder.clone())
            .spawn_scoped(s, || {
                let r = rec.clone();
                wheel
                    .schedule(tick() * 2, move || {
                        r.record("near task ran");
                    })
                    .expect("room for one task");
            })
            .expect("spawn the adder");
        pause.wait_reached();
        let r = rec.clone();
        let far_due = rec.record("far task scheduled") + far;
        wheel
            .schedule(far, move || {
                r.record("far task ran");
            })
            .expect("room for one task");
        let k = wheel.ticks();
        assert!(kit::eventually(ms(2000), || wheel.ticks() > k + 2));
        pause.release();
        add.join().expect("the adder");
        far_due
    });
    let ran = rec.eventually(
        "far task ran",
        (far_due + revolution()).saturating_sub(rec.elapsed()),
    );
    assert!(
        ran.is_some_and(|ran| ran >= far_due),
        "W2 cursor_race: the far task due at {} ms ran at {ran:?}: early",
        in_ms(far_due)
    );
}
