//! Wrong: the right threads and no check. loom finds the execution where
//! the pool takes the task and never runs it, and nothing looks: every
//! execution passes, on the pool without the second look too.

use exercise_models::t7::Pool;
use loom::sync::Arc;

#[test]
fn model() {
    loom::model(|| {
        let pool = Arc::new(Pool::new());
        pool.prestart_core_thread();
        let client = {
            let pool = Arc::clone(&pool);
            loom::thread::spawn(move || {
                let _ = pool.execute(|| {});
            })
        };
        pool.shutdown();
        client.join().unwrap();
        drop(pool);
    });
}
