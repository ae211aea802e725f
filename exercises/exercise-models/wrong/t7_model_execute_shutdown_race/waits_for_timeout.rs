//! Wrong: expects a wait to time out. Before the shutdown the pool cannot
//! terminate, so this `await_termination` would return false after 10 ms
//! on a real clock; under loom the clock is frozen and a timed wait ends
//! only when notified, so it waits for ever, on the fixed pool too: loom
//! reports a deadlock.

use std::time::Duration;

use exercise_models::t7::Pool;
use loom::sync::Arc;

#[test]
fn model() {
    loom::model(|| {
        let pool = Arc::new(Pool::new());
        assert!(pool.prestart_core_thread());
        let client = {
            let pool = Arc::clone(&pool);
            loom::thread::spawn(move || pool.execute(|| {}).is_ok())
        };
        assert!(
            !pool.await_termination(Duration::from_millis(10)),
            "terminated before the shutdown"
        );
        pool.shutdown();
        client.join().unwrap();
    });
}
