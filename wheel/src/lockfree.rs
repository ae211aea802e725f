//! The CAS hashed wheel timer post's wheel, in safe Rust, bugs included.
//!
//! Time is cut into ticks; a ring of `slots` slots holds the tasks, one
//! slot per tick. A ticker thread wakes once a tick, moves the cursor one
//! slot on, and hands the slot it leaves to the executor. `add` is O(1)
//! (W1): slot = (cursor + delay / tick) mod slots, and no lock.
//!
//! The slots themselves, each a count and an array of atomic cells, with
//! the post's claim, store and drain loop, are the ring (`ring.rs`); this
//! file is the wheel around it: the cursor, the slot formula, the ticker
//! thread and the executor.
//!
//! The post's own doubts, and the ones it does not voice:
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
//!   written into a plain array cell: [`LockFreeConfig::publish`] chooses
//!   the cell's ordering, and the ring says why Relaxed is wrong.
//! - W9 `ticker_waits_for_adder`: an adder stopped between claiming a
//!   cell and storing its task makes the ticker spin in the ring's drain
//!   loop, and every later slot wait: a lock in disguise.
//!
//! The tasks that come due go to an [`Executor`]: stage 6's pool, or the
//! ticker itself. A task the executor gives back is kept and returned by
//! [`LockFreeWheel::stop`], never lost.

use std::sync::Arc;
use std::sync::atomic::AtomicU64 as StatU64;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::{Relaxed, SeqCst};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use crate::error::{ConfigError, Refused};
use crate::job::{Executor, Job};
use crate::ring::Ring;
pub use crate::ring::{MAX_CELLS, Publish};

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
    cursor: AtomicUsize,
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
            cursor: AtomicUsize::new(0),
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
        // Nothing is ever sent: dropping the sender is the stop. A channel
        // of capacity zero, because its receive blocks at once; one with a
        // buffer spins and yields first, and a ticker that a loaded machine
        // has put behind never blocks at all.
        let (stop, stopped) = crossbeam_channel::bounded(0);
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
    /// [`Reason::SlotFull`](crate::Reason::SlotFull) if the slot is full;
    /// the job comes back in the [`Refused`] (W4).
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
