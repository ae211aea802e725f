//! Wrong: it tests how it imagines a correct pool is built, not the race.
//! While the caller is held in the window, it gives the pool a second task
//! from another thread and asserts that it runs, before it shuts the pool
//! down, as if one `execute` could never wait for another. In the pool
//! whose `execute`s take turns, the second waits for the held one, and
//! that pool is correct: it fails there.
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
    let (accepted, second_ran) = thread::scope(|s| {
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
        // The pool still works while the caller is held, surely.
        let second = s.spawn(|| {
            let r = rec.clone();
            pool.execute(move || {
                r.record("second ran");
            })
            .is_ok()
        });
        let second_ran = rec.eventually("second ran", ms(1000)).is_some();
        pool.shutdown();
        let _ = pool.await_termination(ms(1000));
        pause.release();
        second.join().expect("the second caller");
        (execute.join().expect("the caller"), second_ran)
    });
    assert!(
        second_ran,
        "T7 execute_shutdown_race: a second task did not run while the caller was held\n{}",
        rec.log()
    );
    if accepted {
        assert!(
            rec.eventually("task ran", ms(300)).is_some(),
            "T7 execute_shutdown_race: accepted, and never ran\n{}",
            rec.log()
        );
    }
}
