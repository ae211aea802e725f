//! Wrong: it holds the adder, but lets the ticker pass the task's tick
//! only after the release. By then the adder has put its task in the slot,
//! ahead of the ticker: nothing is missed, on either wheel.
// verdict: misses-the-bug | luck

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
        pause.release();
        let k = wheel.ticks();
        assert!(kit::eventually(ms(2000), || wheel.ticks() > k + 2));
        add.join().expect("the adder")
    });
    let by = due + revolution();
    let ran = rec.eventually("task ran", by.saturating_sub(rec.elapsed()));
    assert!(
        ran.is_some_and(|ran| ran < by),
        "W2 cursor_race: due at {due:?}, not run by {by:?}"
    );
}
