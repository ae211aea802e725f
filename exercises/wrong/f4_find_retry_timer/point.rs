//! Wrong: it holds the worker at the wrong point. It cancels while the
//! worker is held right after the operation failed, before it asks: there
//! the cancel comes before the question, and the attempt sees it. It passes
//! on every version.
// verdict: misses-the-bug

use std::thread;

use exercises::find::f4::{Pause, Retrier, TRIED};
use kit::{Recorder, ms, threads};

#[test]
fn f4_retry_timer_caught() {
    let name = threads::unique_name("find-f4");
    let retrier = Retrier::new(&name).expect("start the retry timer");
    let rec = Recorder::new();
    let pause = Pause::arm(TRIED, &name);
    let r = rec.clone();
    let retry = retrier.retry(ms(100), move || {
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
    let _ = rec.eventually("cancel returned", ms(100));
    pause.release();
    canceller.join().expect("the canceller thread");
    assert!(
        rec.wait_until_count("attempt", 2, ms(400)).is_none(),
        "F4 retry timer: an attempt after cancel"
    );
}
