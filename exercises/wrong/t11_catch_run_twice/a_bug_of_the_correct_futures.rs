//! Wrong: it asks for what no future here does. It holds the runner in the
//! window and lets it go, but what it asserts is that a cancel stops a job
//! that is already running. A cancel can only ask a running job to stop
//! (*A timer you can interrupt*, I3), and a job that never looks runs to
//! its end. It fails on the correct futures too.
// verdict: rejects-correct

use std::sync::Arc;
use std::thread;

use exercises::catch::t11::{Pause, Task, WINDOW};
use kit::{Recorder, ms, threads};

#[test]
fn t11_run_twice_caught() {
    let rec = Recorder::new();
    let task = Arc::new(Task::new({
        let rec = rec.clone();
        move || {
            rec.record("job started");
            thread::sleep(ms(200));
            rec.record("job finished");
            42
        }
    }));
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
    pause.release();
    rec.eventually("job started", ms(5000))
        .expect("the job starts");
    let cancelled = task.cancel();
    runner.join().expect("the runner");
    assert!(
        rec.at("job finished").is_none(),
        "T11 run_twice: cancelled ({cancelled}) while it ran, and the job ran to its end\n{}",
        rec.log()
    );
}
