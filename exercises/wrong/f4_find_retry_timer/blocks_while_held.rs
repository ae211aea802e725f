//! Wrong: it tests how one retry timer is built, not the race. It holds the
//! worker where the attempt has asked, cancels from another thread, and
//! asserts that the cancel waits for the release. That is true of a retry
//! timer whose attempt asks, queues and keeps the future under the lock
//! `cancel` takes; but a correct one need not (one that asks again after
//! keeping the future, or before every try, or that is one periodic task),
//! and there `cancel` returns at once.
// verdict: rejects-correct

use std::thread;

use exercises::find::f4::{ASKED, Pause, Retrier};
use kit::{Recorder, ms, threads};

#[test]
fn f4_retry_timer_caught() {
    let name = threads::unique_name("find-f4");
    let retrier = Retrier::new(&name).expect("start the retry timer");
    let rec = Recorder::new();
    let pause = Pause::arm(ASKED, &name);
    let r = rec.clone();
    let retry = retrier.retry(ms(300), move || {
        r.record("attempt");
        false
    });
    pause.wait_reached();
    let canceller = {
        let rec = rec.clone();
        thread::spawn(move || {
            retry.cancel();
            rec.record("cancel returned");
        })
    };
    let early = rec.eventually("cancel returned", ms(100));
    pause.release();
    canceller.join().expect("the canceller thread");
    assert!(
        early.is_none(),
        "F4 retry timer: cancel returned while the worker was held after asking, without \
         waiting for the attempt: it can have missed the next one\n{}",
        rec.log()
    );
}
