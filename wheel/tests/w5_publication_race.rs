//! W5 `publication_race`, in the ring of ring.rs: one adder and one drain,
//! the model of tests/loom_publication.rs, once per way of publishing.
//!
//! The adder claims a cell, writes the task's `due` into its table entry,
//! and stores the entry's index into the cell. The drain loads the index,
//! then loads `due`. With `Publish::Relaxed`, in some execution the drain
//! gets the entry's old value, 0: nothing orders its read after the
//! adder's write. No undefined behaviour, no `unsafe`: a wrong number,
//! which on the real wheel means a task timed against the wrong deadline.
//! With `Publish::ReleaseAcquire` the drain's Acquire load that reads the
//! adder's Release store makes every write before that store visible to
//! every read after the load, and loom finds no such execution.
//!
//! What this shows: the missing Release/Acquire pair is a real bug that
//! the memory model allows, found by loom and not by luck. A plain test
//! proves nothing either way: x86 hardware keeps stores in order, but the
//! compiler may reorder two `Relaxed` accesses to different atomics, so
//! the bug may or may not show on any given build and machine. What it
//! does not show: every reordering `Relaxed` allows. loom (0.7.2) lets a
//! load return an older value from the last few stores to that atomic, but
//! never reorders two operations within one thread, so a loom pass is no
//! proof for `Relaxed` code; a loom failure is a real execution.
//!
//! loom is the only way to show this bug, so this whole file is loom's:
//!
//! ```text
//! cargo xtask loom wheel w5_publication_race  # the check on Relaxed, as the book shows it
//! RUSTFLAGS="--cfg loom" cargo test -p wheel --release --target-dir target/loom \
//!     --test w5_publication_race              # reproduces and fixed: pass
//! RUSTFLAGS="--cfg loom" cargo test -p wheel --release --target-dir target/loom \
//!     --test w5_publication_race -- --ignored # the check on Relaxed: fails
//! ```
#![cfg(loom)]

use loom::sync::Arc;
use loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use wheel::ring::{Publish, Ring};

const DUE: u64 = 42;

/// The check: every execution of one add and one drain reads back the
/// `due` the adder wrote.
fn drain_reads_what_the_adder_wrote(publish: Publish) {
    loom::model(move || {
        let ring = Arc::new(Ring::new(2, 1, publish).unwrap());
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

#[test]
fn w5_publication_race_reproduces() {
    // loom reports the failing execution by panicking with the check's
    // message; catching it here is how the default run shows the bug.
    let found = std::panic::catch_unwind(|| drain_reads_what_the_adder_wrote(Publish::Relaxed))
        .expect_err("loom found no execution where the drain reads a stale due");
    let message = found
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| found.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert!(
        message.contains("W5 publication_race"),
        "loom failed for another reason: {message}"
    );
    println!("loom, on Publish::Relaxed: {message}");
}

#[test]
fn w5_publication_race_fixed() {
    drain_reads_what_the_adder_wrote(Publish::ReleaseAcquire);
}

#[test]
#[ignore = "W5 publication_race: loom finds it in ring.rs"]
fn w5_publication_race_on_ring() {
    drain_reads_what_the_adder_wrote(Publish::Relaxed);
}
