//! Catch it, W2 `cursor_race`: the reference test.
//!
//! The scenario of *A wheel of slots*, forced. An adder schedules a task
//! two ticks out, and is held in its window: it has worked out where the
//! task goes and has not handed it over. While it is held, the ticker
//! passes the task's tick. Then the adder is let go. On the wheel whose
//! ticker alone files tasks, the task fires at the next tick, late by the
//! hold. On the post's wheel it lands in a slot the ticker has just left,
//! and fires a whole revolution after it was due.

use std::thread;

use exercises::catch::w2::{Pause, WINDOW, Wheel, revolution, tick};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

/// The task's delay, in ticks: its slot is two ahead of the cursor.
const DELAY_TICKS: u32 = 2;

#[test]
fn w2_cursor_race_caught() {
    let name = threads::unique_name("catch-w2");
    let wheel = Wheel::new(&name).expect("start the wheel");
    let rec = Recorder::new();
    let adder = format!("{name}a");
    let delay = tick() * DELAY_TICKS;

    // Armed first: the adder reaches the window as soon as it schedules.
    let pause = Pause::arm(WINDOW, &adder);
    let (due, released) = thread::scope(|s| {
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

        // The second half of the race, while the adder is held: the ticker
        // goes past the task's tick (it read the cursor at tick k or
        // before; its tick is drained by tick k + DELAY_TICKS + 1).
        let k = wheel.ticks();
        assert!(
            kit::eventually(ms(2000), || wheel.ticks() > k + u64::from(DELAY_TICKS)),
            "W2: the ticker did not move"
        );
        let released = rec.record("adder released");
        pause.release();
        (add.join().expect("the adder"), released)
    });

    // Late by the hold is no bug; a revolution late is.
    let by = due + revolution();
    let ran = rec.eventually("task ran", by.saturating_sub(rec.elapsed()));
    assert!(
        ran.is_some_and(|ran| ran < by),
        "W2 cursor_race: the task due at {} ms, whose adder was let go at {} ms, had not run \
         at {} ms, a revolution ({} ms) after it was due: it went into a slot the ticker had \
         already passed\n{}",
        in_ms(due),
        in_ms(released),
        in_ms(by),
        in_ms(revolution()),
        rec.log()
    );
}
