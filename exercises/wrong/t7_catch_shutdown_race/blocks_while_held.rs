//! Wrong: it tests how it imagines a correct pool is built, not the race.
//! It holds the caller in the window, calls `shutdown` from another thread,
//! and asserts that the shutdown waits while the caller is held, as if a
//! correct pool had to keep `shutdown` out of an `execute` under way. None
//! of them does: the stage's pool shuts down at once and takes the task
//! back afterwards; one refuses the task at its queue; one whose
//! `execute`s take turns holds a lock in the window, but not one that
//! `shutdown` takes. It fails on every correct pool.
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
    let waited = thread::scope(|s| {
        let execute = thread::Builder::new()
            .name(caller.clone())
            .spawn_scoped(s, || pool.execute(|| {}).is_ok())
            .expect("spawn the caller");
        pause.wait_reached();
        let held = rec.record("caller held");
        let shutdown = s.spawn(|| {
            pool.shutdown();
            rec.record("shutdown returned");
        });
        let waited = rec.still_absent("shutdown returned", held + ms(200));
        pause.release();
        shutdown.join().expect("the shutdown");
        execute.join().expect("the caller");
        waited
    });
    assert!(
        waited.is_ok(),
        "T7 execute_shutdown_race: shutdown returned while an execute was held in its window: \
         nothing keeps the two apart\n{}",
        rec.log()
    );
}
