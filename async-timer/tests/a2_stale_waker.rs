//! A2 `stale_waker`: a `Sleep` moves to another task and is polled there
//! with that task's waker.
//!
//! The scenario, the same for both versions: task A polls a `Sleep` due
//! in 20 ms and leaves it (the losing branch of a `select!`, a wrapper
//! that hands it to a task it spawns); task B polls it with its own
//! waker. The driver is held at its pause point between taking the due
//! entry out of the wheel and firing it, and task B polls while it is
//! held: however late B comes, it polls a `Sleep` that has not fired.
//! Then the driver is let go.
//!
//! - first_waker_only.rs: B's poll is not heard. The driver wakes A, which
//!   is done with the sleep; B is never woken.
//! - entry.rs, the fix: B's waker replaces A's (they would not wake the
//!   same task). The driver wakes B.
#![cfg(not(loom))]

mod support;

use std::time::Duration;

use async_timer::{Driver, FIRE_WINDOW, Handle, Sleep, Variant};
use kit::pause::Pause;
use kit::scale::in_ms;
use kit::threads;
use kit::{Recorder, eventually, ms};
use support::TaskWaker;

/// The sleep's delay.
const DUE_MS: u64 = 20;
/// How long the correctness check waits for task B to be woken.
const WOKEN_WITHIN_MS: u64 = 1000;

/// One run of the scenario.
struct Run {
    rec: Recorder,
    driver: Driver,
    driver_name: String,
    handle: Handle,
    sleep: Sleep,
    task_a: TaskWaker,
    task_b: TaskWaker,
    due: Duration,
}

fn stale_waker_scenario(variant: Variant) -> Run {
    let rec = Recorder::new();
    let (driver, driver_name) = support::driver("a2", variant);
    let handle = driver.handle();
    let pause = Pause::arm(FIRE_WINDOW, &driver_name);

    let due = rec.record_as("test", format!("sleep made, due in {DUE_MS} ms")) + ms(DUE_MS);
    let mut sleep = support::filed(&handle, ms(DUE_MS));
    let task_a = TaskWaker::new(&rec, "task A");
    let task_b = TaskWaker::new(&rec, "task B");
    assert!(support::poll_once(&mut sleep, &task_a.waker()).is_pending());
    rec.record_as("task A", "polled the sleep, then let it go");

    pause.wait_reached();
    rec.record_as(&driver_name, "held: took the due entry, not yet fired");
    assert!(
        !sleep.is_elapsed(),
        "the driver fired before its pause point"
    );
    assert!(support::poll_once(&mut sleep, &task_b.waker()).is_pending());
    rec.record_as("task B", "polled the sleep");
    rec.record_as("test", "release the driver");
    pause.release();
    // `fired` counts the entry once its wakes have run.
    assert!(
        eventually(ms(2000), || handle.stats().fired == 1),
        "the driver never fired the entry\n{}",
        rec.log()
    );
    Run {
        rec,
        driver,
        driver_name,
        handle,
        sleep,
        task_a,
        task_b,
        due,
    }
}

impl Run {
    fn finish(self) {
        drop(self.sleep);
        drop(self.driver);
        threads::assert_gone(&self.driver_name);
    }
}

/// The correctness check: task B, which polled the sleep last, is woken.
fn assert_task_b_woken(run: &Run) {
    let woken = run.task_b.woken_within(ms(WOKEN_WITHIN_MS));
    assert!(
        woken.is_some(),
        "A2 stale_waker: the sleep due at {} ms fired; task B, which polled it last, was woken \
         {} times by {} ms, and task A, which had let it go, {} times\n{}",
        in_ms(run.due),
        run.task_b.count(),
        in_ms(run.rec.elapsed()),
        run.task_a.count(),
        run.rec.log()
    );
}

#[test]
fn a2_stale_waker_reproduces() {
    let run = stale_waker_scenario(Variant::FirstWakerOnly);
    // The driver has fired the entry and run its wakes, and the wheel is
    // empty: the wakes that happened are all there will ever be.
    let stats = run.handle.stats();
    assert_eq!(
        (
            stats.fired,
            stats.pending,
            run.task_a.count(),
            run.task_b.count()
        ),
        (1, 0, 1, 0),
        "(fired, pending, task A woken, task B woken)\n{}",
        run.rec.log()
    );
    run.finish();
}

#[test]
fn a2_stale_waker_fixed() {
    let run = stale_waker_scenario(Variant::Fixed);
    assert_task_b_woken(&run);
    assert_eq!(run.task_a.count(), 0, "task A let the sleep go");
    run.finish();
}

#[test]
#[ignore = "A2 stale_waker: shows the bug in first_waker_only.rs"]
fn a2_stale_waker_on_first_waker_only() {
    let run = stale_waker_scenario(Variant::FirstWakerOnly);
    assert_task_b_woken(&run);
    run.finish();
}
