//! Reference model for W5 `publication_race`: one adder thread inserts a
//! task due at 42 while the model's thread drains the slot; after the
//! adder is joined the slot is drained once more, so the task is taken by
//! one drain or the other. The check: the drain read the `due` the adder
//! wrote.
//!
//! With `Relaxed` publication loom finds the execution where the drain
//! loads the cell's index and then reads the entry as it was before the
//! adder wrote it: due 0. With `Release`/`Acquire` the drain's Acquire load
//! that reads the adder's Release store makes the adder's earlier writes
//! visible, and no execution reads 0.

use exercise_models::w5::Ring;
use loom::sync::Arc;

const DUE: u64 = 42;

#[test]
fn model() {
    loom::model(|| {
        let ring = Arc::new(Ring::new(2, 1).unwrap());
        let adder = {
            let ring = Arc::clone(&ring);
            loom::thread::spawn(move || {
                assert!(ring.insert(1, DUE, Box::new(|| {})).is_ok());
            })
        };
        // The drain that races the adder, then the one after it.
        let mut taken = ring.drain(1);
        adder.join().unwrap();
        taken.extend(ring.drain(1));
        let read: Vec<u64> = taken.iter().map(|(due, _)| *due).collect();
        assert_eq!(
            read,
            [DUE],
            "W5 publication_race: the drain read {read:?}, the adder wrote {DUE}"
        );
    });
}
