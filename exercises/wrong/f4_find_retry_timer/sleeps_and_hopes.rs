//! Wrong: it sleeps and hopes. No pause point: it lets the first attempt
//! fail, sleeps a moment so that the worker is "surely" between its
//! question and keeping the next future, and cancels. The gap is a few
//! instructions wide.
// verdict: never-held

use std::time::Duration;

use exercises::find::f4::Retrier;
use kit::{Recorder, ms, threads};

#[test]
fn f4_retry_timer_caught() {
    let name = threads::unique_name("find-f4");
    let retrier = Retrier::new(&name).expect("start the retry timer");
    let rec = Recorder::new();
    let r = rec.clone();
    let retry = retrier.retry(ms(100), move || {
        r.record("attempt");
        false
    });
    let _ = rec.eventually("attempt", ms(100));
    std::thread::sleep(Duration::from_micros(20));
    retry.cancel();
    assert!(
        rec.wait_until_count("attempt", 2, ms(400)).is_none(),
        "F4 retry timer: an attempt after cancel"
    );
}
