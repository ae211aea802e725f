//! The running hashed wheel: a ticker thread that owns a
//! [`HashedCore`], and an MPSC queue (crossbeam-channel) that brings it new
//! timers. This is Netty's HashedWheelTimer's design, and the fix for the
//! CAS hashed wheel timer post's races:
//!
//! - **Only the ticker touches the buckets.** An adder computes an
//!   *absolute* deadline (a tick number counted from the wheel's start)
//!   and sends it; the ticker files it when it drains the queue at its next
//!   tick. No adder reads the cursor, so no cursor can move under one (the
//!   post's W2); an adder held up between computing and sending costs
//!   nothing, because the deadline does not move: the ticker files it by
//!   deadline, and one that has already passed fires at the next tick. No
//!   slot has a capacity to overflow (W4), no task is published into a
//!   shared array (W5), and the ticker never waits for an adder (W9).
//! - **Remaining rounds** for delays longer than a revolution (W3), and
//!   deadlines rounded *up* to whole ticks: a task fires at most one tick
//!   late and never early (W6). See [`hashed_core`](crate::hashed_core).
//! - **O(1) cancel.** The [`Handle`] flips a shared state from pending to
//!   cancelled (so the task can never run) and sends the entry on a second
//!   queue; at its next tick the ticker takes it out of its bucket by key.
//! - **Ticks on a fixed grid.** Tick `k` is at `start + k * tick`, not
//!   "a tick after the last one": a late wake-up is made up at the next
//!   tick, and the wheel never drifts.
//!
//! The price: the ticker wakes every tick whether or not anything is due
//! (a wheel with one timer ten seconds away wakes a thousand times on a
//! 10 ms tick; [`HashedWheel::ticks`] counts them), and a bucket's entries
//! with rounds left are visited once a revolution. The hierarchical wheel
//! is the answer to both.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, SendError, Sender};
use parking_lot::RwLock;

use crate::error::{ConfigError, Reason, Refused};
use crate::hashed_core::{HashedCore, Key, ticks_for};
use crate::job::{Executor, Job};

/// How a [`HashedWheel`] is cut up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashedConfig {
    /// The length of a tick: how often the ticker wakes, and how late a
    /// task may fire (at most one tick). Must be longer than zero.
    pub tick: Duration,
    /// How many buckets make one revolution. Longer delays wait out whole
    /// revolutions in their bucket. Must be at least one.
    pub slots: usize,
}

impl Default for HashedConfig {
    /// A 10 ms tick and 512 slots: one revolution is 5.12 s. 512 is
    /// Netty's default number of slots; its default tick is 100 ms, but a
    /// timer for this book's examples wants finer grain than that, and ten
    /// wake-ups a second more cost little.
    fn default() -> HashedConfig {
        HashedConfig {
            tick: Duration::from_millis(10),
            slots: 512,
        }
    }
}

/// The most new timers the ticker files in one tick, as Netty's: an adder
/// that schedules in a tight loop cannot keep the ticker filing forever
/// while the due tasks wait. The rest wait in the queue for the next tick
/// (and so, under such a flood, may fire more than a tick late).
pub const MAX_FILED_PER_TICK: usize = 100_000;

/// The pause point in [`Scheduler::schedule`]: the deadline is computed,
/// the timer not yet sent to the ticker.
pub const SEND_WINDOW: &str = "wheel::hashed: deadline computed, not yet sent";

// A timer's life. Pending until exactly one of: its handle cancels it, the
// ticker fires it, or a stopping wheel hands it back. Each move is a CAS
// from PENDING, so the three can never both happen to one timer.
const PENDING: u8 = 0;
const CANCELLED: u8 = 1;
const FIRED: u8 = 2;
const RETURNED: u8 = 3;

/// What a timer's [`Handle`] shares with the ticker.
struct TimerState {
    state: AtomicU8,
    /// Where the ticker filed the timer: set once, by the ticker, and read
    /// only by the ticker when the cancel arrives.
    key: OnceLock<Key>,
}

impl TimerState {
    /// Moves the timer from pending to `to`; false if it had already left.
    fn claim(&self, to: u8) -> bool {
        self.state
            .compare_exchange(PENDING, to, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    }
}

/// A timer on its way to the ticker: its due tick, computed by the adder.
struct NewTimer {
    due: u64,
    job: Job,
    state: Arc<TimerState>,
}

/// A timer filed in the ticker's core.
struct Filed {
    job: Job,
    state: Arc<TimerState>,
}

/// What the wheel's handles and the ticker share.
struct Shared {
    /// Tick `k` is at `start + k * tick`; a deadline is nanoseconds since
    /// `start`.
    start: Instant,
    tick: Duration,
    /// Set once by stop. Adders hold the read lock from their look at it
    /// to their send, so once stop has held the write lock no new timer can
    /// reach the queue: the ticker's last drain finds them all. Only stop
    /// ever takes the write lock; adders never wait for each other.
    stopped: RwLock<bool>,
    ticks: AtomicU64,
}

/// A running hashed wheel. See the module docs.
///
/// Dropping it stops it, joins its ticker and drops the tasks not yet run;
/// [`HashedWheel::stop`] hands them back instead.
pub struct HashedWheel {
    scheduler: Scheduler,
    /// Dropped to stop the ticker: its wait ends at once.
    stop: Option<Sender<()>>,
    ticker: Option<JoinHandle<Vec<Job>>>,
}

/// Schedules on a [`HashedWheel`] from anywhere: cheap to clone, `Send`
/// and `Sync`, and it outlives the wheel (a task can hold one to schedule
/// its successor). Once the wheel has stopped, it refuses with
/// [`Reason::Stopped`] and gives the task back.
#[derive(Clone)]
pub struct Scheduler {
    shared: Arc<Shared>,
    timers: Sender<NewTimer>,
    cancels: Sender<Arc<TimerState>>,
}

/// A scheduled task's handle: cancel it, or ask whether it was cancelled.
#[derive(Clone)]
pub struct Handle {
    state: Arc<TimerState>,
    cancels: Sender<Arc<TimerState>>,
}

impl HashedWheel {
    /// Starts a wheel whose ticker thread is called `name` and hands every
    /// task that comes due to `executor`.
    ///
    /// # Errors
    /// [`ConfigError::ZeroTick`], [`ConfigError::ZeroSlots`], or
    /// [`ConfigError::Spawn`] if the thread cannot be started (a name with
    /// a NUL byte in it, say).
    pub fn start(
        config: HashedConfig,
        executor: Arc<dyn Executor>,
        name: &str,
    ) -> Result<HashedWheel, ConfigError> {
        if config.tick.is_zero() {
            return Err(ConfigError::ZeroTick);
        }
        let core = HashedCore::new(config.slots)?;
        if name.contains('\0') {
            return Err(ConfigError::Spawn(format!(
                "the thread name {name:?} contains a NUL byte"
            )));
        }
        let shared = Arc::new(Shared {
            start: Instant::now(),
            tick: config.tick,
            stopped: RwLock::new(false),
            ticks: AtomicU64::new(0),
        });
        let (timers_tx, timers) = crossbeam_channel::unbounded();
        let (cancels_tx, cancels) = crossbeam_channel::unbounded();
        let (stop_tx, stop) = crossbeam_channel::bounded(0);
        let ticker = Ticker {
            shared: Arc::clone(&shared),
            core,
            timers,
            cancels,
            stop,
            executor,
            fired: Vec::new(),
            given_back: Vec::new(),
        };
        let ticker = thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || ticker.run())
            .map_err(|e| ConfigError::Spawn(e.to_string()))?;
        Ok(HashedWheel {
            scheduler: Scheduler {
                shared,
                timers: timers_tx,
                cancels: cancels_tx,
            },
            stop: Some(stop_tx),
            ticker: Some(ticker),
        })
    }

    /// Schedules `job` to run `delay` from now: not before, and at most one
    /// tick after (plus the time the ticker takes to wake). See
    /// [`Scheduler::schedule`].
    ///
    /// # Errors
    /// [`Reason::BeyondRange`] for a delay whose tick count overflows a
    /// `u64`; [`Reason::Stopped`] if the wheel has stopped. The task comes
    /// back in the [`Refused`].
    pub fn schedule(&self, delay: Duration, job: Job) -> Result<Handle, Refused> {
        self.scheduler.schedule(delay, job)
    }

    /// A handle that schedules on this wheel from other threads, or from a
    /// task, and refuses once the wheel has stopped.
    pub fn scheduler(&self) -> Scheduler {
        self.scheduler.clone()
    }

    /// How many ticks the ticker has processed: one wake-up each, whether
    /// or not anything was due. The idle cost of a ticking wheel. See
    /// [`Scheduler::ticks`].
    pub fn ticks(&self) -> u64 {
        self.scheduler.ticks()
    }

    /// The length of one tick.
    pub fn tick(&self) -> Duration {
        self.scheduler.shared.tick
    }

    /// The instant the wheel started: tick `k` is at `started_at() + k *
    /// tick()`, and a deadline is counted from here.
    pub fn started_at(&self) -> Instant {
        self.scheduler.shared.start
    }

    /// Stops the ticker, joins it, and hands back every task not yet run
    /// and not cancelled: those still in their buckets, those still in the
    /// queue, and any the executor gave back. Their handles' `cancel` then
    /// returns false.
    ///
    /// # Panics
    /// Only if the ticker thread itself panicked (a bug in this file: a
    /// task's panic is caught); the panic is passed on.
    pub fn stop(mut self) -> Vec<Job> {
        match self.shut_down() {
            Ok(jobs) => jobs,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }

    fn shut_down(&mut self) -> thread::Result<Vec<Job>> {
        // After this, no adder can send: the ticker's last drain below
        // finds every timer ever accepted.
        *self.scheduler.shared.stopped.write() = true;
        // Disconnect: the ticker's wait for its next tick ends now.
        self.stop.take();
        match self.ticker.take() {
            Some(ticker) => ticker.join(),
            None => Ok(Vec::new()),
        }
    }
}

impl Drop for HashedWheel {
    fn drop(&mut self) {
        // The tasks not yet run are dropped here; `stop` returns them. A
        // panicked ticker is not passed on from a drop.
        let _ = self.shut_down();
    }
}

impl Scheduler {
    /// Schedules `job` to run `delay` from now. The adder's whole part:
    /// compute the due tick from the wheel's start, and send. The ticker
    /// files it at its next tick.
    ///
    /// # Errors
    /// [`Reason::BeyondRange`] for a delay whose deadline overflows a
    /// `Duration` or whose tick count overflows a `u64` (`Duration::MAX`
    /// always does); [`Reason::Stopped`] once the wheel has stopped. The
    /// task comes back in the [`Refused`].
    // ANCHOR: schedule
    pub fn schedule(&self, delay: Duration, job: Job) -> Result<Handle, Refused> {
        let shared = &*self.shared;
        // Absolute: nanoseconds since the wheel started, rounded up to a
        // tick. It does not depend on where the cursor is.
        let due = shared
            .start
            .elapsed()
            .checked_add(delay)
            .and_then(|deadline| ticks_for(deadline, shared.tick));
        let Some(due) = due else {
            let max = self.max_delay();
            return Err(Refused::new(Reason::BeyondRange { delay, max }, job));
        };
        // An adder held here loses nothing: its deadline is fixed, and one
        // already passed when it is filed fires at the next tick.
        kit::pause_point(SEND_WINDOW);
        let state = Arc::new(TimerState {
            state: AtomicU8::new(PENDING),
            key: OnceLock::new(),
        });
        // ANCHOR: send
        let stopped = shared.stopped.read();
        if *stopped {
            return Err(Refused::new(Reason::Stopped, job));
        }
        let timer = NewTimer {
            due,
            job,
            state: Arc::clone(&state),
        };
        if let Err(SendError(timer)) = self.timers.send(timer) {
            // The ticker is gone (it can only have panicked): not taken.
            return Err(Refused::new(Reason::Stopped, timer.job));
        }
        drop(stopped);
        // ANCHOR_END: send
        Ok(Handle {
            state,
            cancels: self.cancels.clone(),
        })
    }
    // ANCHOR_END: schedule

    /// How many ticks the ticker has processed, which is also the number of
    /// the last tick it processed (the first is tick 1, at one tick after
    /// the start). A task run on the ticker ([`OnTicker`](crate::OnTicker))
    /// that reads this learns the tick that fired it.
    pub fn ticks(&self) -> u64 {
        // ORDERING: a statistic; the ticker's own reads see its own writes.
        self.shared.ticks.load(Ordering::Relaxed)
    }

    /// The longest delay the wheel takes now: `u64::MAX` ticks from its
    /// start, less the time since (or `Duration::MAX`, if that is longer).
    fn max_delay(&self) -> Duration {
        let shared = &*self.shared;
        shared
            .tick
            .as_nanos()
            .checked_mul(u128::from(u64::MAX))
            .and_then(duration_from_nanos)
            .map_or(Duration::MAX, |max| {
                max.saturating_sub(shared.start.elapsed())
            })
    }
}

/// `nanos` as a `Duration`, if it fits in one.
fn duration_from_nanos(nanos: u128) -> Option<Duration> {
    const NANOS_PER_SEC: u128 = 1_000_000_000;
    let secs = u64::try_from(nanos / NANOS_PER_SEC).ok()?;
    let rest = (nanos % NANOS_PER_SEC) as u32; // below 10^9: fits
    Some(Duration::new(secs, rest))
}

impl Handle {
    /// Cancels the task: it will never run, and `stop` will not return it.
    /// True if this call cancelled it; false if it had already fired,
    /// been cancelled, or been handed back by `stop`. O(1): a CAS here,
    /// and at the ticker's next tick a removal by key.
    // ANCHOR: handle_cancel
    pub fn cancel(&self) -> bool {
        if !self.state.claim(CANCELLED) {
            return false;
        }
        // The task can no longer run: the ticker fires only what it can
        // claim. This message just frees its place in the bucket now rather
        // than when its tick comes. A stopped wheel has no buckets left, so
        // a failed send loses nothing.
        let _ = self.cancels.send(Arc::clone(&self.state));
        true
    }
    // ANCHOR_END: handle_cancel

    /// Whether the task was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.state.state.load(Ordering::SeqCst) == CANCELLED
    }
}

/// The ticker thread's state: the only owner of the core.
struct Ticker {
    shared: Arc<Shared>,
    core: HashedCore<Filed>,
    timers: Receiver<NewTimer>,
    cancels: Receiver<Arc<TimerState>>,
    stop: Receiver<()>,
    executor: Arc<dyn Executor>,
    /// Reused every tick: the tasks the core just expired.
    fired: Vec<Filed>,
    /// Tasks the executor would not take: `stop` returns them.
    given_back: Vec<Job>,
}

impl Ticker {
    // ANCHOR: ticker_loop
    fn run(mut self) -> Vec<Job> {
        loop {
            let tick = self.core.now() + 1;
            if !self.wait_for(tick) {
                break; // stopped
            }
            // ORDERING: a statistic; it orders nothing else.
            self.shared.ticks.fetch_add(1, Ordering::Relaxed);
            self.remove_cancelled();
            self.file_new_timers();
            self.core.advance(&mut self.fired);
            self.hand_over_fired();
        }
        self.leftovers()
    }
    // ANCHOR_END: ticker_loop

    /// Waits until tick `tick`'s instant, `start + tick * tick_length`.
    /// False if the wheel was stopped first. Late is fine (the next wait
    /// is then shorter, or none); early never happens: the loop returns
    /// only once the clock has reached the instant.
    fn wait_for(&self, tick: u64) -> bool {
        let at = self
            .shared
            .tick
            .as_nanos()
            .checked_mul(u128::from(tick))
            .and_then(duration_from_nanos)
            .and_then(|since_start| self.shared.start.checked_add(since_start));
        let Some(at) = at else {
            // A tick beyond what the clock can name never comes: wait for
            // stop alone.
            let _ = self.stop.recv();
            return false;
        };
        while Instant::now() < at {
            match self.stop.recv_deadline(at) {
                Err(RecvTimeoutError::Timeout) => {}
                // Nothing is ever sent; stop disconnects.
                Ok(()) | Err(RecvTimeoutError::Disconnected) => return false,
            }
        }
        true
    }

    /// Takes cancelled timers out of their buckets. A timer not yet filed
    /// has no key: nothing to remove, and `file_new_timers` skips it. A
    /// timer already fired has a stale key: the core finds nothing.
    fn remove_cancelled(&mut self) {
        for state in self.cancels.try_iter() {
            if let Some(&key) = state.key.get() {
                let removed = self.core.cancel(key);
                debug_assert!(removed.is_none_or(|f| Arc::ptr_eq(&f.state, &state)));
            }
        }
    }

    /// Files up to [`MAX_FILED_PER_TICK`] new timers by their due tick. A
    /// tick already expired goes into the bucket expired right after this.
    fn file_new_timers(&mut self) {
        for _ in 0..MAX_FILED_PER_TICK {
            let Ok(NewTimer { due, job, state }) = self.timers.try_recv() else {
                break;
            };
            if state.state.load(Ordering::SeqCst) == CANCELLED {
                continue; // cancelled on its way here
            }
            let key = self.core.insert(due, Filed { job, state });
            if let Some(filed) = self.core.get(key) {
                // Filed once, so the key is set once.
                let _ = filed.state.key.set(key);
            }
        }
    }

    /// Hands each expired task to the executor, unless it was cancelled
    /// since (its cancel message is on its way and will find a stale key).
    fn hand_over_fired(&mut self) {
        let mut fired = std::mem::take(&mut self.fired);
        for Filed { job, state } in fired.drain(..) {
            if !state.claim(FIRED) {
                continue;
            }
            let executor = &self.executor;
            // With `OnTicker` the task runs right here: its panic must not
            // take the ticker, and every other timer, with it. The panic
            // hook has printed it; Netty logs and goes on the same way.
            match catch_unwind(AssertUnwindSafe(|| executor.execute(job))) {
                Ok(Ok(())) | Err(_) => {}
                Ok(Err(job)) => self.given_back.push(job),
            }
        }
        self.fired = fired; // keeps its capacity for the next tick
    }

    /// Everything not run and not cancelled, for `stop`. Stop has shut the
    /// adders out before waking us, so the queue holds its last timers.
    fn leftovers(mut self) -> Vec<Job> {
        let mut jobs = std::mem::take(&mut self.given_back);
        let filed = self.core.drain().into_iter().map(|f| (f.job, f.state));
        let queued = self.timers.try_iter().map(|t| (t.job, t.state));
        for (job, state) in filed.chain(queued) {
            if state.claim(RETURNED) {
                jobs.push(job);
            }
        }
        jobs
    }
}

impl std::fmt::Debug for HashedWheel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HashedWheel")
            .field("tick", &self.scheduler.shared.tick)
            .field("ticks", &self.ticks())
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for Scheduler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scheduler")
            .field("stopped", &*self.shared.stopped.read())
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for Handle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match self.state.state.load(Ordering::SeqCst) {
            PENDING => "pending",
            CANCELLED => "cancelled",
            FIRED => "fired",
            _ => "returned by stop",
        };
        f.debug_struct("Handle").field("state", &state).finish()
    }
}
