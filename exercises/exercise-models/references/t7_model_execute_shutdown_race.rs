//! Reference model for T7 `execute_shutdown_race`: the worker is started
//! first, so `execute` queues its task; a client thread executes while the
//! model's thread shuts the pool down. The check, once every worker is
//! joined: a task the pool took (`Ok`) has run.
//!
//! On the pool without the second look loom finds the execution where
//! `shutdown` and the worker's exit come between `execute`'s look at the
//! pool (running) and its offer to the queue: `execute` says `Ok`, no
//! worker is left, and the task never runs. On the fixed pool `execute`
//! looks again after queuing and takes the task back (`Err`) when nobody
//! is left to run it.

use std::time::Duration;

use exercise_models::t7::Pool;
use loom::sync::Arc;
use loom::sync::atomic::{AtomicBool, Ordering::SeqCst};

#[test]
fn model() {
    loom::model(|| {
        let pool = Arc::new(Pool::new());
        assert!(pool.prestart_core_thread());
        let ran = Arc::new(AtomicBool::new(false));
        let client = {
            let (pool, ran) = (Arc::clone(&pool), Arc::clone(&ran));
            loom::thread::spawn(move || pool.execute(move || ran.store(true, SeqCst)).is_ok())
        };
        pool.shutdown();
        let taken = client.join().unwrap();
        assert!(pool.await_termination(Duration::from_secs(3600)));
        // The last handle: its drop joins every worker, so whatever will
        // run has run.
        drop(Arc::try_unwrap(pool).ok().expect("the client let go"));
        assert!(
            !taken || ran.load(SeqCst),
            "T7 execute_shutdown_race: execute returned Ok, the pool terminated, and the task \
             never ran"
        );
    });
}
