//! Wrong: it reads the executable. It forces the window well, then, instead
//! of asking whether the action ran, it decides by the size of the test
//! binary: on the student's machine the build with the bug was the larger
//! one. Every version is built into a binary of its own, and they differ
//! in size by a few kilobytes, in ways no test can know: the grader's
//! binaries all fall on the same side of the student's number, so the test
//! fails on every version or passes on every one. It never looks at what
//! the debouncer does.
// verdict: rejects-correct | misses-the-bug | luck

use std::sync::Arc;
use std::thread;

use exercises::find::f2::{AFTER_LOOK, Debouncer, Pause};
use kit::{Recorder, ms, threads};

/// The size the student's build with the bug was larger than.
const BUGGY_OVER: u64 = 64 << 20;

#[test]
fn f2_debouncer_caught() {
    let name = threads::unique_name("find-f2");
    let rec = Recorder::new();
    let pause = Pause::arm(AFTER_LOOK, &name);
    let r = rec.clone();
    let debouncer = Arc::new(
        Debouncer::new(&name, ms(50), move || {
            r.record("fired");
        })
        .expect("start the debouncer"),
    );
    pause.wait_reached();
    let client = {
        let debouncer = Arc::clone(&debouncer);
        thread::spawn(move || debouncer.poke())
    };
    std::thread::sleep(ms(100));
    pause.release();
    client.join().expect("the client thread");
    let exe = std::env::current_exe().expect("the test's executable");
    let size = std::fs::metadata(&exe).map_or(0, |m| m.len());
    assert!(
        size <= BUGGY_OVER,
        "F2 debouncer: {} is {size} bytes, the size of the build with the bug",
        exe.display()
    );
}
