//! A6 `reset_to_past_never_wakes`: a waiting `Sleep` is reset to a
//! deadline that has already passed.
//!
//! The scenario, the same for both versions: a task polls a `Sleep` due
//! in 5 s; another timer is due in 200 ms. The driver fires a first timer
//! (due in 5 ms) and is held as it goes to sleep until the other timer's
//! slot comes round. Then the `Sleep` is reset to the start of the test,
//! already past, and the driver is let go.
//!
//! - reset_without_wake.rs: the entry is filed again, in the wheel's
//!   current slot, due. Nobody wakes the task, nobody tells the driver:
//!   the task is woken only when the driver wakes for the other timer.
//! - sleep.rs, the fix: `reset` files through `register`, which fires a
//!   deadline already past at once and wakes the task's waker, right
//!   there in the `reset` call.
#![cfg(not(loom))]

mod support;

use std::time::Duration;

use async_timer::{Driver, FIRE_WINDOW, PARK_WINDOW, Plan, Sleep, Variant};
use kit::pause::Pause;
use kit::scale::in_ms;
use kit::threads;
use kit::{Recorder, ms};
use support::TaskWaker;

/// The `Sleep`'s deadline before the reset.
const FAR_MS: u64 = 5000;
/// The first timer the driver fires.
const FIRST_MS: u64 = 5;
/// The other timer's delay: the driver sleeps until its slot.
const OTHER_MS: u64 = 200;
/// How soon after the reset the task must be woken.
const MARGIN_MS: u64 = 100;

/// One run of the scenario.
struct Run {
    rec: Recorder,
    driver: Driver,
    driver_name: String,
    sleep: Sleep,
    other: Sleep,
    task: TaskWaker,
    /// When the reset was made, since the start.
    reset_at: Duration,
    /// When the driver planned to wake, since the start.
    plan: Duration,
    /// When the held driver was let go, since the start: before that,
    /// only the reset itself can have woken the task.
    released_at: Duration,
}

fn reset_scenario(variant: Variant) -> Run {
    let rec = Recorder::new();
    let (driver, driver_name) = support::driver("a6", variant);
    let handle = driver.handle();
    let fire_pause = Pause::arm(FIRE_WINDOW, &driver_name);
    rec.record_as("task", format!("sleep made, due in {FAR_MS} ms"));
    let mut sleep = handle.sleep(ms(FAR_MS));
    let task = TaskWaker::new(&rec, "task");
    assert!(support::poll_once(&mut sleep, &task.waker()).is_pending());
    rec.record_as(
        "test",
        format!("timers made, due in {FIRST_MS} and {OTHER_MS} ms"),
    );
    let first = support::filed(&handle, ms(FIRST_MS));
    let other = support::filed(&handle, ms(OTHER_MS));
    // Hold the driver as it goes to sleep after firing the first timer:
    // its plan is then the other timer's slot.
    fire_pause.wait_reached();
    let park_pause = Pause::arm(PARK_WINDOW, &driver_name);
    fire_pause.release();
    park_pause.wait_reached();
    let plan = match handle.stats().plan {
        Plan::Until(at) if at <= other.deadline() => at.saturating_duration_since(rec.start()),
        plan => panic!("the driver plans {plan:?}, not for the other timer"),
    };
    rec.record_as(
        &driver_name,
        format!("held: plans to sleep until {} ms", in_ms(plan)),
    );

    let reset_at = rec.record_as("task", "sleep reset to 0 ms, already past");
    sleep.reset(rec.start());
    let released_at = rec.record_as("test", "release the driver");
    park_pause.release();
    drop(first);
    Run {
        rec,
        driver,
        driver_name,
        sleep,
        other,
        task,
        reset_at,
        plan,
        released_at,
    }
}

impl Run {
    fn finish(self) {
        drop((self.sleep, self.other));
        drop(self.driver);
        threads::assert_gone(&self.driver_name);
    }
}

/// The correctness check: the task is woken by the reset, not by the
/// driver's planned wake-up: before the held driver was let go (only the
/// reset can have woken it then), or else within MARGIN_MS of the reset
/// and before the driver's plan. Judged on order, not on the clock alone:
/// a reset that a loaded machine delays to near the plan cannot make the
/// driver's late wake count.
fn assert_woken_by_reset(run: &mut Run) {
    let limit = (run.reset_at + ms(MARGIN_MS)).min(run.plan);
    let woken = run
        .task
        .woken_within(limit.saturating_sub(run.rec.elapsed()));
    let by_the_reset = |at: Duration| at <= run.released_at || at < limit;
    assert!(
        woken.is_some_and(by_the_reset),
        "A6 reset_to_past_never_wakes: the sleep reset at {} ms to a deadline already past was \
         not woken by {} ms; the driver sleeps until {} ms\n{}",
        in_ms(run.reset_at),
        in_ms(run.rec.elapsed()),
        in_ms(run.plan),
        run.rec.log()
    );
    let ready = support::poll_once(&mut run.sleep, &run.task.waker());
    assert_eq!(ready, std::task::Poll::Ready(Ok(())), "ready once woken");
}

#[test]
fn a6_reset_to_past_never_wakes_reproduces() {
    let run = reset_scenario(Variant::ResetWithoutWake);
    // Not before the driver wakes for the other timer: an exact bound.
    if let Err(woken) = run.rec.still_absent("task woken", run.plan) {
        panic!(
            "the task was woken at {} ms, before the driver woke at {} ms\n{}",
            in_ms(woken.at),
            in_ms(run.plan),
            run.rec.log()
        );
    }
    // Then the driver wakes for the other timer, and fires this one too.
    let woken = run.task.woken_within(ms(2000));
    assert!(
        woken.is_some_and(|at| at >= run.plan),
        "woken at {woken:?}, not with the driver\n{}",
        run.rec.log()
    );
    run.finish();
}

#[test]
fn a6_reset_to_past_never_wakes_fixed() {
    let mut run = reset_scenario(Variant::Fixed);
    assert_woken_by_reset(&mut run);
    run.finish();
}

#[test]
#[ignore = "A6 reset_to_past_never_wakes: shows the bug in reset_without_wake.rs"]
fn a6_reset_to_past_never_wakes_on_reset_without_wake() {
    let mut run = reset_scenario(Variant::ResetWithoutWake);
    assert_woken_by_reset(&mut run);
    run.finish();
}
