//! The CAS hashed wheel timer post's wheel, in safe Rust, bugs included.
//!
//! Time is cut into ticks; a ring of `slots` slots holds the tasks, one
//! slot per tick. A ticker thread wakes once a tick, moves the cursor one
//! slot on, and hands the slot it leaves to the executor. `add` is O(1)
//! (W1): slot = (cursor + delay / tick) mod slots, and no lock.
//!
//! A slot is a `count` and a fixed array of `capacity` cells. An adder
//! claims a cell with `fetch_add` on the count, then stores its task
//! there; the ticker takes the cells the count says are claimed and then
//! sets the count back to 0 with a compare-and-set, retrying until the
//! count matches what it took. A cell holds the index of an entry in the
//! task table (`table.rs`) plus one (0 is empty): an atomic holds a
//! number, not a closure.
//!
//! The post's own doubts, and the ones it does not voice, all live here:
//!
//! - W2 `cursor_race`: `add` reads the cursor, computes a slot, and only
//!   then claims a cell in it. If the ticker passes that slot in between,
//!   the task waits a whole revolution (the post's TODO).
//! - W3 `wraparound_fires_early`: `delay / tick` is truncated, and taken
//!   modulo the ring: a delay of 1.9 ticks fires up to a tick early, and a
//!   delay longer than a revolution fires a revolution (or more) early.
//!   Nothing in this wheel counts rounds; the hashed wheel
//!   ([`crate::hashed`]) does.
//! - W4 `slot_overflow`: a full slot refuses the task. The post returns
//!   `false` (see [`crate::returns_false`]); here the task comes back in
//!   the `Err`.
//! - W5 `publication_race`: the post asks whether the ticker sees a task
//!   written into a plain array cell. Here the cell's store and load take
//!   their ordering from [`Publish`]; with `Relaxed`, the ticker can read
//!   the index and then a stale `due` from the entry (loom finds it:
//!   tests/loom_publication_relaxed.rs). `Release`/`Acquire` fixes it.
//! - W9 `ticker_waits_for_adder`: the drain loop cannot finish while a
//!   claimed cell is still empty, so an adder stopped between its
//!   `fetch_add` and its store makes the ticker spin, and every later slot
//!   wait: a lock in disguise.
//!
//! The tasks that come due go to an [`Executor`]: stage 6's pool, or the
//! ticker itself. A task the executor gives back is kept and returned by
//! [`LockFreeWheel::stop`], never lost.

use std::sync::Arc;
use std::sync::atomic::AtomicU64 as StatU64;
use std::sync::atomic::AtomicUsize as StdUsize;
use std::sync::atomic::Ordering::{self, Relaxed, SeqCst};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use crate::error::{ConfigError, Reason, Refused};
use crate::job::{Executor, Job};
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
        kit::pause_point("wheel::lockfree: index claimed, task not yet stored");
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

/// A lock-free wheel's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LockFreeConfig {
    /// How long one slot lasts.
    pub tick: Duration,
    /// How many slots in the ring: a revolution is `tick × slots`.
    pub slots: usize,
    /// How many tasks a slot holds (W4).
    pub capacity: usize,
    /// How a cell publishes its task (W5).
    pub publish: Publish,
}

impl LockFreeConfig {
    /// `slots` slots of `tick` each, `capacity` tasks a slot, published
    /// with Release/Acquire.
    pub fn new(tick: Duration, slots: usize, capacity: usize) -> LockFreeConfig {
        LockFreeConfig {
            tick,
            slots,
            capacity,
            publish: Publish::default(),
        }
    }

    /// The same configuration, publishing with `publish`.
    pub fn publish(self, publish: Publish) -> LockFreeConfig {
        LockFreeConfig { publish, ..self }
    }
}

/// What the ticker has seen so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Ticks done: slots the ticker has drained, to the end.
    pub ticks: u64,
    /// Tasks handed to the executor (by the ticker, or by `add` at once).
    pub fired: u64,
    /// Of those, tasks handed over before they were due (W3).
    pub fired_early: u64,
    /// The most any task was handed over before it was due.
    pub most_early: Duration,
    /// The most any task was handed over after it was due.
    pub most_late: Duration,
    /// Turns of the drain loop that took nothing (W9).
    pub spins: u64,
}

/// What the ticker and the adders share.
struct Shared {
    ring: Ring,
    /// The slot the ticker drains next. Only the ticker writes it.
    cursor: StdUsize,
    ticks: StatU64,
    tick: Duration,
    start: Instant,
    executor: Arc<dyn Executor>,
    /// Tasks the executor gave back.
    given_back: parking_lot::Mutex<Vec<Job>>,
    fired: StatU64,
    fired_early: StatU64,
    most_early_ns: StatU64,
    most_late_ns: StatU64,
}

impl Shared {
    /// Nanoseconds since the wheel started.
    fn now_ns(&self) -> u64 {
        nanos(self.start.elapsed())
    }

    /// Hands `job` to the executor, noting how early or late it is.
    fn fire(&self, due: u64, job: Job) {
        let now = self.now_ns();
        // ORDERING: Relaxed (all four): statistics, read after the fact.
        self.fired.fetch_add(1, Relaxed);
        if now < due {
            self.fired_early.fetch_add(1, Relaxed);
            self.most_early_ns.fetch_max(due - now, Relaxed);
        } else {
            self.most_late_ns.fetch_max(now - due, Relaxed);
        }
        if let Err(job) = self.executor.execute(job) {
            self.given_back.lock().push(job);
        }
    }
}

/// A duration in nanoseconds, saturating at `u64::MAX` (584 years).
fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// The CAS hashed wheel timer post's wheel: lock-free `add`, one ticker
/// thread, tasks handed to an [`Executor`]. Dropping it stops and joins
/// the ticker (and drops the tasks still in the ring: [`stop`] returns
/// them instead).
///
/// [`stop`]: LockFreeWheel::stop
pub struct LockFreeWheel {
    shared: Arc<Shared>,
    /// Dropped to stop the ticker.
    stop: Option<Sender<()>>,
    ticker: Option<JoinHandle<()>>,
}

impl LockFreeWheel {
    /// Starts a wheel whose ticker thread is called `name`.
    ///
    /// # Errors
    /// [`ConfigError::ZeroTick`], [`ConfigError::ZeroSlots`],
    /// [`ConfigError::ZeroCapacity`], [`ConfigError::TooLarge`], or
    /// [`ConfigError::Spawn`] if the thread cannot start.
    pub fn start(
        config: LockFreeConfig,
        executor: Arc<dyn Executor>,
        name: &str,
    ) -> Result<LockFreeWheel, ConfigError> {
        if config.tick.is_zero() {
            return Err(ConfigError::ZeroTick);
        }
        let ring = Ring::new(config.slots, config.capacity, config.publish)?;
        let shared = Arc::new(Shared {
            ring,
            cursor: StdUsize::new(0),
            ticks: StatU64::new(0),
            tick: config.tick,
            start: Instant::now(),
            executor,
            given_back: parking_lot::Mutex::new(Vec::new()),
            fired: StatU64::new(0),
            fired_early: StatU64::new(0),
            most_early_ns: StatU64::new(0),
            most_late_ns: StatU64::new(0),
        });
        let (stop, stopped) = crossbeam_channel::bounded(1);
        let ticker = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || run_ticker(&shared, &stopped))
                .map_err(|e| ConfigError::Spawn(e.to_string()))?
        };
        Ok(LockFreeWheel {
            shared,
            stop: Some(stop),
            ticker: Some(ticker),
        })
    }

    /// Schedules `job` to run after `delay`, in slot (cursor + delay /
    /// tick) mod slots; a job whose slot is the cursor's goes to the
    /// executor at once.
    ///
    /// # Errors
    /// [`Reason::SlotFull`] if the slot is full; the job comes back in the
    /// [`Refused`] (W4).
    // ANCHOR: add
    pub fn add(&self, delay: Duration, job: impl FnOnce() + Send + 'static) -> Result<(), Refused> {
        let shared = &*self.shared;
        let due = shared.now_ns().saturating_add(nanos(delay));
        let cursor = shared.cursor.load(SeqCst);
        let slots = shared.ring.slots();
        // Whole ticks, truncated (W3), around the ring (W3 again).
        let ticks = delay.as_nanos() / shared.tick.as_nanos();
        let slot = (cursor + (ticks % slots as u128) as usize) % slots;
        if slot == cursor {
            shared.fire(due, Box::new(job));
            return Ok(());
        }
        // If the ticker drains `slot` now, the task waits a revolution (W2).
        kit::pause_point("wheel::lockfree: slot computed, not yet claimed");
        shared.ring.insert(slot, due, Box::new(job))
    }
    // ANCHOR_END: add

    /// The slot the ticker drains next.
    pub fn cursor(&self) -> usize {
        self.shared.cursor.load(SeqCst)
    }

    /// How many tasks `slot` (modulo the ring) holds or has claimed.
    pub fn claimed(&self, slot: usize) -> usize {
        self.shared.ring.claimed(slot)
    }

    /// How long one slot lasts.
    pub fn tick(&self) -> Duration {
        self.shared.tick
    }

    /// How many slots in the ring.
    pub fn slots(&self) -> usize {
        self.shared.ring.slots()
    }

    /// What the ticker has seen so far.
    pub fn stats(&self) -> Stats {
        let s = &*self.shared;
        // ORDERING: Relaxed (all): statistics, each read on its own.
        Stats {
            ticks: s.ticks.load(Relaxed),
            fired: s.fired.load(Relaxed),
            fired_early: s.fired_early.load(Relaxed),
            most_early: Duration::from_nanos(s.most_early_ns.load(Relaxed)),
            most_late: Duration::from_nanos(s.most_late_ns.load(Relaxed)),
            spins: s.ring.spins(),
        }
    }

    /// Stops the ticker, joins it, and returns every task not handed to
    /// the executor: those still in the ring, and those the executor gave
    /// back.
    pub fn stop(mut self) -> Vec<Job> {
        self.join_ticker();
        let shared = &*self.shared;
        let mut left: Vec<Job> = std::mem::take(&mut *shared.given_back.lock());
        for slot in 0..shared.ring.slots() {
            left.extend(shared.ring.drain(slot).into_iter().map(|(_, job)| job));
        }
        left
    }

    fn join_ticker(&mut self) {
        drop(self.stop.take());
        if let Some(ticker) = self.ticker.take() {
            // A ticker that panicked (a job run on it by `OnTicker` that
            // panicked) has nothing more to tell us.
            let _ = ticker.join();
        }
    }
}

impl Drop for LockFreeWheel {
    fn drop(&mut self) {
        self.join_ticker();
    }
}

/// The ticker: wake at start + k × tick (deadlines, so it does not drift),
/// move the cursor on, drain the slot it leaves.
fn run_ticker(shared: &Shared, stopped: &Receiver<()>) {
    let slots = shared.ring.slots();
    let mut next = shared.start;
    loop {
        let Some(deadline) = next.checked_add(shared.tick) else {
            // A tick too long for the clock: no tick ever comes.
            let _ = stopped.recv();
            return;
        };
        next = deadline;
        if stopped.recv_deadline(next) != Err(RecvTimeoutError::Timeout) {
            return; // the sender was dropped: stop
        }
        kit::pause_point("wheel::lockfree: woke for a tick, cursor not yet advanced");
        // ANCHOR: tick
        let current = shared.cursor.load(SeqCst);
        shared.cursor.store((current + 1) % slots, SeqCst);
        for (due, job) in shared.ring.drain(current) {
            shared.fire(due, job);
        }
        // ANCHOR_END: tick
        // Counted once the slot is done: a test that sees the count knows
        // the drain is over.
        shared.ticks.fetch_add(1, SeqCst);
    }
}
