//! Catch it, T7 `execute_shutdown_race`: the reference test.
//!
//! The scenario of *A pool of workers*, forced. A caller's `execute` is
//! held in its window: it has seen the pool running and has not queued its
//! task. While it is held, the pool is shut down, and terminates (its queue
//! is empty, its worker leaves). Then the caller is let go. A correct pool
//! hands the task back in the error, however it learns that it shut down
//! (a second look after queuing, a queue that refuses, a hand-off that
//! finds no worker). The pool without the second look returns `Ok`, and
//! the task lies in the queue of a pool that will never run it.

use std::thread;

use exercises::catch::t7::{Pause, Pool, WINDOW};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

/// How soon a task the pool accepted must have run.
const RUN_WITHIN_MS: u64 = 300;

#[test]
fn t7_execute_shutdown_race_caught() {
    let prefix = threads::unique_name("catch-t7");
    let pool = Pool::new(&prefix);
    let rec = Recorder::new();
    let caller = format!("{prefix}c");

    // Armed first: the caller reaches the window as soon as it calls.
    let pause = Pause::arm(WINDOW, &caller);
    let accepted = thread::scope(|s| {
        let execute = thread::Builder::new()
            .name(caller.clone())
            .spawn_scoped(s, || {
                let r = rec.clone();
                let result = pool.execute(move || {
                    r.record("task ran");
                });
                rec.record(format!("execute returned {}", result.is_ok()));
                result.is_ok()
            })
            .expect("spawn the caller");
        pause.wait_reached();

        // The second half of the race, while the caller is held: the pool
        // shuts down, to the end.
        rec.record("shutdown");
        pool.shutdown();
        assert!(
            pool.await_termination(ms(5000)),
            "T7: the pool did not terminate while the caller was held\n{}",
            rec.log()
        );
        rec.record("terminated");
        pause.release();
        execute.join().expect("the caller")
    });

    if accepted {
        let returned = rec.at("execute returned true").expect("recorded");
        let ran = rec.eventually("task ran", ms(RUN_WITHIN_MS));
        assert!(
            ran.is_some(),
            "T7 execute_shutdown_race: the pool terminated at {} ms, execute returned Ok at {} \
             ms, and {} ms later the task had neither run nor been handed back ({} still \
             queued)\n{}",
            in_ms(rec.at("terminated").expect("recorded")),
            in_ms(returned),
            RUN_WITHIN_MS,
            pool.queued(),
            rec.log()
        );
    }
}
