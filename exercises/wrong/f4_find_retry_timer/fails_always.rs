//! Wrong: it fails always. It forces the window well (at its other end,
//! once the next attempt is queued), then asserts more than a retry timer
//! does: that the attempt held in the window never ran, though it had run
//! before the cancel came.
// verdict: rejects-correct

use std::thread;

use exercises::find::f4::{Pause, QUEUED, Retrier};
use kit::{Recorder, ms, threads};

#[test]
fn f4_retry_timer_caught() {
    let name = threads::unique_name("find-f4");
    let retrier = Retrier::new(&name).expect("start the retry timer");
    let rec = Recorder::new();
    let pause = Pause::arm(QUEUED, &name);
    let r = rec.clone();
    let retry = retrier.retry(ms(100), move || {
        r.record("attempt");
        false
    });
    pause.wait_reached();
    let canceller = thread::spawn(move || retry.cancel());
    std::thread::sleep(ms(100));
    pause.release();
    canceller.join().expect("the canceller thread");
    let _ = rec.wait_until_count("attempt", 2, ms(400));
    assert_eq!(
        rec.count("attempt"),
        0,
        "F4 retry timer: an attempt ran, and the retries were cancelled"
    );
}
