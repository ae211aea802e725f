//! Wrong: checks something the ring does not promise. The drain that
//! races the adder may run before the insert and take nothing (the one
//! after the join takes the task then), so loom finds an execution that
//! fails this assertion with `Release`/`Acquire` too.

use exercise_models::w5::Ring;
use loom::sync::Arc;

#[test]
fn model() {
    loom::model(|| {
        let ring = Arc::new(Ring::new(2, 1).unwrap());
        let adder = {
            let ring = Arc::clone(&ring);
            loom::thread::spawn(move || {
                assert!(ring.insert(1, 42, Box::new(|| {})).is_ok());
            })
        };
        let taken = ring.drain(1);
        adder.join().unwrap();
        assert_eq!(taken.len(), 1, "the racing drain took nothing");
    });
}
