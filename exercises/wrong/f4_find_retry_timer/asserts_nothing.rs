//! Wrong: it asserts nothing. It forces the window well, cancels, waits a
//! backoff and more, and never says what it expected.
// verdict: misses-the-bug

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
    let retry = retrier.retry(ms(100), move || {
        r.record("attempt");
        false
    });
    pause.wait_reached();
    let canceller = thread::spawn(move || retry.cancel());
    std::thread::sleep(ms(100));
    pause.release();
    canceller.join().expect("the canceller thread");
    let second = rec.wait_until_count("attempt", 2, ms(400));
    println!("attempt 2: {second:?}");
}
