//! The loom models' scenarios, one per bug, each run on the version named
//! by its `Variant`: `loom_driver.rs` runs them on the fixed timer (they
//! must pass), and each buggy version's model has a test binary of its
//! own (loom reports a deadlock by aborting the process).
//!
//! Each model has two threads: the model's own, which makes timers,
//! moves the manual clock and runs `block_on`, and the driver's. loom has
//! no clock of its own; the manual clock's `advance` stands in for time
//! passing, and wakes the driver exactly when a timed park would time
//! out. A timer that is never fired leaves `block_on` parked for ever,
//! which loom reports as a deadlock: that is how each bug shows.
#![allow(dead_code)]

use std::task::Waker;
use std::time::Duration;

use async_timer::{Driver, Variant, block_on};

/// One tick of the driver (its default).
const TICK: Duration = Duration::from_millis(1);

fn driver(variant: Variant) -> Driver {
    Driver::builder("loom-driver")
        .variant(variant)
        .manual_clock()
        .start()
        .expect("start the driver")
}

/// A1: a sleep comes due while `block_on` polls it for the first time:
/// the driver's fire races with the poll's look and store.
pub fn lost_waker(variant: Variant) {
    loom::model(move || {
        let driver = driver(variant);
        let (handle, clock) = (driver.handle(), driver.manual_clock().expect("manual"));
        let sleep = handle.sleep(TICK);
        clock.advance(TICK);
        block_on(sleep).expect("fires");
        drop(driver);
    });
}

/// A2: a first task polls the sleep and leaves it; a second one, running
/// `block_on`, polls it with its own waker while it comes due.
pub fn stale_waker(variant: Variant) {
    loom::model(move || {
        let driver = driver(variant);
        let (handle, clock) = (driver.handle(), driver.manual_clock().expect("manual"));
        let mut sleep = handle.sleep(TICK);
        let first_task = Waker::noop();
        let polled =
            std::pin::Pin::new(&mut sleep).poll(&mut std::task::Context::from_waker(first_task));
        assert!(polled.is_pending(), "not due yet");
        clock.advance(TICK);
        block_on(sleep).expect("fires");
        drop(driver);
    });
}

/// A5: the driver plans for a far sleep; a near one is filed, and the
/// clock reaches it (not the far one).
pub fn oversleep(variant: Variant) {
    loom::model(move || {
        let driver = driver(variant);
        let (handle, clock) = (driver.handle(), driver.manual_clock().expect("manual"));
        let far = handle.sleep(TICK * 100);
        let near = handle.sleep(TICK);
        clock.advance(TICK);
        block_on(near).expect("fires");
        drop(far);
        drop(driver);
    });
}
