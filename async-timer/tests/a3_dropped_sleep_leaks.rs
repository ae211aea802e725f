//! A3 `dropped_sleep_leaks`: most timeouts never fire. The future wins,
//! and the timeout's `Sleep` is dropped with its deadline still ahead.
//!
//! The scenario, on the `futures` crate's `block_on`: 100 000 timeouts of
//! an hour, each around a future that is ready at once. Then the count:
//! how many entries does the driver's wheel still hold?
//!
//! - leaky_drop.rs: all of them. Each dropped `Sleep` left its entry for
//!   the driver to skip in an hour; memory grows with every request that
//!   set a timeout and finished in time (stage 6's T14 again).
//! - sleep.rs, the fix: none. `Drop` takes the entry out by its key.
#![cfg(not(loom))]

mod support;

use async_timer::Variant;
use kit::{ms, threads};

/// Timeouts set, none of which fires.
const TIMEOUTS: usize = 100_000;
/// Each one's limit: far beyond the test.
const LIMIT_MS: u64 = 3_600_000;

/// Runs the timeouts on `variant`; returns the entries left in the wheel.
fn entries_left(variant: Variant) -> usize {
    let (driver, name) = support::driver("a3", variant);
    let handle = driver.handle();
    futures::executor::block_on(async {
        for i in 0..TIMEOUTS {
            let output = handle.timeout(ms(LIMIT_MS), async { i }).await;
            assert_eq!(output, Ok(i), "the future is ready at once");
        }
    });
    let left = handle.stats().pending;
    drop(driver);
    threads::assert_gone(&name);
    left
}

/// The correctness check: nothing is left behind.
fn assert_none_left(left: usize) {
    assert_eq!(
        left, 0,
        "A3 dropped_sleep_leaks: after {TIMEOUTS} timeouts whose futures won, the wheel holds \
         {left} entries, each until its deadline an hour away (want 0)"
    );
}

#[test]
fn a3_dropped_sleep_leaks_reproduces() {
    assert_eq!(
        entries_left(Variant::LeakyDrop),
        TIMEOUTS,
        "every entry is left"
    );
}

#[test]
fn a3_dropped_sleep_leaks_fixed() {
    assert_none_left(entries_left(Variant::Fixed));
}

#[test]
#[ignore = "A3 dropped_sleep_leaks: shows the bug in leaky_drop.rs"]
fn a3_dropped_sleep_leaks_on_leaky_drop() {
    assert_none_left(entries_left(Variant::LeakyDrop));
}
