//! loom model of notify_on_cancel.rs (P3): a far task is queued, then the
//! timer is cancelled and dropped (the drop joins the thread). loom finds
//! the interleaving where the cancel (flag and notify) lands after the
//! thread read the flag and before it waits on the monitor: the notify
//! reaches nobody, the thread waits for the far task forever, the join
//! waits for the thread forever, and loom reports a deadlock.
//!
//! It is ignored, alone in its binary: loom's report is a panic that
//! panics again while unwinding, which aborts the whole test process.
//! `cargo xtask loom` runs it on its own and expects it to fail.
//!
//! Under loom the stage's clock is frozen (`sync::now`) and a timed wait
//! never times out. A far task is never due, so a thread waiting for it
//! wakes only if a notify reaches it: a lost notify shows as a deadlock.
//!
//! ```text
//! cargo xtask loom poison-pill loom_notify_on_cancel
//! ```
//!
//! runs its buggy model, which must fail, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p poison-pill --release --target-dir target/loom --test loom_notify_on_cancel -- --ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

use poison_pill::notify_on_cancel::Timer;

/// P3's scenario: the far task is queued before the cancel, so the thread
/// never blocks in `take` after the cancel (the queue's own notify is sent
/// under the queue's lock and cannot be lost): P1 cannot block this model.
/// The drop's own cancel does nothing (cancel runs once), so it sends no
/// second notify that could hide the first one's loss. Only a cancel
/// landing between the flag check and the wait can block it.
#[test]
#[ignore = "P3 cancel_notify_race: loom finds it in notify_on_cancel.rs"]
fn p3_cancel_notify_race_loom_on_notify_on_cancel() {
    loom::model(|| {
        let timer = Timer::new("loom-notify").unwrap();
        timer.schedule(kit::ms(3_600_000), || {}).unwrap();
        timer.cancel();
        drop(timer);
    });
}
