//! Wrong: it reads the executable. It forces the window well, then, instead
//! of asking whether the task ran, it decides by the size of the test
//! binary: on the student's machine the build with the bug was the larger
//! one. Every version is built into a binary of its own, and they differ
//! in size by a few kilobytes, in ways no test can know: the grader's
//! binaries all fall on the same side of the student's number, so the test
//! fails on every version or passes on every one. It never looks at what
//! the timer does.
// verdict: rejects-correct | misses-the-bug | luck

use exercises::find::f1::{PLANNED, Pause, Timer};
use kit::{Recorder, ms, threads};

/// The size the student's build with the bug was larger than.
const BUGGY_OVER: u64 = 64 << 20;

#[test]
fn f1_inbox_timer_caught() {
    let name = threads::unique_name("find-f1");
    let rec = Recorder::new();
    let pause = Pause::arm(PLANNED, &name);
    let timer = Timer::new(&name).expect("start the timer");
    pause.wait_reached();
    let r = rec.clone();
    timer
        .schedule(ms(50), move || {
            r.record("task ran");
        })
        .expect("a small delay");
    pause.release();
    let exe = std::env::current_exe().expect("the test's executable");
    let size = std::fs::metadata(&exe).map_or(0, |m| m.len());
    assert!(
        size <= BUGGY_OVER,
        "F1 inbox timer: {} is {size} bytes, the size of the build with the bug",
        exe.display()
    );
}
