//! The check of exercise T7: `execute` is held after it saw the pool
//! running and before it queued its task, while another thread shuts the pool
//! down; then it is let go. The task must run, or come back in the error.
//!
//! `cargo xtask exercise check t7` runs it against your file.

use std::thread;

use exercises::t7_recheck::{WINDOW, fixed_pool};
use kit::pause::Pause;
use kit::{Recorder, ms, threads};

#[test]
fn t7_recheck_never_strands_a_task() {
    let prefix = threads::unique_name("ex-t7");
    let pool = fixed_pool(&prefix);
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
        assert!(
            pause.reached_within(ms(5000)),
            "execute never reached `kit::pause_point(WINDOW)`: keep it between the look and the queueing"
        );
        // From its own thread: a fix that takes a lock the held caller has in
        // hand makes `shutdown` wait for the release.
        let shutdown = s.spawn(|| {
            pool.shutdown();
            if pool.await_termination(ms(5000)) {
                rec.record("terminated");
            }
        });
        let _ = rec.eventually("terminated", ms(200));
        pause.release();
        let accepted = execute.join().expect("the caller");
        shutdown.join().expect("the shutdown thread");
        accepted
    });
    if accepted {
        let ran = rec.eventually("task ran", ms(300)).is_some();
        let terminated = rec
            .at("terminated")
            .map_or("never".to_owned(), |t| format!("at {} ms", t.as_millis()));
        assert!(
            ran,
            "T7 execute_shutdown_race: execute returned Ok, the pool terminated {terminated}, \
             and the task was neither run nor handed back 300 ms later\n{}",
            rec.log()
        );
    }
    drop(pool); // joins the worker
}
