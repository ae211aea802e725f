//! Catch it, T7 `execute_shutdown_race`: write the test that catches the
//! task stranded by shutdown, of *A pool of workers*.
//!
//! `exercises::catch::t7` is a pool behind which one of several versions
//! runs: the one whose `execute` returns as soon as its task is queued;
//! correct ones, which close that window in different ways (the stage's
//! looks at the pool again after queuing and hands the task back if the
//! pool has shut down meanwhile); and pools with other bugs. Your test
//! cannot tell which it got, except by what the pool does. The check runs
//! it against each of them, several times, some with every core busy: it
//! must fail on the one without the second look every time, by an
//! assertion of yours, and pass on every correct one every time.
//!
//! Do not hope for the race: force it. `WINDOW` is the caller's race window
//! (`execute` has seen the pool running and has not queued its task), and
//! `Pause::arm(WINDOW, &caller)` holds the thread named `caller` there
//! until you release it. A test that sleeps and hopes instead is told so.
//!
//! Check: `cargo xtask exercise check t7-catch`. Hints:
//! `cargo xtask exercise hint t7-catch`.

use std::thread;

use exercises::catch::t7::Pool;
use kit::{Recorder, threads};

#[test]
fn t7_execute_shutdown_race_caught() {
    let prefix = threads::unique_name("catch-t7");
    let pool = Pool::new(&prefix);
    let rec = Recorder::new();
    let caller = format!("{prefix}c");

    // TODO(T7): arm the pause here, for the thread named `caller`, before
    // it calls `execute`.

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

        // TODO(T7): wait until the caller is held there. While it is held,
        // shut the pool down and wait until it has terminated
        // (`pool.await_termination`); then release the pause.

        execute.join().expect("the caller")
    });

    // TODO(T7): a task the pool accepted (`accepted`) must run: assert that
    // it ran within 300 ms (`rec.eventually`), in a message that starts
    // with "T7". A task handed back is no bug.
    let _ = accepted;
}
