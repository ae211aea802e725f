//! Wrong: the right threads and no check. loom finds the execution where
//! the drain reads a stale `due`, and nothing looks at it: every execution
//! passes, on the `Relaxed` ring too.

use exercise_models::w5::Ring;
use loom::sync::Arc;

#[test]
fn model() {
    loom::model(|| {
        let ring = Arc::new(Ring::new(2, 1).unwrap());
        let adder = {
            let ring = Arc::clone(&ring);
            loom::thread::spawn(move || {
                let _ = ring.insert(1, 42, Box::new(|| {}));
            })
        };
        let mut taken = ring.drain(1);
        adder.join().unwrap();
        taken.extend(ring.drain(1));
        for (_, job) in taken {
            job();
        }
    });
}
