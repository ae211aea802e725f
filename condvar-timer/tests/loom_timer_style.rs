//! loom model of timer_style.rs (C4): every interleaving of a client's
//! insert with the timer thread's peek and wait.
//!
//! Under loom the stage's clock is frozen (`sync::now`) and a timed wait
//! never times out. A far task is never due, so a thread waiting for it
//! wakes only if a notify reaches it: a lost wake-up shows as a deadlock.
//!
//! ```text
//! cargo xtask loom condvar-timer loom_timer_style
//! ```
//!
//! runs its models, which must pass, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p condvar-timer --release --target-dir target/loom --test loom_timer_style -- --include-ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

mod loom_support;

use std::time::Duration;

use condvar_timer::timer_style::Timer;
use loom_support::Latch;

/// C1's scenario: a far task (never due under the frozen clock), then a
/// task due now. Whatever the interleaving, the due task runs, and the
/// timer then stops and joins its thread.
#[test]
fn c4_timer_style_loom_never_loses_a_wakeup() {
    loom::model(|| {
        let timer = Timer::new("loom-tstyle").unwrap();
        timer.schedule(kit::ms(3_600_000), || {}).unwrap();
        let ran = Latch::new();
        let signal = ran.clone();
        timer
            .schedule(Duration::ZERO, move || {
                signal.open();
            })
            .unwrap();
        ran.wait();
        drop(timer);
    });
}
