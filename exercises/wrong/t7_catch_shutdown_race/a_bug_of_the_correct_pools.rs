//! Wrong: it catches a bug most of the correct pools have too. It holds
//! the caller in the window and lets it go at once, but what it asserts is
//! that a task runs on time while a long one keeps a worker busy: one
//! worker delays the next task, as one thread does in *A timer you can
//! interrupt* (I4 `delayed_tasks`). A pool that starts a worker for every
//! task that finds none idle passes it; the correct pools with one worker
//! fail it.
// verdict: rejects-correct

use std::thread;

use exercises::catch::t7::{Pause, Pool, WINDOW};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn t7_execute_shutdown_race_caught() {
    let prefix = threads::unique_name("catch-t7");
    let pool = Pool::new(&prefix);
    let rec = Recorder::new();
    let caller = format!("{prefix}c");
    let pause = Pause::arm(WINDOW, &caller);
    thread::scope(|s| {
        let execute = thread::Builder::new()
            .name(caller.clone())
            .spawn_scoped(s, || {
                pool.execute(|| thread::sleep(ms(300)))
                    .expect("a running pool")
            })
            .expect("spawn the caller");
        pause.wait_reached();
        pause.release();
        execute.join().expect("the caller");
    });
    let r = rec.clone();
    let sent = rec.record("second task sent");
    pool.execute(move || {
        r.record("second task ran");
    })
    .expect("a running pool");
    let ran = rec.eventually("second task ran", ms(1000));
    assert!(
        ran.is_some_and(|ran| ran <= sent + ms(100)),
        "T7 execute_shutdown_race: the second task, sent at {} ms, ran at {ran:?}",
        in_ms(sent)
    );
}
