//! Wrong: it fails always. It forces the race well, then asserts more than
//! any wheel does: that the task ran before the adder was let go. No wheel
//! can run a task it has not been handed yet; the test's own hold makes
//! every task late by the ticks the adder was held.
// verdict: rejects-correct

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
    let released = thread::scope(|s| {
        let add = thread::Builder::new()
            .name(adder.clone())
            .spawn_scoped(s, || {
                let r = rec.clone();
                wheel
                    .schedule(tick() * 2, move || {
                        r.record("task ran");
                    })
                    .expect("room for one task");
            })
            .expect("spawn the adder");
        pause.wait_reached();
        let k = wheel.ticks();
        assert!(kit::eventually(ms(2000), || wheel.ticks() > k + 2));
        let released = rec.record("adder released");
        pause.release();
        add.join().expect("the adder");
        released
    });
    let ran = rec.eventually("task ran", revolution() * 2);
    assert!(
        ran.is_some_and(|ran| ran < released),
        "W2 cursor_race: the adder was let go at {released:?}, the task ran at {ran:?}"
    );
}
