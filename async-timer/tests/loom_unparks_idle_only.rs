//! loom model of unparks_idle_only.rs (A5): the scenario of
//! loom_driver.rs's `a5_driver_oversleeps_loom_fixed`, on the version with
//! the bug. loom finds the interleaving where the driver plans for the far
//! sleep before the near one is filed: nothing wakes it, the clock never
//! reaches its plan, and `block_on` parks for ever. loom reports a
//! deadlock.
//!
//! It is ignored, alone in its binary: loom's report aborts the whole
//! test process. `cargo xtask loom` runs it on its own and expects it to
//! fail.
//!
//! ```text
//! cargo xtask loom async-timer loom_unparks_idle_only
//! ```
//!
//! runs its buggy model, which must fail, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p async-timer --release --target-dir target/loom --test loom_unparks_idle_only -- --ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

mod loom_support;

use async_timer::Variant;

#[test]
#[ignore = "A5 driver_oversleeps: loom finds it in unparks_idle_only.rs"]
fn a5_driver_oversleeps_loom_on_unparks_idle_only() {
    loom_support::oversleep(Variant::UnparksIdleOnly);
}
