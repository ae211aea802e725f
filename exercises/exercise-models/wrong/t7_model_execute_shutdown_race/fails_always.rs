//! Wrong: checks something no pool promises. A shutdown that comes before
//! the `execute` makes the pool refuse the task, so loom finds an
//! execution that fails this assertion on the fixed pool too.

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
        pool.shutdown();
        assert!(client.join().unwrap(), "the pool refused the task");
    });
}
