//! loom models of the fixed timer: A1, A2 and A5's scenarios
//! (`loom_support`) pass in every interleaving loom builds. Each bug's
//! version fails the same scenario in a binary of its own:
//! loom_racy_poll.rs (A1), loom_first_waker_only.rs (A2),
//! loom_unparks_idle_only.rs (A5).
//!
//! What this proves: for one sleep (two for A5), one driver thread and
//! one thread running `block_on`, no interleaving of the driver's turn
//! (take, fire, plan, park) with the poll, the filing and the clock's
//! advance, within loom's preemption bound (`LOOM_MAX_PREEMPTIONS=3`, as
//! CI runs it), loses a wake-up: the poll's look and store are one hold of
//! the entry's lock (A1), a later poll's waker replaces the first (A2),
//! and a sooner timer unparks a driver that planned for a later one (A5).
//! What it does not: more timers or threads, `reset`, or the real clock.
//!
//! ```text
//! cargo xtask loom async-timer loom_driver
//! ```
//!
//! runs its models, which must pass, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p async-timer --release --target-dir target/loom --test loom_driver -- --include-ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

mod loom_support;

use async_timer::Variant;

#[test]
fn a1_lost_waker_loom_fixed() {
    loom_support::lost_waker(Variant::Fixed);
}

#[test]
fn a2_stale_waker_loom_fixed() {
    loom_support::stale_waker(Variant::Fixed);
}

#[test]
fn a5_driver_oversleeps_loom_fixed() {
    loom_support::oversleep(Variant::Fixed);
}
