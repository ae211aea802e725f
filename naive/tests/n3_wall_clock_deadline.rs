//! N3 wall_clock_deadline: the naive timer takes deadlines from the wall
//! clock, as `System.currentTimeMillis` does. Set that clock back and every
//! pending deadline moves away by as much: "in 50 ms" becomes "in 1050 ms"
//! (the Java Timer article's task due in an hour that, after the date is set
//! back a year, waits a year and an hour; scaled down). The monotonic clock
//! cannot be set, so a timer on it runs on time.
#![cfg(not(loom))]

use std::time::Duration;

use kit::Recorder;
use kit::pause::Pause;
use naive::{Clock, MonotonicClock, SettableWallClock, Timer};

const PUT_BACK: &str = "naive::busy_loop: the head is not due, putting it back";

/// The task's delay.
fn delay() -> Duration {
    kit::ms(50)
}

/// How far the administrator sets the wall clock back ("a year"), and the
/// bound the fixed timer is held to. A timer on the wall clock cannot run
/// the task before `delay() + jump()`; one on the monotonic clock runs it
/// at about `delay()`. The fixed test's bound is that floor of the bug, as far from
/// the fix's time as a bound can be and still tell the two apart: a loaded
/// machine has been seen to run the fixed timer's task 0.8 s late, and
/// nothing short of two seconds' delay breaks it.
fn jump() -> Duration {
    kit::ms(2000)
}

/// Schedules a task due in `delay()` on a timer over `clock`, holds the timer
/// thread once it has found the task early, sets the settable wall clock back
/// by `jump()`, lets the thread go on, and returns the recorder (its start is
/// just before `schedule`, so the task is due at `delay()` or later), the
/// timer (drop it once done: that joins its thread) and its thread's name.
///
/// The scenario needs the thread to look at the task before it is due. A
/// machine that keeps the thread off its core for the whole `delay()` makes
/// it find the task due and run it: the clock was never set back while the
/// task was pending, so that run shows nothing either way, and the scenario
/// is set up again on a new timer (at most [`TRIES`] times), never judged.
fn schedule_then_set_clock_back(
    clock: impl Clock + Clone,
    wall: &SettableWallClock,
) -> (Recorder, Timer, String) {
    for _ in 0..TRIES {
        let name = kit::threads::unique_name("n3");
        let timer = Timer::with_clock(&name, clock.clone()).unwrap();
        let pause = Pause::arm(PUT_BACK, &name);
        let rec = Recorder::new();
        let task_rec = rec.clone();
        timer
            .schedule(delay(), move || {
                task_rec.record("task ran");
            })
            .unwrap();
        // The thread has taken the task and found it early (held), or came
        // too late and ran it.
        let looked = kit::eventually(kit::ms(5000), || {
            pause.is_holding() || rec.count("task ran") > 0
        });
        assert!(
            looked,
            "the timer thread neither held nor ran the task in 5 s"
        );
        if pause.is_holding() {
            // The task is surely still pending: set the clock back now.
            wall.set_back(jump());
            pause.release();
            return (rec, timer, name);
        }
    }
    panic!(
        "the timer thread came to the task only once it was due, {TRIES} times (a machine too \
         slow: KIT_TIME_SCALE)"
    );
}

/// Setups of the scenario tried, at most.
const TRIES: usize = 5;

#[test]
fn n3_wall_clock_deadline_reproduces() {
    let wall = SettableWallClock::new();
    let (rec, _timer, name) = schedule_then_set_clock_back(wall.clone(), &wall);
    // Exact lower bound: the task is due at wall time (schedule + delay), and
    // the wall clock now reads `jump` less than real time, so the task cannot
    // run before real time schedule + delay + jump > start + jump. The test
    // looks four times the task's delay, not the whole jump (the red check on
    // the wall clock shows when the task does run).
    let looked = delay() * 4;
    if let Err(early) = rec.still_absent("task ran", looked) {
        panic!(
            "the wall clock was set back by {} ms, yet the task, due at {} ms, ran at {} ms",
            jump().as_millis(),
            delay().as_millis(),
            early.at.as_millis()
        );
    }
    // Not run, and not for want of a look: the thread still takes the task,
    // finds it not due on the wall clock, and puts it back. Held there once
    // more, it shows that, well past the task's deadline.
    let again = Pause::arm(PUT_BACK, &name);
    again.wait_reached();
    let at = rec.elapsed();
    assert_eq!(
        rec.count("task ran"),
        0,
        "the task ran before the thread put it back at {} ms",
        at.as_millis()
    );
    assert!(at >= looked, "held at {} ms", at.as_millis());
}

/// The settable wall clock is not wired to the monotonic one, so this test
/// cannot show that setting the real date leaves `Instant` alone: that is
/// `CLOCK_MONOTONIC`'s documented property. It shows that, in the same
/// scenario, a timer reading a clock nobody sets runs its task on time.
#[test]
fn n3_wall_clock_deadline_fixed() {
    let wall = SettableWallClock::new();
    let (rec, _timer, _) = schedule_then_set_clock_back(MonotonicClock::new(), &wall);
    let ran = rec
        .eventually("task ran", kit::ms(5000))
        .expect("the task never ran");
    assert!(
        ran >= delay(),
        "the task ran early, at {} ms",
        ran.as_millis()
    );
    // The bug's floor: a deadline moved by the jump cannot come before it.
    assert!(
        ran < delay() + jump(),
        "on the monotonic clock the task is due at {} ms, yet it ran at {} ms, as late as \
         a deadline the wall clock moved by {} ms",
        delay().as_millis(),
        ran.as_millis(),
        jump().as_millis()
    );
}

#[test]
#[ignore = "N3 wall_clock_deadline: shows the bug in busy_loop.rs on the wall clock"]
fn n3_wall_clock_deadline_on_wall_clock() {
    let wall = SettableWallClock::new();
    let (rec, _timer, _) = schedule_then_set_clock_back(wall.clone(), &wall);
    let ran = rec.eventually("task ran", kit::ms(5000));
    let on_time = ran.is_some_and(|ran| ran < delay() + jump());
    assert!(
        on_time,
        "N3 wall_clock_deadline: due at {} ms, ran at {} (wall clock set back by {} ms)",
        delay().as_millis(),
        ran.map_or("never".to_owned(), |ran| format!("{} ms", ran.as_millis())),
        jump().as_millis()
    );
}
