//! Wrong: it fails always. It forces the race well, then asserts more than
//! the fix gives: that the task runs within a tick of its due time. The
//! hold itself makes it late by the ticks the adder was held; the fix only
//! keeps that from growing into a revolution.
// verdict: fails-on-fixed

use std::thread;

use exercises::catch::w2::{Pause, WINDOW, Wheel, revolution, tick};
use kit::{Recorder, ms, threads};

#[test]
fn w2_cursor_race_caught() {
    let name = threads::unique_name("catch-w2");
    let wheel = Wheel::new(&name).expect("start the wheel");
    let rec = Recorder::new();
    let adder = format!("{name}a");
    let pause = Pause::arm(WINDOW, &adder);
    let due = thread::scope(|s| {
        let add = thread::Builder::new()
            .name(adder.clone())
            .spawn_scoped(s, || {
                let r = rec.clone();
                let called = rec.record("schedule called");
                wheel
                    .schedule(tick() * 2, move || {
                        r.record("task ran");
                    })
                    .expect("room for one task");
                called + tick() * 2
            })
            .expect("spawn the adder");
        pause.wait_reached();
        let k = wheel.ticks();
        assert!(kit::eventually(ms(2000), || wheel.ticks() > k + 2));
        pause.release();
        add.join().expect("the adder")
    });
    let ran = rec.eventually("task ran", revolution() * 2);
    assert!(
        ran.is_some_and(|ran| ran <= due + tick()),
        "W2 cursor_race: due at {due:?}, ran at {ran:?}"
    );
}
