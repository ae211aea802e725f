//! Wrong: it reads the binary, not the task. It forces the race, then
//! decides by the length of its own executable, which its author measured
//! once in the build without the claim: a number that says nothing about
//! how often the job ran, and that no other build, on any other machine,
//! shares.
// verdict: misses-the-bug | rejects-correct

use std::sync::Arc;
use std::thread;

use exercises::catch::t11::{Pause, Task, WINDOW};
use kit::threads;

/// The length of the buggy build's test binary, as measured once.
const BUGGY_BINARY_LEN: u64 = 48_213_576;

#[test]
fn t11_run_twice_caught() {
    let task = Arc::new(Task::new(|| 42));
    let first = threads::unique_name("catch-t11");
    let pause = Pause::arm(WINDOW, &first);
    let runner = thread::Builder::new()
        .name(first.clone())
        .spawn({
            let task = Arc::clone(&task);
            move || task.run()
        })
        .expect("spawn the first runner");
    pause.wait_reached();
    let second = thread::spawn({
        let task = Arc::clone(&task);
        move || task.run()
    });
    second.join().expect("the second runner");
    pause.release();
    runner.join().expect("the first runner");
    let len = std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|m| m.len())
        .unwrap_or(0);
    assert_ne!(
        len, BUGGY_BINARY_LEN,
        "T11 run_twice: this is the build without the claim"
    );
}
