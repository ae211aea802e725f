//! loom model of racy.rs (C1): the same model as loom_timer_style.rs, on
//! the version with the window. loom finds the interleaving where the
//! client's insert and notify land between the thread's `take` and its
//! wait: the thread then waits for the far task forever, the model waits
//! for the due task forever, and loom reports a deadlock.
//!
//! It is ignored, alone in its binary: loom's report is a panic that
//! panics again while unwinding, which aborts the whole test process.
//! `cargo xtask` runs it on its own and expects it to fail.
//!
//! Under loom the stage's clock is frozen (`sync::now`) and a timed wait
//! never times out. A far task is never due, so a thread waiting for it
//! wakes only if a notify reaches it: a lost wake-up shows as a deadlock.
//!
//! ```text
//! cargo xtask loom condvar-timer loom_racy
//! ```
//!
//! runs its buggy model, which must fail, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p condvar-timer --release --target-dir target/loom --test loom_racy -- --ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

mod loom_support;

use std::time::Duration;

use condvar_timer::racy::Timer;
use loom_support::Latch;

/// C1's scenario: a far task (never due under the frozen clock), then a
/// task due now. The check: whatever the interleaving, the due task runs,
/// and the timer then stops and joins its thread.
///
/// Shutdown cannot block this model: `Drop` sets its flag under the
/// monitor the thread checks before waiting, and closes the queue `take`
/// blocks on. Only the lost notify of C1 can.
#[test]
#[ignore = "C1 lost_wakeup: loom finds it in racy.rs"]
fn c1_lost_wakeup_loom_on_racy() {
    loom::model(|| {
        let timer = Timer::new("loom-racy").unwrap();
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
