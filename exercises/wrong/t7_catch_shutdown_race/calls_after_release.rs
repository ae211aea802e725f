//! Wrong: it holds the caller, but shuts the pool down only after the
//! release. Whether the shutdown ends before the released caller queues its
//! task is then up to the scheduler: it catches the bug when the test
//! thread wins, and misses it when the caller does. (When the caller
//! wins, the pool whose `shutdown` throws its queue away strands the task
//! too: another bug, caught by luck.)
// verdict: luck | misses-the-bug | catches-another

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
        pause.release();
        pool.shutdown();
        let _ = pool.await_termination(ms(5000));
        execute.join().expect("the caller")
    });
    if accepted {
        assert!(
            rec.eventually("task ran", ms(300)).is_some(),
            "T7 execute_shutdown_race: accepted, and not run 300 ms later"
        );
    }
}
