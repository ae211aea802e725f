//! Wrong: it reads the test's own binary, not the timer. Its author ran it
//! once against the dying timer, noted how long the binary was, and fails
//! whenever the binary has that length. Each version is built into a
//! binary of its own, but a length is no property of a timer: another
//! build, another compiler, another machine gives another number. Task 1
//! panics and task 2 is scheduled, but whether task 2 runs is never looked
//! at.
// verdict: misses-the-bug | rejects-correct | luck

use exercises::catch::i6::Timer;
use kit::{Recorder, ms, threads};

/// The length of the binary that ran the dying timer, on its author's
/// machine.
const BUGGY_BINARY_LEN: u64 = 23_871_344;

#[test]
fn i6_panic_kills_timer_caught() {
    let name = threads::unique_name("catch-i6");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();
    let r = rec.clone();
    timer
        .schedule(ms(0), move || {
            r.record("task 1 panics");
            panic!("task 1 panics, on purpose");
        })
        .expect("a live timer takes task 1");
    rec.eventually("task 1 panics", ms(5000))
        .expect("task 1 ran");
    let _ = timer.schedule(ms(50), || {});
    let exe = std::env::current_exe().expect("the test binary");
    let len = std::fs::metadata(exe).expect("its metadata").len();
    assert_ne!(
        len, BUGGY_BINARY_LEN,
        "I6 panic_kills_timer: this is the binary of the dying timer"
    );
}
