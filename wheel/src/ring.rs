//! The lock-free wheel's ring: the heart of the CAS hashed wheel timer
//! post, without the cursor, the clock or the thread. [`crate::lockfree`]
//! wraps it in a wheel; the loom models (tests/loom_publication*.rs) drive
//! it directly, one adder thread against one drain.
//!
//! A slot is a `count` and a fixed array of `capacity` cells. An adder
//! claims a cell with `fetch_add` on the count ([`Ring::insert`]), fills a
//! task-table entry (`table.rs`), then stores the entry's index, plus one,
//! in the cell (0 is empty: an atomic holds a number, not a closure). The
//! ticker ([`Ring::drain`]) takes the cells the count says are claimed and
//! then sets the count back to 0 with a compare-and-set, retrying until
//! the count matches what it took.
//!
//! Two of the post's bugs live here:
//!
//! - W5 `publication_race`: the post asks whether the ticker sees a task
//!   written into a plain array cell. Here the cell's store and load take
//!   their ordering from [`Publish`]. With `Relaxed`, the ticker can read
//!   the index and then the entry as it was before the adder wrote it: a
//!   stale `due` (loom finds it: tests/w5_publication_race.rs).
//!   `Release`/`Acquire` fixes it.
//! - W9 `ticker_waits_for_adder`: the drain loop cannot finish while a
//!   claimed cell is still empty, so an adder stopped between its
//!   `fetch_add` and its store makes the ticker spin, and every later slot
//!   wait: a lock in disguise.
//!
//! And W4's refusal: a full slot gives the claim back, and the task to the
//! caller inside the `Err`.

use std::sync::atomic::AtomicU64 as StatU64;
use std::sync::atomic::Ordering::{self, Relaxed, SeqCst};

use crate::error::{ConfigError, Reason, Refused};
use crate::job::Job;
use crate::sync::{self, AtomicUsize};
use crate::table::Table;

/// The most cells (slots × capacity) a ring may hold: a larger wheel is a
/// [`ConfigError::TooLarge`], not an allocation that aborts the process.
pub const MAX_CELLS: usize = 1 << 22;

/// How a cell publishes its task: the ordering of the adder's store into
/// the cell and of the ticker's load from it (W5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Publish {
    /// A Relaxed store and load: the post's plain array cell. The ticker
    /// can see the index and still read the entry as it was before the
    /// adder wrote it (W5).
    Relaxed,
    /// A Release store and an Acquire load: a ticker that reads the index
    /// sees everything the adder wrote before storing it. The default.
    #[default]
    ReleaseAcquire,
}

impl Publish {
    fn store(self) -> Ordering {
        match self {
            // ORDERING: Relaxed on purpose: the buggy variant (W5).
            Publish::Relaxed => Relaxed,
            // ORDERING: Release: the entry's `due` and job, written
            // before, are visible to whoever loads this index with Acquire.
            Publish::ReleaseAcquire => Ordering::Release,
        }
    }

    fn load(self) -> Ordering {
        match self {
            // ORDERING: Relaxed on purpose: the buggy variant (W5).
            Publish::Relaxed => Relaxed,
            // ORDERING: Acquire: pairs with the adder's Release store.
            Publish::ReleaseAcquire => Ordering::Acquire,
        }
    }
}

/// One slot: how many cells are claimed, and the cells.
struct Slot {
    count: AtomicUsize,
    /// A task table index plus one; 0 is an empty cell.
    cells: Box<[AtomicUsize]>,
}

/// The wheel's core, without the cursor, the clock or the thread: the
/// slots, the task table, `insert` (the post's claim and store) and
/// `drain` (its loop). The loom models drive it directly.
pub struct Ring {
    slots: Box<[Slot]>,
    capacity: usize,
    table: Table,
    publish: Publish,
    /// Turns of the drain loop that took nothing new (W9).
    spins: StatU64,
}

impl Ring {
    /// A ring of `slots` empty slots of `capacity` cells each, publishing
    /// with `publish`.
    ///
    /// # Errors
    /// [`ConfigError::ZeroSlots`], [`ConfigError::ZeroCapacity`], or
    /// [`ConfigError::TooLarge`] beyond [`MAX_CELLS`] cells.
    pub fn new(slots: usize, capacity: usize, publish: Publish) -> Result<Ring, ConfigError> {
        if slots == 0 {
            return Err(ConfigError::ZeroSlots);
        }
        if capacity == 0 {
            return Err(ConfigError::ZeroCapacity);
        }
        let cells = slots.saturating_mul(capacity);
        if cells > MAX_CELLS {
            return Err(ConfigError::TooLarge {
                slots,
                capacity,
                max: MAX_CELLS,
            });
        }
        let slots = (0..slots)
            .map(|_| Slot {
                count: AtomicUsize::new(0),
                cells: (0..capacity).map(|_| AtomicUsize::new(0)).collect(),
            })
            .collect();
        Ok(Ring {
            slots,
            capacity,
            // As many entries as cells: an entry is taken only for a
            // claimed cell and given back before the count is reset.
            table: Table::new(cells),
            publish,
            spins: StatU64::new(0),
        })
    }

    /// How many slots.
    pub fn slots(&self) -> usize {
        self.slots.len()
    }

    /// How many tasks a slot holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// How the cells publish their tasks.
    pub fn publish(&self) -> Publish {
        self.publish
    }

    /// How many cells of `slot` (modulo the ring) are claimed right now.
    pub fn claimed(&self, slot: usize) -> usize {
        let slot = &self.slots[slot % self.slots.len()];
        slot.count.load(SeqCst).min(self.capacity)
    }

    /// Turns of the drain loop that took nothing new: the ticker waiting
    /// for an adder that claimed a cell and has not stored into it (W9).
    pub fn spins(&self) -> u64 {
        // ORDERING: Relaxed: a statistic, read by tests after the fact.
        self.spins.load(Relaxed)
    }

    /// Puts `job`, due at `due` (nanoseconds on the wheel's clock), into
    /// `slot` (modulo the ring): claim a cell, fill a table entry, publish
    /// its index in the cell.
    ///
    /// # Errors
    /// [`Reason::SlotFull`] if the slot's cells are all claimed; the job
    /// comes back inside the [`Refused`] (W4).
    // ANCHOR: insert
    pub fn insert(&self, slot: usize, due: u64, job: Job) -> Result<(), Refused> {
        let slot_index = slot % self.slots.len();
        let slot = &self.slots[slot_index];
        let claimed = slot.count.fetch_add(1, SeqCst);
        if claimed >= self.capacity {
            // Full: give the claim back, and the task to the caller (W4).
            slot.count.fetch_sub(1, SeqCst);
            let reason = Reason::SlotFull {
                slot: slot_index,
                capacity: self.capacity,
            };
            return Err(Refused::new(reason, job));
        }
        // The ticker counts this cell as claimed from here on, and will
        // spin until it holds a task (W9).
        kit::pause_point("wheel::ring: index claimed, task not yet stored");
        // The entry is filled after the claim, as the post stores its task
        // after its getAndIncrement: a full slot leaves nothing to undo,
        // and the count's SeqCst, which comes before these writes, cannot
        // publish them. Only the cell's own store can (W5).
        let index = self
            .table
            .take_free()
            .expect("a claimed cell always finds a free entry: the table has one per cell");
        self.table.fill(index, due, job);
        // ANCHOR: publish
        slot.cells[claimed].store(index + 1, self.publish.store());
        // ANCHOR_END: publish
        Ok(())
    }
    // ANCHOR_END: insert

    /// Empties `slot` (modulo the ring) with the post's loop and returns
    /// each task with the `due` the ticker read for it.
    ///
    /// The loop ends only when the count equals the number of tasks taken:
    /// a cell that is claimed but still empty keeps it turning (W9).
    // ANCHOR: drain
    pub fn drain(&self, slot: usize) -> Vec<(u64, Job)> {
        let slot = &self.slots[slot % self.slots.len()];
        let mut taken: Vec<(u64, Option<Job>)> = Vec::new();
        while slot
            .count
            .compare_exchange(taken.len(), 0, SeqCst, SeqCst)
            .is_err()
        {
            let before = taken.len();
            let claimed = slot.count.load(SeqCst).min(self.capacity);
            for cell in &slot.cells[before..claimed.max(before)] {
                // ANCHOR: load
                let index = cell.load(self.publish.load());
                // ANCHOR_END: load
                if index == 0 {
                    break; // claimed, not stored yet: go round again (W9)
                }
                // ORDERING: Relaxed: the compare-and-set of the count that
                // ends this loop (SeqCst) comes after this store, and an
                // adder claims this cell again only after reading that
                // count; so the clearing comes before its store.
                cell.store(0, Relaxed);
                // The entry goes back to the free list here, before the
                // count is reset: a new claimer always finds one free.
                taken.push(self.table.empty(index - 1));
            }
            if taken.len() == before {
                // ORDERING: Relaxed: a statistic.
                self.spins.fetch_add(1, Relaxed);
                sync::spin_loop();
            }
        }
        // ANCHOR_END: drain
        // An entry with no job cannot come from a published cell under
        // Release/Acquire; under Relaxed publication the memory model
        // would allow it (W5 again), and the ticker skips it, not panics.
        taken
            .into_iter()
            .filter_map(|(due, job)| job.map(|job| (due, job)))
            .collect()
    }
}
