//! Wrong: it catches W4, not W2. It holds the adder in its window, and
//! while it is held schedules a burst of tasks, all due at the same tick,
//! from the test's own thread; then it asserts that the wheel took every
//! one. That is W4 `slot_overflow`: a wheel whose slots hold a fixed
//! number of tasks refuses the rest. The cursor race loses no task and
//! refuses none: it files one late. This test never asks when anything ran.
// verdict: catches-another

use std::thread;

use exercises::catch::w2::{Pause, WINDOW, Wheel, tick};
use kit::{ms, threads};

/// How many tasks the burst schedules: far more than a slot of a wheel
/// with a capacity holds, however the ticks fall while it is scheduled.
const BURST: usize = 200;

#[test]
fn w2_cursor_race_caught() {
    let name = threads::unique_name("catch-w2");
    let wheel = Wheel::new(&name).expect("start the wheel");
    let adder = format!("{name}a");
    let delay = tick() * 10;
    let pause = Pause::arm(WINDOW, &adder);
    let refused = thread::scope(|s| {
        let add = thread::Builder::new()
            .name(adder.clone())
            .spawn_scoped(s, || usize::from(wheel.schedule(delay, || {}).is_err()))
            .expect("spawn the adder");
        pause.wait_reached();
        let refused = (0..BURST)
            .filter(|_| wheel.schedule(delay, || {}).is_err())
            .count();
        let k = wheel.ticks();
        assert!(kit::eventually(ms(2000), || wheel.ticks() > k + 2));
        pause.release();
        refused + add.join().expect("the adder")
    });
    assert_eq!(
        refused,
        0,
        "W2 cursor_race: the wheel refused {refused} of {} tasks",
        BURST + 1
    );
}
