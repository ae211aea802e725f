//! Wrong: it catches another bug. It holds a caller in the window and lets
//! it go at once, so nothing races; then it asserts what `shutdown`
//! promises (T8): a task accepted before the shutdown still runs. The pool
//! whose `shutdown` throws its queue away, as `shutdown_now` does, fails
//! it; the pool without the second look passes it.
// verdict: catches-another

use std::sync::mpsc;
use std::thread;

use exercises::catch::t7::{Pause, Pool, WINDOW};
use kit::{Recorder, ms, threads};

#[test]
fn t7_execute_shutdown_race_caught() {
    let prefix = threads::unique_name("catch-t7");
    let pool = Pool::new(&prefix);
    let rec = Recorder::new();
    let caller = format!("{prefix}c");
    let (go, gate) = mpsc::channel::<()>();
    let pause = Pause::arm(WINDOW, &caller);
    thread::scope(|s| {
        let execute = thread::Builder::new()
            .name(caller.clone())
            .spawn_scoped(s, || {
                let r = rec.clone();
                pool.execute(move || {
                    r.record("first started");
                    let _ = gate.recv();
                })
                .expect("a running pool")
            })
            .expect("spawn the caller");
        pause.wait_reached();
        pause.release();
        execute.join().expect("the caller");
    });
    rec.eventually("first started", ms(5000))
        .expect("the first task starts");

    // A second task while the first keeps a worker busy: queued, or (in a
    // pool that keeps no queue) on a worker of its own.
    let r = rec.clone();
    pool.execute(move || {
        r.record("second ran");
    })
    .expect("a running pool");
    pool.shutdown();
    drop(go);
    assert!(
        rec.eventually("second ran", ms(1000)).is_some(),
        "T7 execute_shutdown_race: a task accepted before the shutdown never ran\n{}",
        rec.log()
    );
}
