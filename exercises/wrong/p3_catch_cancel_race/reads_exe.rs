//! Wrong: it reads the test's own binary, not the timer. Its author ran it
//! once against fix 1, noted how long the binary was, and fails whenever
//! the binary has that length. Each version is built into a binary of its
//! own, but a length is no property of a timer: another build, another
//! compiler, another machine gives another number. The window is held and
//! the cancel made in it, but what the thread does after is never looked
//! at.
// verdict: misses-the-bug | rejects-correct | luck

use std::sync::Arc;
use std::thread;

use exercises::catch::p3::{Pause, Timer, WINDOW};
use kit::{Recorder, ms, threads};

/// The length of the binary that ran fix 1, on its author's machine.
const BUGGY_BINARY_LEN: u64 = 23_871_344;

#[test]
fn p3_cancel_notify_race_caught() {
    let name = threads::unique_name("catch-p3");
    let timer = Arc::new(Timer::new(&name).expect("start the timer"));
    let rec = Recorder::new();
    let pause = Pause::arm(WINDOW, &name);
    timer.schedule(ms(800), || {}).expect("a small delay");
    pause.wait_reached();
    let client = {
        let (timer, rec) = (Arc::clone(&timer), rec.clone());
        thread::spawn(move || {
            timer.cancel();
            rec.record("cancel returned");
        })
    };
    let _ = rec.eventually("cancel returned", ms(100));
    pause.release();
    client.join().expect("the client thread");
    let exe = std::env::current_exe().expect("the test binary");
    let len = std::fs::metadata(exe).expect("its metadata").len();
    assert_ne!(
        len, BUGGY_BINARY_LEN,
        "P3 cancel_notify_race: this is the binary of fix 1"
    );
}
