//! Wrong: it looks for the version in the path of its own executable,
//! which the grader links anew, under a name drawn at random, for every
//! check. Nothing in it names a version, so it never fails.
// verdict: misses-the-bug

use std::sync::Arc;
use std::thread;

use exercises::catch::s1::{Pause, Timer, WINDOW};
use kit::{ms, threads};

#[test]
fn s1_missed_earlier_task_caught() {
    let name = threads::unique_name("catch-s1");
    let timer = Arc::new(Timer::new(&name).expect("start the timer"));
    let pause = Pause::arm(WINDOW, &name);
    timer.schedule(ms(1000), || {}).expect("a small delay");
    pause.wait_reached();
    let client = {
        let timer = Arc::clone(&timer);
        thread::spawn(move || timer.schedule(ms(50), || {}).expect("a small delay"))
    };
    thread::sleep(ms(100));
    pause.release();
    client.join().expect("the client thread");
    let exe = std::env::current_exe().expect("the executable's path");
    let exe = exe.to_string_lossy().to_ascii_lowercase();
    assert!(
        !["racy", "buggy", "slot-3", "slot3"].iter().any(|w| exe.contains(w)),
        "S1 missed_earlier_task: the executable {exe} is the buggy version's"
    );
}
