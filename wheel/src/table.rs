//! The lock-free wheel's task table: where a task lives while its index
//! sits in a slot's cell.
//!
//! The CAS hashed wheel timer post stores the task object itself in a
//! plain array cell, and asks whether the ticker thread will see it. Safe
//! Rust will not let two threads share a plain cell; an atomic cell holds a
//! number, not a closure. So the wheel keeps its tasks here, in a fixed
//! table of entries, and a cell holds an entry's index. The question stays
//! the post's question, and stays real: the ticker reads the index from the
//! cell and then reads the entry the index points to. What orders the
//! adder's writes to the entry before the ticker's reads? Only the
//! ordering of the cell's store and load (W5, in [`crate::ring`]).
//!
//! An entry holds the task's `due` instant in a word of its own, read by
//! the ticker *before* it locks the job (it wants to know how early or
//! late the task fires), and the job behind a lock. Free entries wait in a
//! lock-free list: a bounded crossbeam channel, filled with every index at
//! the start. The wheel makes the table as large as its ring
//! (slots × capacity) and takes an entry only for a cell it has claimed,
//! so a claimer always finds a free one.

use crossbeam_channel::{Receiver, Sender};

use crate::job::Job;
use crate::sync::{AtomicU64, Mutex};
use std::sync::atomic::Ordering::Relaxed;

/// One task's place in the table.
struct Entry {
    /// When the task is due, in nanoseconds since the wheel started.
    due: AtomicU64,
    /// The task; `None` while the entry is free.
    job: Mutex<Option<Job>>,
}

/// A fixed table of entries and the list of the free ones.
pub(crate) struct Table {
    entries: Box<[Entry]>,
    free_tx: Sender<usize>,
    free_rx: Receiver<usize>,
}

impl Table {
    /// A table of `len` free entries.
    pub(crate) fn new(len: usize) -> Table {
        let (free_tx, free_rx) = crossbeam_channel::bounded(len);
        for index in 0..len {
            free_tx.send(index).expect("room for every index");
        }
        let entries = (0..len)
            .map(|_| Entry {
                due: AtomicU64::new(0),
                job: Mutex::new(None),
            })
            .collect();
        Table {
            entries,
            free_tx,
            free_rx,
        }
    }

    /// Takes a free entry, if there is one.
    pub(crate) fn take_free(&self) -> Option<usize> {
        self.free_rx.try_recv().ok()
    }

    /// Fills entry `index` with a task due at `due`.
    // ANCHOR: fill
    pub(crate) fn fill(&self, index: usize, due: u64, job: Job) {
        let entry = &self.entries[index];
        // ORDERING: Relaxed: this store is published to the ticker by the
        // cell's store that follows it, when that store is Release. When it
        // is Relaxed too, the ticker may read the old `due` (W5).
        entry.due.store(due, Relaxed);
        *entry.job.lock() = Some(job);
    }
    // ANCHOR_END: fill

    /// Empties entry `index`, gives it back to the free list, and returns
    /// its `due` and its job. `due` is read first, before the job's lock:
    /// nothing but the cell's load orders that read after the adder's store.
    // ANCHOR: empty
    pub(crate) fn empty(&self, index: usize) -> (u64, Option<Job>) {
        let entry = &self.entries[index];
        // ORDERING: Relaxed: ordered after the adder's store only by the
        // Acquire load of the cell that held `index`. With a Relaxed load
        // this may read a stale `due`: 0, or the previous task's (W5).
        let due = entry.due.load(Relaxed);
        let job = entry.job.lock().take();
        self.free_tx
            .try_send(index)
            .expect("the free list has room for every index");
        (due, job)
    }
    // ANCHOR_END: empty
}
