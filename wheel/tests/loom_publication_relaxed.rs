//! loom finds W5 `publication_race` in ring.rs when the cells publish
//! with Relaxed ordering (`Publish::Relaxed`): the model of
//! tests/loom_publication.rs, one adder and one drain, on that ring.
//!
//! The adder claims a cell, writes the task's `due` into its table entry,
//! and stores the entry's index into the cell, all Relaxed. In some
//! execution the drain loads the index, then loads `due` and gets the
//! entry's old value, 0: nothing orders its read after the adder's write.
//! No undefined behaviour, no `unsafe`: a wrong number, which on the real
//! wheel means a task timed against the wrong deadline (and, by the same
//! missing edge, an entry whose job the drain might not find).
//!
//! What this shows: the missing Release/Acquire pair is a real bug that
//! the memory model allows, found by loom, not by luck on x86 (where
//! ordinary stores are not reordered with each other and a test would
//! pass). Alone in its binary, as every failing model is: the CI check
//! expects it to fail.
//!
//! ```text
//! RUSTFLAGS="--cfg loom" cargo test -p wheel --release --target-dir target/loom \
//!     --test loom_publication_relaxed -- --ignored
//! ```
#![cfg(loom)]

use loom::sync::Arc;
use loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use wheel::ring::{Publish, Ring};

const DUE: u64 = 42;

#[test]
#[ignore = "W5 publication_race: loom finds it in ring.rs"]
fn w5_loom_drain_reads_what_the_adder_wrote_on_relaxed() {
    loom::model(|| {
        let ring = Arc::new(Ring::new(2, 1, Publish::Relaxed).unwrap());
        let ran = Arc::new(AtomicUsize::new(0));
        let adder = {
            let (ring, ran) = (Arc::clone(&ring), Arc::clone(&ran));
            loom::thread::spawn(move || {
                let job = Box::new(move || {
                    ran.fetch_add(1, SeqCst);
                });
                assert!(ring.insert(1, DUE, job).is_ok());
            })
        };
        let mut taken = ring.drain(1);
        adder.join().unwrap();
        taken.extend(ring.drain(1));
        let read: Vec<u64> = taken.iter().map(|(due, _)| *due).collect();
        assert_eq!(
            read,
            [DUE],
            "W5 publication_race: with Relaxed publication the drain took the task and read its \
             due as {read:?}, the adder wrote {DUE}: the index was seen before the entry"
        );
    });
}
