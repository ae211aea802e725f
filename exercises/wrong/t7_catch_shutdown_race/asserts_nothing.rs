//! Wrong: it asserts nothing. It forces the race well, waits for the task,
//! and never says what it expected.
// verdict: misses-the-bug

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
        let _ = pool.await_termination(ms(5000));
        pause.release();
        execute.join().expect("the caller")
    });
    let ran = rec.eventually("task ran", ms(300));
    println!("accepted: {accepted}, ran at {ran:?}");
}
