//! Wrong: it catches another bug. It holds the worker once, during the
//! first attempt, and asserts that a retry whose backoff is enormous (292
//! years and more) tries once and then waits. Every correct retry timer
//! does, and so does this one as written; what fails it is a pool whose
//! next deadline wraps around into the past (T15, *Timers on a pool*),
//! where the next attempt is due at once. Not the bug here.
// verdict: catches-another

use std::time::Duration;

use exercises::find::f4::{Pause, Retrier, TRIED};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn f4_retry_timer_caught() {
    let name = threads::unique_name("find-f4");
    let retrier = Retrier::new(&name).expect("start the retry timer");
    let rec = Recorder::new();
    let pause = Pause::arm(TRIED, &name);
    let r = rec.clone();
    // It fails once; a second attempt, if one comes, succeeds and ends them.
    let _retry = retrier.retry(Duration::MAX, move || {
        r.record("attempt");
        r.count("attempt") > 1
    });
    pause.wait_reached();
    pause.release();
    let second = rec.wait_until_count("attempt", 2, ms(300));
    assert!(
        second.is_none(),
        "F4 retry timer: with a backoff of {:?}, attempt 2 started at {} ms\n{}",
        Duration::MAX,
        second.map_or(0, in_ms),
        rec.log()
    );
}
