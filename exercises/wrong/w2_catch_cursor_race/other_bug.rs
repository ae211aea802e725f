//! Wrong: it catches another bug. It holds the adder in the window, as a
//! test of W2 must, but the task it schedules is due two and a half
//! revolutions out, and what it asserts is that the task does not run
//! early: W3 `wraparound_fires_early`, a wheel that keeps no rounds and
//! fires such a task the first time the ticker passes its slot. A wheel
//! with the cursor race counts the rounds of a long delay well enough: the
//! ticker passes the task's slot only after the adder has filed it, and
//! then as often as it should.
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
    let delay = revolution() * 5 / 2;
    let pause = Pause::arm(WINDOW, &adder);
    let due = thread::scope(|s| {
        let add = thread::Builder::new()
            .name(adder.clone())
            .spawn_scoped(s, || {
                let r = rec.clone();
                let called = rec.record("schedule called");
                wheel
                    .schedule(delay, move || {
                        r.record("task ran");
                    })
                    .expect("room for one task");
                called + delay
            })
            .expect("spawn the adder");
        pause.wait_reached();
        let k = wheel.ticks();
        assert!(kit::eventually(ms(2000), || wheel.ticks() > k + 2));
        pause.release();
        add.join().expect("the adder")
    });
    let ran = rec.eventually(
        "task ran",
        (due + revolution()).saturating_sub(rec.elapsed()),
    );
    assert!(
        ran.is_some_and(|ran| ran >= due),
        "W2 cursor_race: due at {} ms, ran at {ran:?} (a tick is {} ms)",
        in_ms(due),
        in_ms(tick())
    );
}
