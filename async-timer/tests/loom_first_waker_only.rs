//! loom model of first_waker_only.rs (A2): the scenario of loom_driver.rs's
//! `a2_stale_waker_loom_fixed`, on the version with the bug. loom finds
//! the interleaving where the sleep fires after `block_on`'s poll: the
//! driver wakes the first task's waker, and `block_on` parks for ever.
//! loom reports a deadlock.
//!
//! It is ignored, alone in its binary: loom's report aborts the whole
//! test process. `cargo xtask loom` runs it on its own and expects it to
//! fail.
//!
//! ```text
//! cargo xtask loom async-timer loom_first_waker_only
//! ```
//!
//! runs its buggy model, which must fail, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p async-timer --release --target-dir target/loom --test loom_first_waker_only -- --ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

mod loom_support;

use async_timer::Variant;

#[test]
#[ignore = "A2 stale_waker: loom finds it in first_waker_only.rs"]
fn a2_stale_waker_loom_on_first_waker_only() {
    loom_support::stale_waker(Variant::FirstWakerOnly);
}
