//! Wrong: it asserts nothing. It forces the race well, waits for the task,
//! and never says how late it may be.
// verdict: misses-the-bug

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
    thread::scope(|s| {
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
        let _ = kit::eventually(ms(2000), || wheel.ticks() > k + 2);
        pause.release();
        add.join().expect("the adder");
    });
    let ran = rec.eventually("task ran", revolution() * 2);
    println!("the task ran at {ran:?}");
}
