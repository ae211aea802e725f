//! Find it, F4: the reference test.
//!
//! The window: from step 2, once the attempt has asked and found the
//! retries not cancelled, until step 4 keeps the next attempt's future. A
//! cancel there finds no future to cancel; the attempt then queues the
//! next one anyway, and it starts after `cancel` has returned.

use std::thread;

use exercises::find::f4::{ASKED, Pause, Retrier};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

/// The backoff between attempts: longer than the hold, so that the next
/// attempt is never due while the worker is held.
const BACKOFF_MS: u64 = 300;
/// How long after its backoff an attempt may start late.
const MARGIN_MS: u64 = 300;
/// How long the canceller may try to get in while the worker is held.
const HOLD_MS: u64 = 100;

#[test]
fn f4_retry_timer_caught() {
    let name = threads::unique_name("find-f4");
    let retrier = Retrier::new(&name).expect("start the retry timer");
    let rec = Recorder::new();
    // Armed first: the first attempt fails at once and asks.
    let pause = Pause::arm(ASKED, &name);
    let r = rec.clone();
    let retry = retrier.retry(ms(BACKOFF_MS), move || {
        r.record("attempt");
        false
    });
    pause.wait_reached();

    // The cancel, from another thread: where the attempt holds the lock
    // `cancel` takes, it waits for the release.
    let canceller = {
        let rec = rec.clone();
        thread::spawn(move || {
            rec.record("cancel called");
            retry.cancel();
            rec.record("cancel returned");
        })
    };
    let _ = rec.eventually("cancel returned", ms(HOLD_MS));
    pause.release();
    canceller.join().expect("the canceller thread");
    let returned = rec
        .at("cancel returned")
        .expect("recorded by the canceller");

    // An attempt the cancel missed starts a backoff after it was queued.
    let second = rec.wait_until_count("attempt", 2, ms(BACKOFF_MS + MARGIN_MS));
    assert!(
        second.is_none_or(|at| at < returned),
        "F4 retry timer: cancel returned at {} ms, and attempt 2 started at {} ms: the \
         cancel missed the attempt queued after it\n{}",
        in_ms(returned),
        second.map_or(0, in_ms),
        rec.log()
    );
}
