//! Wrong: it reads the executable, not the retry timer. It forces the
//! window well, then decides by the length of its own test binary, as if
//! the version inside could be told by its size. Each version is a binary
//! of its own, of whatever length: the answer has nothing to do with the
//! retry timer.
// verdict: rejects-correct | misses-the-bug | luck

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
    let canceller = thread::spawn(move || retry.cancel());
    std::thread::sleep(ms(100));
    pause.release();
    canceller.join().expect("the canceller thread");
    let exe = std::env::current_exe().expect("the test's executable");
    let len = std::fs::metadata(&exe).expect("its metadata").len();
    // The length its author once saw the buggy build have: any other
    // build, any other compiler, has another.
    assert_ne!(
        len, 3_134_184,
        "F4 retry timer: a binary of {len} bytes, the buggy one's length"
    );
}
