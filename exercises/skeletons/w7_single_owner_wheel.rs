//! Exercise W7: turn the CAS hashed wheel timer post's wheel into a
//! single-owner wheel.
//!
//! The wheel here works like the post's: a ring of slots that every thread
//! shares, a cursor the ticker moves on one slot per tick, and a `schedule`
//! that puts a task straight into slot (cursor + delay / tick) mod slots.
//! (A lock per slot stands in for the post's atomic cells: the bugs here
//! are not in the cells.) Two of the post's bugs live in that formula:
//!
//! - W2 `cursor_race`: `schedule` reads the cursor, computes a slot, and
//!   only then files the task. If the ticker drains that slot in between,
//!   the task lands behind it and waits a whole revolution.
//! - W3 `wraparound_fires_early`: there are no rounds, so a delay of 2.5
//!   revolutions fires after half of one; and `delay / tick` is truncated,
//!   counted from a cursor whose tick is already under way, so a delay of
//!   1.9 ticks can fire after one.
//!
//! Your job: make it a single-owner wheel, as the stage's hashed wheel is.
//!
//! - Only the ticker touches the slots. `schedule` computes an absolute
//!   deadline, the tick the task is due at counted from the wheel's start
//!   and rounded *up*, and sends (deadline, task) through a crossbeam
//!   channel. At each tick the ticker files what has arrived, then expires
//!   the tick's slot.
//! - A task due more than a revolution ahead waits out its remaining
//!   rounds in its slot.
//! - `stop` still hands back every task not run: those in the slots, and
//!   those still in the channel.
//!
//! Keep the public API, and keep `kit::pause_point(WINDOW)` in `schedule`
//! between working out where the task goes and handing it over: the check
//! holds the adder there while the ticker moves on.
//!
//! Check: `cargo xtask exercise check w7`. Hints: `cargo xtask exercise hint w7`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use parking_lot::Mutex;
use wheel::{ConfigError, Job, Refused};

/// Where the check holds an adder: it has worked out where its task goes
/// and has not handed the task over yet.
pub const WINDOW: &str = "exercise w7: slot computed, task not yet filed";

/// What the ticker and the adders share.
// TODO(W7): every adder shares the slots, and that is what lets one file a
// task where the ticker has already been. In a single-owner wheel the slots
// are the ticker's alone (a local of `run_ticker`); the adders share only
// the start, the tick, and a way to reach the ticker.
struct Shared {
    /// The ring: slot `s` holds the tasks that run when the ticker leaves
    /// `s`.
    slots: Vec<Mutex<Vec<Job>>>,
    /// The slot the ticker drains next. Only the ticker writes it.
    cursor: AtomicUsize,
    /// Ticks done so far.
    ticks: AtomicU64,
    tick: Duration,
    /// Tick `k` is at `start + k * tick`.
    start: Instant,
}

/// A hashed timing wheel. Its tasks run on the ticker thread itself, so
/// keep them short. Dropping it stops and joins the ticker, and drops the
/// tasks not yet run; [`Wheel::stop`] returns them instead.
pub struct Wheel {
    shared: Arc<Shared>,
    /// Dropped to stop the ticker: its wait ends at once.
    stop: Option<Sender<()>>,
    ticker: Option<JoinHandle<()>>,
}

impl Wheel {
    /// Starts a wheel of `slots` slots of `tick` each, its ticker thread
    /// called `name`.
    ///
    /// # Errors
    /// [`ConfigError::ZeroTick`], [`ConfigError::ZeroSlots`], or
    /// [`ConfigError::Spawn`] if the thread cannot be started.
    pub fn start(tick: Duration, slots: usize, name: &str) -> Result<Wheel, ConfigError> {
        if tick.is_zero() {
            return Err(ConfigError::ZeroTick);
        }
        if slots == 0 {
            return Err(ConfigError::ZeroSlots);
        }
        let shared = Arc::new(Shared {
            slots: (0..slots).map(|_| Mutex::new(Vec::new())).collect(),
            cursor: AtomicUsize::new(0),
            ticks: AtomicU64::new(0),
            tick,
            start: Instant::now(),
        });
        let (stop, stopped) = crossbeam_channel::bounded(0);
        let ticker = {
            let shared = Arc::clone(&shared);
            thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || run_ticker(&shared, &stopped))
                .map_err(|e| ConfigError::Spawn(e.to_string()))?
        };
        Ok(Wheel {
            shared,
            stop: Some(stop),
            ticker: Some(ticker),
        })
    }

    /// Schedules `job` to run on the ticker `delay` from now: never before,
    /// and about a tick after at most.
    ///
    /// # Errors
    /// None here. Your version may refuse a delay too long to count, with
    /// [`Reason::BeyondRange`](wheel::Reason::BeyondRange) and the job
    /// back in the [`Refused`].
    pub fn schedule(&self, delay: Duration, job: Job) -> Result<(), Refused> {
        let shared = &*self.shared;
        let slots = shared.slots.len();
        let cursor = shared.cursor.load(SeqCst);
        // BUG (W3): whole ticks, truncated, counted from the cursor, and
        // taken around the ring with nothing to count the rounds.
        let ticks = delay.as_nanos() / shared.tick.as_nanos();
        let slot = (cursor + (ticks % slots as u128) as usize) % slots;
        // BUG (W2): if the ticker drains `slot` now, the task lands behind
        // it and waits a whole revolution.
        kit::pause_point(WINDOW);
        shared.slots[slot].lock().push(job);
        // TODO(W7): compute the tick the task is due at, from the wheel's
        // start and rounded up, and send it with the task to the ticker.
        Ok(())
    }

    /// How many ticks the ticker has done so far.
    pub fn ticks(&self) -> u64 {
        self.shared.ticks.load(SeqCst)
    }

    /// Stops the ticker, joins it, and returns every task not yet run.
    pub fn stop(mut self) -> Vec<Job> {
        self.join_ticker();
        // TODO(W7): once the slots are the ticker's, the ticker has what
        // is left in them when it stops; and tasks sent but not yet filed
        // are still in the channel.
        let slots = &self.shared.slots;
        slots
            .iter()
            .flat_map(|slot| std::mem::take(&mut *slot.lock()))
            .collect()
    }

    fn join_ticker(&mut self) {
        drop(self.stop.take());
        if let Some(ticker) = self.ticker.take() {
            // A ticker that panicked (a task of ours did) has nothing more
            // to tell us.
            let _ = ticker.join();
        }
    }
}

impl Drop for Wheel {
    fn drop(&mut self) {
        self.join_ticker();
    }
}

/// The ticker: at each tick's instant, move the cursor on and run the
/// tasks of the slot it leaves. Ticks are on a fixed grid, `start + k *
/// tick`, so a late wake-up is made up at once and the wheel never drifts.
fn run_ticker(shared: &Shared, stopped: &Receiver<()>) {
    let slots = shared.slots.len();
    let mut next = shared.start;
    loop {
        let Some(at) = next.checked_add(shared.tick) else {
            // A tick beyond what the clock can name never comes.
            let _ = stopped.recv();
            return;
        };
        next = at;
        // Never early: wait until the clock has reached the tick's instant.
        while Instant::now() < at {
            if stopped.recv_deadline(at) != Err(RecvTimeoutError::Timeout) {
                return; // the sender was dropped: stop
            }
        }
        // TODO(W7): first file the tasks that have arrived since the last
        // tick; then expire this tick's slot, where a task with rounds left
        // counts one down and stays.
        let current = shared.cursor.load(SeqCst);
        shared.cursor.store((current + 1) % slots, SeqCst);
        // Taken out, and the lock let go, before the tasks run.
        let due = std::mem::take(&mut *shared.slots[current].lock());
        for job in due {
            job();
        }
        shared.ticks.fetch_add(1, SeqCst);
    }
}
