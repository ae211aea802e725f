//! Wrong: models another race, two adders claiming cells of one slot at
//! once, with a check that holds. The drain runs only after both adders
//! are joined, and the join orders every write of theirs before the drain's
//! reads: no drain ever races an insert, so the publication race never
//! opens, and every execution passes on the `Relaxed` ring too.

use exercise_models::w5::Ring;
use loom::sync::Arc;

#[test]
fn model() {
    loom::model(|| {
        let ring = Arc::new(Ring::new(2, 2).unwrap());
        let adders: Vec<_> = [42, 43]
            .into_iter()
            .map(|due| {
                let ring = Arc::clone(&ring);
                loom::thread::spawn(move || {
                    assert!(ring.insert(1, due, Box::new(|| {})).is_ok());
                })
            })
            .collect();
        for adder in adders {
            adder.join().unwrap();
        }
        let mut read: Vec<u64> = ring.drain(1).iter().map(|(due, _)| *due).collect();
        read.sort_unstable();
        assert_eq!(read, [42, 43], "each adder's task, with its due");
    });
}
