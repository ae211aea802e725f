//! Model it: W5 `publication_race`, from *A wheel of slots*.
//!
//! Write a loom model that finds the publication race: the threads, what
//! they do, and the check. `cargo xtask model-check
//! w5_model_publication_race` runs your `model` twice, each time in a
//! process of its own:
//!
//! - on the ring whose cells publish with `Relaxed`: loom must find an
//!   execution that fails your assertion;
//! - on the ring whose cells publish with `Release`/`Acquire`: every
//!   execution must pass, with up to 3 preemptions.
//!
//! Your model cannot tell which one it got: both are `Ring`, with the same
//! methods. What you have (`exercise_models::w5`):
//!
//! - `Ring::new(slots, capacity)`: a ring of empty slots, with no cursor,
//!   no clock and no thread of its own;
//! - `ring.insert(slot, due, job)` claims a cell of `slot`, writes `due`
//!   and `job` into a task-table entry, then stores the entry's index in the
//!   cell (`Err` if every cell of the slot is claimed). An entry holds 0 as
//!   its `due` before anyone wrote it;
//! - `ring.drain(slot)` takes every claimed cell's task, as the ticker
//!   does, and returns each one's `due` as the drain read it, with its job.
//!   It waits (yielding) for a cell that is claimed and not yet stored;
//! - `ring.claimed(slot)`: how many cells are claimed right now;
//! - a job is a `Box<dyn FnOnce() + Send>`.
//!
//! loom runs every thread you spawn with `loom::thread::spawn` against the
//! others, in every interleaving up to its preemption bound, and lets a
//! load return an older value, from the last few stores to that atomic,
//! where the memory model allows it. It never reorders two operations of
//! one thread, so not every execution `Relaxed` allows is among them (see
//! *A wheel of slots*): enough to find this race, no proof of its absence.
//!
//! Keep `#[test] fn model()` and `loom::model(..)`: the grader runs that
//! test, and sets loom's preemption bound itself.

// What the model will want; the skeleton uses none of it yet.
#[allow(unused_imports)]
use exercise_models::w5::Ring;
#[allow(unused_imports)]
use loom::sync::Arc;

#[test]
fn model() {
    loom::model(|| {
        let ring = Ring::new(2, 1).unwrap();
        // TODO(W5): an adder and a drain at the same time, and a check on
        // what the drain read.
        drop(ring);
    });
}
