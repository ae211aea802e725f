//! The hierarchical wheel, running: one ticker thread owns the
//! [`Levels`], adders hand it their timers through a channel, and the
//! ticker sleeps until the next occupied slot's tick. Between timers it
//! does not tick at all.
//!
//! A hashed wheel wakes every tick to look at the next slot, timers or
//! not: an idle wheel with a 1 ms tick wakes a thousand times a second
//! (Apache Pulsar's issue "High CPU load when PulsarClient (Java) is
//! idle" traced to a HashedWheelTimer with a 1 ms tick).
//! Kafka's hierarchical timing wheels put only the occupied buckets in a
//! delay queue, so the reaper sleeps until the next one; the levels'
//! bitmaps give us the same thing for one `trailing_zeros`: an idle wheel
//! with one timer 10 s away sleeps, and wakes only when that timer's slot
//! cascades or fires (at most once per level, six times however far).
//!
//! - **schedule** rounds the deadline *up* to a whole tick (a task fires
//!   at most one tick late, never early), puts the timer on the channel,
//!   and wakes the ticker only if the timer is due before the ticker's
//!   planned wake-up. A later timer costs no wake-up: the ticker reads the
//!   channel whenever it wakes anyway.
//! - **cancel** is O(1): the handle claims the timer and drops its task at
//!   once, and queues the timer for the ticker to take out of its slot by
//!   key, without waking it.
//! - **stop** returns every task that did not run and was not cancelled,
//!   including any that the executor gave back. Adders hold a read lock
//!   from their look at `stopped` to their send, as the hashed wheel's do,
//!   so the ticker's last look at the channel finds every accepted timer.
//!
//! A timer's state moves once, from waiting to cancelled (its handle) or
//! to taken (the ticker, to run it, or `stop`, to return it). Whoever moves
//! it owns the task.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use parking_lot::{Mutex, RwLock};

use crate::error::{ConfigError, Reason, Refused};
use crate::hashed_core::ticks_for;
use crate::job::{Executor, Job};
use crate::levels::{Key, Levels, RANGE};

/// How a [`HierarchicalWheel`] is set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HierarchicalConfig {
    /// One tick: deadlines are rounded up to whole ticks, so a task fires
    /// at most this much late (plus the time the ticker takes to wake).
    pub tick: Duration,
}

impl Default for HierarchicalConfig {
    /// A 1 ms tick: six levels then reach 2^36 ms, about 2.2 years.
    fn default() -> Self {
        HierarchicalConfig {
            tick: Duration::from_millis(1),
        }
    }
}

/// A hierarchical timing wheel with its ticker thread. See the module docs.
///
/// Dropping it stops it (as [`stop`](HierarchicalWheel::stop) does) and
/// drops the tasks that had not run.
pub struct HierarchicalWheel {
    scheduler: Scheduler,
    ticker: Option<JoinHandle<Vec<Job>>>,
}

/// Schedules on a [`HierarchicalWheel`] from anywhere: cheap to clone,
/// `Send` and `Sync`. After the wheel stops, every schedule is refused
/// with [`Reason::Stopped`] and the task comes back.
#[derive(Clone)]
pub struct Scheduler {
    shared: Arc<Shared>,
}

/// A scheduled task's handle: cancel it, or ask whether it was cancelled.
#[derive(Clone)]
pub struct Handle {
    timer: Arc<Timer>,
    shared: Arc<Shared>,
}

/// What the adders, the handles, `stop` and the ticker share.
struct Shared {
    /// Tick 0: tick `n` begins at `start + n * tick`.
    start: Instant,
    tick: Duration,
    /// `tick * (RANGE - 1)`: what the levels hold without lapping.
    max_delay: Duration,
    /// Set once, by stop, under the write lock. Adders hold the read lock
    /// from their look at it to their send: once stop has held the write
    /// lock, no timer can reach the channel after the ticker's last look.
    stopped: RwLock<bool>,
    /// The tick the ticker sleeps until: [`AWAKE`] while it works (it will
    /// look at the channel before it sleeps), [`IDLE`] when it sleeps with
    /// no timer at all.
    planned: AtomicU64,
    wakeups: AtomicU64,
    commands: Sender<Command>,
    /// Wakes the ticker: a sooner timer, or stop. Holds one signal at most;
    /// a second sender finds it full, and one wake-up serves both.
    wake: Sender<()>,
}

/// The value of [`Shared::planned`] while the ticker is awake.
const AWAKE: u64 = 0;
/// The value of [`Shared::planned`] while the ticker sleeps with no timer.
const IDLE: u64 = u64::MAX;

enum Command {
    Add(Arc<Timer>),
    Cancel(Arc<Timer>),
}

/// One scheduled task, shared by its handle and the ticker.
struct Timer {
    /// The tick it is due at.
    deadline: u64,
    /// [`WAITING`], then once [`CANCELLED`] or [`TAKEN`].
    state: AtomicU8,
    /// The task, here rather than in the ticker's slot so that a cancel
    /// drops it at once (a cancelled 10 s timer does not keep its closure
    /// alive for 10 s). Only the thread that moved `state` from [`WAITING`]
    /// takes it, so this lock is never contended; it is how a `Box` moves
    /// out of shared state without `unsafe`.
    job: Mutex<Option<Job>>,
    /// Where the timer sits in the levels. Only the ticker reads or writes
    /// it (a lock again only because the timer is shared).
    key: Mutex<Option<Key>>,
}

const WAITING: u8 = 0;
const CANCELLED: u8 = 1;
const TAKEN: u8 = 2;

impl Timer {
    /// Moves the state from waiting to `to` and hands over the task; `None`
    /// if someone else moved it first.
    fn claim(&self, to: u8) -> Option<Job> {
        // ORDERING: AcqRel/Acquire would do (the job itself is handed over
        // under its lock); SeqCst keeps the one claim simple to reason about.
        self.state
            .compare_exchange(WAITING, to, Ordering::SeqCst, Ordering::SeqCst)
            .ok()?;
        self.job.lock().take()
    }

    fn is_waiting(&self) -> bool {
        self.state.load(Ordering::SeqCst) == WAITING
    }
}

impl HierarchicalWheel {
    /// Starts a wheel whose ticker thread is named `name` and hands due
    /// tasks to `executor`.
    ///
    /// # Errors
    /// [`ConfigError::ZeroTick`] for a tick of zero;
    /// [`ConfigError::Spawn`] if the thread cannot be started (a name with
    /// a NUL byte in it, say).
    pub fn start(
        config: HierarchicalConfig,
        executor: Arc<dyn Executor>,
        name: &str,
    ) -> Result<HierarchicalWheel, ConfigError> {
        if config.tick.is_zero() {
            return Err(ConfigError::ZeroTick);
        }
        if name.contains('\0') {
            return Err(ConfigError::Spawn(format!(
                "the thread name {name:?} contains a NUL byte"
            )));
        }
        let (commands, receiver) = crossbeam_channel::unbounded();
        let (wake, wake_rx) = crossbeam_channel::bounded(1);
        let shared = Arc::new(Shared {
            start: Instant::now(),
            tick: config.tick,
            max_delay: ticks(config.tick, RANGE - 1).unwrap_or(Duration::MAX),
            stopped: RwLock::new(false),
            planned: AtomicU64::new(AWAKE),
            wakeups: AtomicU64::new(0),
            commands,
            wake,
        });
        let ticker = Ticker {
            shared: Arc::clone(&shared),
            commands: receiver,
            wake: wake_rx,
            levels: Levels::new(),
            executor,
            due: Vec::new(),
            given_back: Vec::new(),
        };
        let ticker = thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || ticker.run())
            .map_err(|e| ConfigError::Spawn(e.to_string()))?;
        Ok(HierarchicalWheel {
            scheduler: Scheduler { shared },
            ticker: Some(ticker),
        })
    }

    /// Runs `job` once `delay` has passed: at the first tick at or after
    /// it, so at most one tick late, never early.
    ///
    /// # Errors
    /// [`Reason::BeyondRange`] for a delay longer than
    /// [`max_delay`](HierarchicalWheel::max_delay), [`Reason::Stopped`]
    /// after the wheel stopped; the job comes back inside the error.
    pub fn schedule(&self, delay: Duration, job: Job) -> Result<Handle, Refused> {
        self.scheduler.schedule(delay, job)
    }

    /// A handle that schedules on this wheel from other threads, and is
    /// refused once the wheel stops.
    pub fn scheduler(&self) -> Scheduler {
        self.scheduler.clone()
    }

    /// The length of one tick.
    pub fn tick(&self) -> Duration {
        self.scheduler.shared.tick
    }

    /// The longest delay the wheel takes: `tick * (2^36 - 1)`.
    pub fn max_delay(&self) -> Duration {
        self.scheduler.shared.max_delay
    }

    /// How many times the ticker thread has woken: for a slot's tick, for a
    /// timer due sooner than it planned, or to stop.
    pub fn wakeups(&self) -> u64 {
        // ORDERING: a counter read for reporting; nothing is published
        // through it.
        self.scheduler.shared.wakeups.load(Ordering::Relaxed)
    }

    /// Stops the ticker, joins it, and returns every task that neither
    /// ran nor was cancelled: those still waiting, those still on their
    /// way to the ticker, and those the executor gave back. Their handles'
    /// `cancel` then returns false.
    ///
    /// # Panics
    /// Only if the ticker thread itself panicked (a bug in this file: a
    /// task's panic is caught); the panic is passed on.
    pub fn stop(mut self) -> Vec<Job> {
        match self.shut_down() {
            Ok(jobs) => jobs,
            Err(panic) => resume_unwind(panic),
        }
    }

    // ANCHOR: stop
    fn shut_down(&mut self) -> thread::Result<Vec<Job>> {
        let Some(ticker) = self.ticker.take() else {
            return Ok(Vec::new());
        };
        let shared = &self.scheduler.shared;
        // After this, no adder can send: the ticker's last look at the
        // channel finds every timer ever accepted.
        *shared.stopped.write() = true;
        // Full means a wake-up is on its way already.
        let _ = shared.wake.try_send(());
        ticker.join()
    }
    // ANCHOR_END: stop
}

impl Drop for HierarchicalWheel {
    fn drop(&mut self) {
        // The tasks not yet run are dropped here; `stop` returns them. A
        // panicked ticker is not passed on from a drop.
        let _ = self.shut_down();
    }
}

impl Scheduler {
    // ANCHOR: schedule
    /// Runs `job` once `delay` has passed; see [`HierarchicalWheel::schedule`].
    ///
    /// # Errors
    /// [`Reason::BeyondRange`] or [`Reason::Stopped`], with the job.
    pub fn schedule(&self, delay: Duration, job: Job) -> Result<Handle, Refused> {
        let shared = &self.shared;
        let Some(deadline) = shared.deadline_after(delay) else {
            let max = shared.max_delay;
            return Err(Refused::new(Reason::BeyondRange { delay, max }, job));
        };
        // The deadline is a tick number, not a slot: however long this
        // thread is held here, the ticker files the timer by its own tick
        // when it arrives (due at once if that tick has passed). Nothing
        // here can make it wait a revolution (W2).
        kit::pause_point("wheel::hierarchical: deadline computed, not yet sent");
        let timer = Arc::new(Timer {
            deadline,
            state: AtomicU8::new(WAITING),
            job: Mutex::new(Some(job)),
            key: Mutex::new(None),
        });
        {
            let stopped = shared.stopped.read();
            let sent = !*stopped
                && shared
                    .commands
                    .send(Command::Add(Arc::clone(&timer)))
                    .is_ok();
            if !sent {
                // Stopped (or the ticker is gone, which only a bug in this
                // file could do): nobody else has seen the timer.
                let job = timer.claim(TAKEN).expect("a timer nobody has seen");
                return Err(Refused::new(Reason::Stopped, job));
            }
        }
        shared.wake_if_sooner(deadline);
        Ok(Handle {
            timer,
            shared: Arc::clone(shared),
        })
    }
    // ANCHOR_END: schedule
}

impl Shared {
    /// The tick at or after `now + delay`: rounded up, so never early.
    /// `None` if the delay is beyond the wheel's range.
    fn deadline_after(&self, delay: Duration) -> Option<u64> {
        if delay > self.max_delay {
            return None;
        }
        // The same rounding as the hashed wheel's, from the wheel's start.
        let since_start = self.start.elapsed().checked_add(delay)?;
        ticks_for(since_start, self.tick)
    }

    /// The tick now: the last tick that has begun.
    fn now_tick(&self) -> u64 {
        let since_start = self.start.elapsed().as_nanos();
        u64::try_from(since_start / self.tick.as_nanos()).unwrap_or(u64::MAX)
    }

    // ANCHOR: wake_if_sooner
    /// Wakes the ticker if a timer due at `deadline` comes before its
    /// planned wake-up. A later timer waits in the channel: the ticker
    /// reads it when it wakes for the earlier one, so it costs no wake-up.
    ///
    /// What a wake-up costs: the adder a system call (a futex wake), the
    /// ticker a context switch, a look at the channel and a new plan. A few
    /// microseconds; but adders that schedule timeouts all day, each later
    /// than the next one due, would pay it on every schedule for nothing.
    fn wake_if_sooner(&self, deadline: u64) {
        // ORDERING: SeqCst read-modify-write, as the ticker's swaps are:
        // all of them are ordered on this one word. If ours comes first,
        // the ticker's swap reads it and sees our timer in the channel; if
        // the ticker's comes first, we read its plan here.
        let planned = self.planned.fetch_min(deadline, Ordering::SeqCst);
        if deadline < planned {
            // Full: a signal is already waiting for the ticker.
            let _ = self.wake.try_send(());
        }
    }
    // ANCHOR_END: wake_if_sooner
}

impl Handle {
    /// Cancels the task: it will not run, and its closure is dropped now.
    /// Returns `false` if it ran, is running, was cancelled, or was handed
    /// back by `stop`.
    pub fn cancel(&self) -> bool {
        let Some(job) = self.timer.claim(CANCELLED) else {
            return false;
        };
        drop(job);
        // The ticker takes the timer out of its slot by key (O(1)) when it
        // next wakes, at the timer's own tick at the latest: no wake-up
        // just for this.
        let _ = self
            .shared
            .commands
            .send(Command::Cancel(Arc::clone(&self.timer)));
        true
    }

    /// Whether [`cancel`](Handle::cancel) won.
    pub fn is_cancelled(&self) -> bool {
        self.timer.state.load(Ordering::SeqCst) == CANCELLED
    }
}

/// The ticker thread's own state: only it touches the levels.
struct Ticker {
    shared: Arc<Shared>,
    commands: Receiver<Command>,
    wake: Receiver<()>,
    levels: Levels<Arc<Timer>>,
    executor: Arc<dyn Executor>,
    /// Timers that came due, reused between advances.
    due: Vec<Arc<Timer>>,
    /// Tasks the executor refused: returned by `stop`, never lost.
    given_back: Vec<Job>,
}

impl Ticker {
    // ANCHOR: ticker_loop
    fn run(mut self) -> Vec<Job> {
        loop {
            // ORDERING: see `wake_if_sooner`. From here adders do not
            // signal; any timer queued before this swap is in the channel.
            self.shared.planned.swap(AWAKE, Ordering::SeqCst);
            self.take_commands();
            self.fire_due();
            if *self.shared.stopped.read() {
                break;
            }
            // ANCHOR: sleep_until_next
            let next = self.levels.next_expiration().unwrap_or(IDLE);
            // Publish the plan. An adder that queued while we were awake
            // saw AWAKE and did not signal: this swap reads its fetch_min,
            // so the look at the channel below sees its timer.
            self.shared.planned.swap(next, Ordering::SeqCst);
            // Signals sent before now are for timers already in the
            // channel: drop them rather than wake for nothing later.
            while self.wake.try_recv().is_ok() {}
            if !self.commands.is_empty() || *self.shared.stopped.read() {
                continue;
            }
            // Sleep until the next occupied slot's tick, or a signal. An
            // idle wheel (next == IDLE) sleeps until a timer or stop
            // arrives; one timer 10 s away is slept through, waking only
            // when its slot cascades: at most once per level.
            let wake_at = (next != IDLE)
                .then(|| ticks(self.shared.tick, next))
                .flatten()
                .and_then(|since| self.shared.start.checked_add(since));
            let _signal_or_timeout = match wake_at {
                Some(at) => self.wake.recv_deadline(at).ok(),
                None => self.wake.recv().ok(),
            };
            // ORDERING: a counter for reporting only.
            self.shared.wakeups.fetch_add(1, Ordering::Relaxed);
            // ANCHOR_END: sleep_until_next
        }
        // Stopped: no adder can send any more, so this look at the channel
        // is the last one needed.
        self.take_commands();
        let mut jobs = std::mem::take(&mut self.given_back);
        jobs.extend(
            self.levels
                .drain()
                .into_iter()
                .filter_map(|timer| timer.claim(TAKEN)),
        );
        jobs
    }
    // ANCHOR_END: ticker_loop

    /// Files new timers by their tick and takes cancelled ones out by key.
    fn take_commands(&mut self) {
        while let Ok(command) = self.commands.try_recv() {
            match command {
                Command::Add(timer) => {
                    // Cancelled on its way here: nothing to file.
                    if timer.is_waiting() {
                        let key = self.levels.insert(timer.deadline, Arc::clone(&timer));
                        *timer.key.lock() = Some(key);
                    }
                }
                Command::Cancel(timer) => {
                    if let Some(key) = timer.key.lock().take() {
                        self.levels.cancel(key);
                    }
                }
            }
        }
    }

    /// Advances the levels to the current tick and hands every due task
    /// to the executor.
    fn fire_due(&mut self) {
        let now = self.shared.now_tick();
        self.levels.advance_to(now, &mut self.due);
        for timer in self.due.drain(..) {
            *timer.key.lock() = None;
            let Some(job) = timer.claim(TAKEN) else {
                continue; // cancelled while it waited
            };
            // A task that panics on the ticker (OnTicker) must not take
            // the ticker, and every other timer, down with it.
            match catch_unwind(AssertUnwindSafe(|| self.executor.execute(job))) {
                Ok(Ok(())) | Err(_) => {}
                Ok(Err(job)) => self.given_back.push(job),
            }
        }
    }
}

/// `n` ticks as a duration; `None` past what a `Duration` holds.
fn ticks(tick: Duration, n: u64) -> Option<Duration> {
    let nanos = tick.as_nanos().checked_mul(u128::from(n))?;
    let secs = u64::try_from(nanos / 1_000_000_000).ok()?;
    Some(Duration::new(secs, (nanos % 1_000_000_000) as u32))
}

impl std::fmt::Debug for HierarchicalWheel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HierarchicalWheel")
            .field("tick", &self.scheduler.shared.tick)
            .field("wakeups", &self.wakeups())
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for Scheduler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scheduler")
            .field("tick", &self.shared.tick)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for Handle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handle")
            .field("deadline_tick", &self.timer.deadline)
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}
