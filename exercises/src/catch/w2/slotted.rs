//! A wheel of slots whose `schedule` files the task itself, as the CAS
//! hashed wheel timer post's does (`wheel/src/lockfree.rs`), here with a
//! lock and a `Vec` per slot instead of the post's atomic cells. Four of
//! W2's versions are this one file, set three ways by its parameters:
//!
//! - `RECHECK`: whether `schedule`, once it holds the lock to file its
//!   task, files it by where the ticker is *now* (and runs it at once, on
//!   its own thread, if its deadline has passed), or by where the ticker
//!   was when `schedule` read the cursor. Without the re-check, a ticker
//!   that passed the task's tick in between leaves the task in a slot it
//!   has just drained, to wait a whole revolution: W2 `cursor_race`.
//! - `ROUNDS`: whether a task keeps its rounds (how many times the ticker
//!   passes its slot before it fires) and its deadline. Without them a
//!   task due more than a revolution out fires the first time the ticker
//!   passes its slot: a revolution (or more) early, W3
//!   `wraparound_fires_early`.
//! - `CAPACITY`: how many tasks a slot holds, `0` for no limit. A full
//!   slot refuses the task (it comes back in the [`Refused`]): W4
//!   `slot_overflow`.
//!
//! The correct one is `Slotted<true, true, 0>`. Each of the others has one
//! of the three bugs and only that one, so that a test that catches one of
//! them catches that bug and no other (the post's wheel has all three).
//!
//! Time is cut into ticks: tick `k` ends at `start + k * tick`, and then
//! the ticker drains slot `k % SLOTS`; a ticker held up catches up. As in
//! the post, a task's tick is counted from the cursor: `delay` rounded up
//! to whole ticks, after the tick in progress. A ticker that is behind, or
//! catching up, can reach that tick before the task's deadline: a wheel
//! that keeps deadlines files such a task again, by its deadline, so it
//! never fires early, and at most a tick late (plus however long the
//! ticker or a call is held up). The lock is held only to read the cursor,
//! to file a task, and to drain a slot: never across the window, and never
//! while a task runs.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use parking_lot::Mutex;
use wheel::{ConfigError, Job, Reason, Refused};

/// The pause point in `schedule`: the cursor read and the task's tick
/// worked out from it; the task not yet filed.
pub(super) const WINDOW: &str = "exercises::w2::slotted: read the cursor, not yet filed";

/// A wheel of `slots` slots of `tick` each, one ticker thread that runs
/// the tasks that come due. Dropping it stops the ticker and joins it;
/// the tasks not yet run are dropped.
pub(super) struct Slotted<const RECHECK: bool, const ROUNDS: bool, const CAPACITY: usize> {
    shared: Arc<Shared>,
    /// Dropped to stop the ticker: its wait ends at once.
    stop: Option<Sender<()>>,
    ticker: Option<JoinHandle<()>>,
}

/// What the ticker and the callers of `schedule` share.
struct Shared {
    tick: Duration,
    /// Tick `k` ends at `start + k * tick`.
    start: Instant,
    /// Whether tasks keep their rounds and deadlines (the `ROUNDS`
    /// parameter, for the ticker).
    rounds: bool,
    ring: Mutex<Ring>,
    /// The ticks drained so far: `Ring::done`, readable without the lock.
    ticks: AtomicU64,
}

/// The slots and the cursor, under one lock.
struct Ring {
    /// The last tick drained (the cursor): the tick in progress drains
    /// slot `(done + 1) % SLOTS` when it ends.
    done: u64,
    slots: Vec<Vec<Filed>>,
}

/// A task in its slot.
struct Filed {
    /// How many more times the ticker passes the slot before it fires
    /// (always 0 in a wheel that keeps no rounds).
    rounds: u64,
    /// When it is due (not looked at in a wheel that keeps no rounds).
    deadline: Instant,
    job: Job,
}

impl Ring {
    /// Files `job`, due at `deadline`, `ahead` ticks after the cursor
    /// `from`, with its rounds if the wheel keeps them.
    fn file(&mut self, from: u64, ahead: u64, rounds: bool, deadline: Instant, job: Job) {
        let slots = self.slots.len() as u64;
        let due = from + ahead;
        let rounds = if rounds {
            // The ticker's visits to the slot before the one at `due`.
            (ahead - 1) / slots
        } else {
            0 // (W3) fires at the first visit, however far out it is due
        };
        self.slots[(due % slots) as usize].push(Filed {
            rounds,
            deadline,
            job,
        });
    }
}

/// The most ticks ahead a task may be due: far beyond any test, and far
/// from overflowing a tick count.
const MAX_AHEAD: u64 = 1 << 40;

/// Whole ticks from `now` to `deadline`, rounded up; at least one.
fn ticks_until(now: Instant, deadline: Instant, tick: Duration) -> u64 {
    let nanos = deadline.saturating_duration_since(now).as_nanos();
    u64::try_from(nanos.div_ceil(tick.as_nanos()))
        .unwrap_or(MAX_AHEAD)
        .clamp(1, MAX_AHEAD)
}

impl<const RECHECK: bool, const ROUNDS: bool, const CAPACITY: usize>
    Slotted<RECHECK, ROUNDS, CAPACITY>
{
    /// Starts a wheel of `slots` slots of `tick`, its ticker named `name`.
    pub(super) fn start(
        tick: Duration,
        slots: usize,
        name: &str,
    ) -> Result<Slotted<RECHECK, ROUNDS, CAPACITY>, ConfigError> {
        if tick.is_zero() {
            return Err(ConfigError::ZeroTick);
        }
        if slots == 0 {
            return Err(ConfigError::ZeroSlots);
        }
        let shared = Arc::new(Shared {
            tick,
            start: Instant::now(),
            rounds: ROUNDS,
            ring: Mutex::new(Ring {
                done: 0,
                slots: (0..slots).map(|_| Vec::new()).collect(),
            }),
            ticks: AtomicU64::new(0),
        });
        // Nothing is ever sent: dropping the sender is the stop.
        let (stop, stopped) = crossbeam_channel::bounded(0);
        let ticker = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || run_ticker(&shared, &stopped))
                .map_err(|e| ConfigError::Spawn(e.to_string()))?
        };
        Ok(Slotted {
            shared,
            stop: Some(stop),
            ticker: Some(ticker),
        })
    }

    /// Runs `job` once `delay` has passed.
    pub(super) fn schedule(&self, delay: Duration, job: Job) -> Result<(), Refused> {
        let shared = &*self.shared;
        let now = Instant::now();
        let ahead = u64::try_from(delay.as_nanos().div_ceil(shared.tick.as_nanos()))
            .ok()
            .filter(|&ahead| ahead < MAX_AHEAD);
        let (Some(ahead), Some(deadline)) = (ahead, now.checked_add(delay)) else {
            let max = duration_of(shared.tick.as_nanos() * u128::from(MAX_AHEAD - 1))
                .unwrap_or(Duration::MAX);
            return Err(Refused::new(Reason::BeyondRange { delay, max }, job));
        };
        if ahead == 0 {
            run(job);
            return Ok(());
        }
        let cursor = shared.ring.lock().done;
        // The task is due `ahead` ticks after the tick in progress: at the
        // end of tick `cursor + 1 + ahead`.
        let ahead = ahead + 1;
        // If the ticker drains that tick now, the version that files by the
        // cursor it read puts the task where the ticker has just been (W2).
        kit::pause_point(WINDOW);
        let mut ring = shared.ring.lock();
        let slots = ring.slots.len() as u64;
        let slot = ((cursor + ahead) % slots) as usize;
        if CAPACITY > 0 && ring.slots[slot].len() >= CAPACITY {
            // (W4) a full slot refuses.
            let reason = Reason::SlotFull {
                slot,
                capacity: CAPACITY,
            };
            return Err(Refused::new(reason, job));
        }
        if RECHECK && ring.done != cursor {
            // The ticker moved while we were away: file by where it is now.
            let done = ring.done;
            if cursor + ahead <= done {
                if deadline <= Instant::now() {
                    // Late already: it runs now, here, rather than at the
                    // next tick.
                    drop(ring);
                    run(job);
                    return Ok(());
                }
                // Its tick has passed (the ticker caught up) but not its
                // deadline: the next tick, which files it by the deadline.
                ring.file(done, 1, ROUNDS, deadline, job);
            } else {
                ring.file(done, cursor + ahead - done, ROUNDS, deadline, job);
            }
        } else {
            ring.file(cursor, ahead, ROUNDS, deadline, job);
        }
        Ok(())
    }

    /// The ticks drained so far.
    pub(super) fn ticks(&self) -> u64 {
        self.shared.ticks.load(Ordering::SeqCst)
    }
}

impl<const RECHECK: bool, const ROUNDS: bool, const CAPACITY: usize> Drop
    for Slotted<RECHECK, ROUNDS, CAPACITY>
{
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(ticker) = self.ticker.take() {
            // Tasks' panics are caught: the ticker has nothing to pass on.
            let _ = ticker.join();
        }
    }
}

/// `nanos` as a `Duration`, if it fits in one.
fn duration_of(nanos: u128) -> Option<Duration> {
    let secs = u64::try_from(nanos / 1_000_000_000).ok()?;
    Some(Duration::new(secs, (nanos % 1_000_000_000) as u32))
}

/// Runs a task; its panic (printed by the panic hook) goes no further.
fn run(job: Job) {
    let _ = catch_unwind(AssertUnwindSafe(job));
}

/// The ticker: at each tick's end, move the cursor on, take the slot's
/// due tasks out (count down the others' rounds, and file again those
/// that came up before their deadline), let go of the lock, and run them.
fn run_ticker(shared: &Shared, stopped: &Receiver<()>) {
    let mut k: u64 = 0;
    loop {
        k += 1;
        let since = duration_of(shared.tick.as_nanos().saturating_mul(u128::from(k)));
        let Some(at) = since.and_then(|since| shared.start.checked_add(since)) else {
            // A tick beyond what the clock can name never comes.
            let _ = stopped.recv();
            return;
        };
        if stopped.recv_deadline(at) != Err(RecvTimeoutError::Timeout) {
            return; // the sender was dropped: stop
        }
        let due: Vec<Job> = {
            let mut ring = shared.ring.lock();
            ring.done = k;
            // Under the lock, with the cursor: once a test sees the count,
            // a task filed by an older cursor may be filed too late.
            shared.ticks.store(k, Ordering::SeqCst);
            let slots = ring.slots.len() as u64;
            let taken = std::mem::take(&mut ring.slots[(k % slots) as usize]);
            let now = Instant::now();
            let mut due = Vec::new();
            for filed in taken {
                if filed.rounds > 0 {
                    ring.slots[(k % slots) as usize].push(Filed {
                        rounds: filed.rounds - 1,
                        ..filed
                    });
                } else if shared.rounds && filed.deadline > now {
                    // Came up early (the ticker catching up): file it again.
                    let ahead = ticks_until(now, filed.deadline, shared.tick);
                    ring.file(k, ahead, true, filed.deadline, filed.job);
                } else {
                    due.push(filed.job);
                }
            }
            due
        };
        for job in due {
            run(job);
        }
    }
}
