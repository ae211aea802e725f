//! loom model of racy_poll.rs (A1): the scenario of loom_driver.rs's
//! `a1_lost_waker_loom_fixed`, on the version with the bug. loom finds
//! the interleaving where the driver fires the sleep between the poll's
//! look and its store: it finds no waker, and `block_on` parks for ever.
//! loom reports a deadlock.
//!
//! It is ignored, alone in its binary: loom's report aborts the whole
//! test process. `cargo xtask loom` runs it on its own and expects it to
//! fail.
//!
//! ```text
//! cargo xtask loom async-timer loom_racy_poll
//! ```
//!
//! runs its buggy model, which must fail, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p async-timer --release --target-dir target/loom --test loom_racy_poll -- --ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

mod loom_support;

use async_timer::Variant;

#[test]
#[ignore = "A1 lost_waker: loom finds it in racy_poll.rs"]
fn a1_lost_waker_loom_on_racy_poll() {
    loom_support::lost_waker(Variant::RacyPoll);
}
