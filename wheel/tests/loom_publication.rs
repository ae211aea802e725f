//! loom models of W5 `publication_race`, fixed: the ring's cells publish
//! with Release/Acquire (`Publish::ReleaseAcquire`, the default).
//!
//! One adder thread inserts a task into a slot while the ticker's drain
//! runs on the model's main thread; after the adder is joined the drain
//! runs once more, so the task is taken either by the racing drain or by
//! the one after. In every interleaving loom can build, the task is taken
//! exactly once, its job is there, and the `due` the drain read for it is
//! the one the adder wrote. The second model puts two tasks in one slot
//! of capacity 2, so the drain's retry loop (W9's spin) is explored too.
//! The third reuses a table entry: the main thread first adds and drains
//! a task due at 7 in a ring of one cell, so the adder's task gets the same
//! entry, whose old `due` a drain must not read.
//!
//! What this proves: the ring's claim, publication and drain are correct
//! for one adder and one drain, for every interleaving and every value the
//! memory model lets a load return. What it does not: more adders at once,
//! more rounds than two, or the cursor and the ticker thread
//! (W2 and W9 are timing bugs, shown by the pause-point tests; loom has no
//! clock). The same model with Relaxed publication fails:
//! tests/w5_publication_race.rs.
//!
//! ```text
//! cargo xtask loom wheel loom_publication
//! ```
//!
//! runs its models, which must pass, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p wheel --release --target-dir target/loom --test loom_publication -- --include-ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

use loom::sync::Arc;
use loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use wheel::ring::{Publish, Ring};

/// The `due` each adder writes: anything but the table's initial 0.
const DUE: u64 = 42;

/// One adder inserts tasks due at `dues` into slot 1 while the main thread
/// drains it; returns (due read, job) for every task taken, and how many
/// jobs ran.
fn race(publish: Publish, capacity: usize, dues: &'static [u64]) -> (Vec<u64>, usize) {
    let ring = Arc::new(Ring::new(2, capacity, publish).unwrap());
    let ran = Arc::new(AtomicUsize::new(0));
    let adder = {
        let (ring, ran) = (Arc::clone(&ring), Arc::clone(&ran));
        loom::thread::spawn(move || {
            for &due in dues {
                let ran = Arc::clone(&ran);
                let job = Box::new(move || {
                    ran.fetch_add(1, SeqCst);
                });
                assert!(ring.insert(1, due, job).is_ok(), "room for every task");
            }
        })
    };
    let mut taken = ring.drain(1);
    adder.join().unwrap();
    taken.extend(ring.drain(1));
    let mut read = Vec::new();
    for (due, job) in taken {
        read.push(due);
        job();
    }
    read.sort_unstable();
    (read, ran.load(SeqCst))
}

#[test]
fn w5_loom_drain_reads_what_the_adder_wrote() {
    loom::model(|| {
        let (read, ran) = race(Publish::ReleaseAcquire, 1, &[DUE]);
        assert_eq!(
            read,
            [DUE],
            "W5 publication_race: the drain read due {read:?}, the adder wrote {DUE}"
        );
        assert_eq!(ran, 1);
    });
}

#[test]
fn w5_loom_two_tasks_in_one_slot() {
    loom::model(|| {
        let (read, ran) = race(Publish::ReleaseAcquire, 2, &[DUE, DUE + 1]);
        assert_eq!(
            read,
            [DUE, DUE + 1],
            "W5 publication_race: the drain read dues {read:?}, the adder wrote {DUE} and {}",
            DUE + 1
        );
        assert_eq!(ran, 2);
    });
}

#[test]
fn w5_loom_a_reused_entry_shows_the_new_due() {
    loom::model(|| {
        let ring = Arc::new(Ring::new(1, 1, Publish::ReleaseAcquire).unwrap());
        // The first task, added and drained before the race: entry 0 now
        // holds due 7.
        assert!(ring.insert(0, 7, Box::new(|| {})).is_ok());
        assert_eq!(ring.drain(0).len(), 1);
        let adder = {
            let ring = Arc::clone(&ring);
            loom::thread::spawn(move || {
                assert!(ring.insert(0, DUE, Box::new(|| {})).is_ok());
            })
        };
        let mut taken = ring.drain(0);
        adder.join().unwrap();
        taken.extend(ring.drain(0));
        let read: Vec<u64> = taken.iter().map(|(due, _)| *due).collect();
        assert_eq!(
            read,
            [DUE],
            "W5 publication_race: the drain read due {read:?} from a reused entry, the adder \
             wrote {DUE} (the previous task's was 7)"
        );
    });
}
