//! Wrong: it fails always. It forces the race well, then asserts what no
//! pool does: that a task given to `execute` is always accepted and run.
//! A pool that has shut down refuses work; a correct one hands the task
//! back, and that is the fix.
// verdict: rejects-correct

use std::thread;

use exercises::catch::t7::{Pause, Pool, WINDOW};
use kit::{Recorder, ms, threads};

#[test]
fn t7_execute_shutdown_race_caught() {
    let prefix = threads::unique_name("catch-t7");
    let pool = Pool::new(&prefix);
    let rec = Recorder::new();
    let caller = format!("{prefix}c");
    let pause = Pause::arm(WINDOW, &caller);
    let accepted = thread::scope(|s| {
        let execute = thread::Builder::new()
            .name(caller.clone())
            .spawn_scoped(s, || {
                let r = rec.clone();
                pool.execute(move || {
                    r.record("task ran");
                })
                .is_ok()
            })
            .expect("spawn the caller");
        pause.wait_reached();
        pool.shutdown();
        assert!(pool.await_termination(ms(5000)));
        pause.release();
        execute.join().expect("the caller")
    });
    let ran = rec.eventually("task ran", ms(300)).is_some();
    assert!(
        accepted && ran,
        "T7 execute_shutdown_race: accepted: {accepted}, ran: {ran}"
    );
}
