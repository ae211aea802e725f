//! Wrong: models another race, T4's: `execute` against `shutdown` with no
//! worker started yet. Below core size `execute` starts a worker for its
//! task instead of queuing it, and the worker runs it even after the
//! shutdown; the queue and its second look are never used, so every
//! execution passes on the pool without the second look too.

use std::time::Duration;

use exercise_models::t7::Pool;
use loom::sync::Arc;
use loom::sync::atomic::{AtomicBool, Ordering::SeqCst};

#[test]
fn model() {
    loom::model(|| {
        let pool = Arc::new(Pool::new());
        let ran = Arc::new(AtomicBool::new(false));
        let client = {
            let (pool, ran) = (Arc::clone(&pool), Arc::clone(&ran));
            loom::thread::spawn(move || pool.execute(move || ran.store(true, SeqCst)).is_ok())
        };
        pool.shutdown();
        let taken = client.join().unwrap();
        assert!(pool.await_termination(Duration::from_secs(3600)));
        drop(Arc::try_unwrap(pool).ok().expect("the client let go"));
        assert!(!taken || ran.load(SeqCst), "a task the pool took never ran");
    });
}
