//! A task whose result someone waits for: java.util.concurrent's
//! `FutureTask`, the inside of every scheduled task (T11).
//!
//! One atomic word holds the task's state, and every change is a CAS out
//! of `New`, so exactly one of "it ran", "it panicked" and "it was
//! cancelled" wins:
//!
//! ```text
//! New ─► Completing ─► Normal          the job returned; its value is kept
//!                  └─► Exceptional     the job panicked; its message is kept
//! New ─► Cancelled                     cancel(false)
//! New ─► Interrupting ─► Interrupted   cancel(true): the runner is interrupted
//! ```
//!
//! `Completing` and `Interrupting` are short: the winner of the CAS holds
//! them while it writes the outcome, or while it interrupts the runner.
//!
//! A second word keeps a task from running twice: whoever runs it first
//! takes the *runner* claim by CAS, and holds it until the state is
//! settled. The state alone would not do: two threads can both see `New`
//! (a periodic task is `New` between its runs), and a `run` that comes
//! while another holds the claim must return at once, without touching
//! the job. The claim also says whom `cancel(true)` interrupts: the
//! claimant records its thread's interrupt handle (stage 5's cooperative
//! interrupt), and nobody else writes it.
//!
//! Waiters block on a lock and a condition variable. Every move to a final
//! state is stored under that lock and followed by a notify, and a waiter
//! looks at the state under the same lock before each wait, so no wake-up
//! is lost and nobody spins. (Java keeps a lock-free stack of parked
//! threads instead; a lock is the shape the rest of this crate, and loom,
//! already know.)

use std::any::Any;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::Ordering::SeqCst;
use std::time::Duration;

use interrupt_cancel::interrupt::{self, InterruptHandle};

use crate::builder::panic_message;
use crate::sync::{self, AtomicU32, Condvar, Mutex};

// ANCHOR: states
/// Where a [`FutureTask`] is in its life; see the module docs for the
/// moves between states. Ordered as Java numbers them: everything after
/// `Completing` is done, everything from `Cancelled` on is cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FutureState {
    /// Not run, not cancelled. A periodic task returns here after each run.
    New = 0,
    /// The job has ended; its outcome is being written.
    Completing = 1,
    /// The job returned a value.
    Normal = 2,
    /// The job panicked.
    Exceptional = 3,
    /// Cancelled without interrupting the runner.
    Cancelled = 4,
    /// Cancelled; the runner, if any, is being interrupted.
    Interrupting = 5,
    /// Cancelled, and the runner (if any) was interrupted.
    Interrupted = 6,
}
// ANCHOR_END: states

impl FutureState {
    const ALL: [FutureState; 7] = [
        FutureState::New,
        FutureState::Completing,
        FutureState::Normal,
        FutureState::Exceptional,
        FutureState::Cancelled,
        FutureState::Interrupting,
        FutureState::Interrupted,
    ];

    fn from_word(word: u32) -> FutureState {
        FutureState::ALL[word as usize]
    }

    /// Anything but `New`: the task will not run (again).
    pub fn is_done(self) -> bool {
        self != FutureState::New
    }

    /// `Cancelled`, `Interrupting` or `Interrupted`.
    pub fn is_cancelled(self) -> bool {
        self >= FutureState::Cancelled
    }
}

/// Why [`FutureTask::get`] has no value to give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FutureError {
    /// The job panicked, with this message: Java's `ExecutionException`.
    Panicked(String),
    /// The task was cancelled: Java's `CancellationException`.
    Cancelled,
    /// [`FutureTask::get_timeout`] gave up before the task was done:
    /// Java's `TimeoutException`.
    Timeout,
}

impl fmt::Display for FutureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FutureError::Panicked(message) => write!(f, "the task panicked: {message}"),
            FutureError::Cancelled => f.write_str("the task was cancelled"),
            FutureError::Timeout => f.write_str("timed out waiting for the task"),
        }
    }
}

impl std::error::Error for FutureError {}

/// What a [`FutureTask`] runs: a one-shot [`Once`] or a periodic
/// [`Again`], kept where the task keeps it.
pub trait Job<V>: Send {
    /// Runs it, catching a panic; `None` if nothing is left to run (a
    /// one-shot job that ran already, or a job discarded by a cancel).
    fn call(&mut self) -> Option<std::thread::Result<V>>;

    /// Drops the job and whatever it captured: the task will not run.
    fn discard(&mut self);
}

/// A job that runs once: an `FnOnce`, consumed by its run.
pub struct Once<F>(Option<F>);

/// A job that can run again and again: a periodic task's `FnMut`.
pub struct Again<F>(Option<F>);

impl<F> Once<F> {
    /// The job `job`, not run yet.
    pub fn new(job: F) -> Once<F> {
        Once(Some(job))
    }
}

impl<F> Again<F> {
    /// The job `job`.
    pub fn new(job: F) -> Again<F> {
        Again(Some(job))
    }
}

impl<V, F: FnOnce() -> V + Send> Job<V> for Once<F> {
    fn call(&mut self) -> Option<std::thread::Result<V>> {
        // Taken out and consumed: a one-shot run is the job's last.
        let job = self.0.take()?;
        Some(panic::catch_unwind(AssertUnwindSafe(job)))
    }

    fn discard(&mut self) {
        self.0 = None;
    }
}

impl<V, F: FnMut() -> V + Send> Job<V> for Again<F> {
    fn call(&mut self) -> Option<std::thread::Result<V>> {
        let job = self.0.as_mut()?;
        Some(panic::catch_unwind(AssertUnwindSafe(job)))
    }

    fn discard(&mut self) {
        self.0 = None;
    }
}

/// The job of a [`FutureTask`] made by [`FutureTask::new`] or
/// [`FutureTask::once`]: boxed, so that every task of one value type has
/// one type.
pub type Boxed<V> = Box<dyn Job<V>>;

impl<V> Job<V> for Boxed<V> {
    fn call(&mut self) -> Option<std::thread::Result<V>> {
        (**self).call()
    }

    fn discard(&mut self) {
        (**self).discard();
    }
}

/// The runner claim: free, or held by the thread running the job.
const FREE: u32 = 0;
const CLAIMED: u32 = 1;

/// What the lock guards.
struct Slot<V> {
    /// Whom `cancel(true)` interrupts: the claimant's handle, while it runs.
    runner: Option<InterruptHandle>,
    /// The job's value or its panic, once `Normal` or `Exceptional`.
    outcome: Option<Result<V, Box<Panicked>>>,
}

/// A job's panic, as its future keeps it: boxed, so that the many tasks
/// that never panic carry one pointer for it, not a string and a payload
/// (a scheduled task is one allocation, and its size is felt at 10^6).
struct Panicked {
    /// The panic's message, for every [`FutureTask::get`].
    message: String,
    /// The payload itself, until someone takes it
    /// ([`FutureTask::take_panic`]).
    payload: Option<Box<dyn Any + Send>>,
}

/// A job and the future of its result: run it once ([`FutureTask::run`])
/// or again and again ([`FutureTask::run_and_reset`]), wait for it
/// ([`FutureTask::get`]), or cancel it.
///
/// ```
/// use std::sync::Arc;
/// use threadpool_executor::future::{FutureError, FutureTask};
///
/// let task = Arc::new(FutureTask::new(|| 6 * 7));
/// let runner = std::thread::spawn({
///     let task = Arc::clone(&task);
///     move || task.run()
/// });
/// assert_eq!(task.get(), Ok(42));
/// runner.join().unwrap();
/// assert!(!task.cancel(true), "done: too late to cancel");
///
/// let never = FutureTask::new(|| 1);
/// assert!(never.cancel(false));
/// never.run(); // does nothing
/// assert_eq!(never.get(), Err(FutureError::Cancelled));
/// ```
///
/// The job is the last field, held in place: `J` may be a closure's own
/// type, unboxed, and a task that holds a `FutureTask<V, Once<F>>` can be
/// used as one that holds a `FutureTask<V, dyn Job<V>>`. The scheduled
/// pool keeps each task and its closure in one allocation that way
/// (scheduled.rs).
pub struct FutureTask<V, J: ?Sized = Boxed<V>> {
    /// A [`FutureState`], changed by CAS.
    state: AtomicU32,
    /// [`FREE`] or [`CLAIMED`]: Java's `runner` field, CASed from null.
    claim: AtomicU32,
    slot: Mutex<Slot<V>>,
    /// Notified (under `slot`'s lock) at every move to a final state.
    done: Condvar,
    /// The job, until it is done for good (then discarded, with whatever
    /// it captured: a cancelled task that lingers somewhere holds
    /// nothing). Locked by the claimant while the job runs.
    job: Mutex<J>,
}

impl<V: Send + 'static> FutureTask<V> {
    /// A task that runs `job`, once with [`run`](FutureTask::run) or
    /// again and again with [`run_and_reset`](FutureTask::run_and_reset).
    pub fn new(job: impl FnMut() -> V + Send + 'static) -> FutureTask<V> {
        FutureTask::with_job(Box::new(Again::new(job)))
    }

    /// A one-shot task from a closure that can run only once: for
    /// [`run`](FutureTask::run). (`run_and_reset` runs it once too, and
    /// then has nothing left to run.)
    pub fn once(job: impl FnOnce() -> V + Send + 'static) -> FutureTask<V> {
        FutureTask::with_job(Box::new(Once::new(job)))
    }
}

impl<V, J> FutureTask<V, J> {
    /// A task that runs `job`, held in place (see the type's docs).
    pub fn with_job(job: J) -> FutureTask<V, J> {
        FutureTask {
            state: AtomicU32::new(FutureState::New as u32),
            claim: AtomicU32::new(FREE),
            slot: Mutex::new(Slot {
                runner: None,
                outcome: None,
            }),
            done: Condvar::new(),
            job: Mutex::new(job),
        }
    }
}

impl<V, J: Job<V> + ?Sized> FutureTask<V, J> {
    /// The state now.
    pub fn state(&self) -> FutureState {
        FutureState::from_word(self.state.load(SeqCst))
    }

    /// Whether the task is done: ran, panicked, or was cancelled.
    pub fn is_done(&self) -> bool {
        self.state().is_done()
    }

    /// Whether the task was cancelled (before it could complete).
    pub fn is_cancelled(&self) -> bool {
        self.state().is_cancelled()
    }

    fn cas_state(&self, from: FutureState, to: FutureState) -> bool {
        self.state
            .compare_exchange(from as u32, to as u32, SeqCst, SeqCst)
            .is_ok()
    }

    // ANCHOR: run
    /// Runs the job and keeps its value (or its panic) for [`get`]. Does
    /// nothing if the task is done, or if another thread is running it
    /// right now: the job runs at most once, however many threads call
    /// this.
    ///
    /// [`get`]: FutureTask::get
    pub fn run(&self) {
        if self.state() != FutureState::New || !self.claim() {
            return;
        }
        if self.start() {
            // `None`: discarded by a cancel, or run already.
            if let Some(outcome) = self.job.lock().call() {
                self.complete(outcome);
            }
        }
        self.release();
    }
    // ANCHOR_END: run

    /// Runs the job without keeping a value, leaving the task `New` so it
    /// can run again: how a periodic task runs. Returns whether it ran
    /// normally and is still `New` (not cancelled meanwhile). A panic
    /// completes the task with it, for good.
    pub fn run_and_reset(&self) -> bool {
        if self.state() != FutureState::New || !self.claim() {
            return false;
        }
        let mut ran = false;
        if self.start() {
            match self.job.lock().call() {
                Some(Ok(_value)) => ran = true,
                Some(Err(panic)) => self.complete(Err(panic)),
                None => {}
            }
        }
        ran && self.release() == FutureState::New
    }

    /// Takes the runner claim: Java's CAS of `runner` from null.
    fn claim(&self) -> bool {
        self.claim
            .compare_exchange(FREE, CLAIMED, SeqCst, SeqCst)
            .is_ok()
    }

    /// With the claim held: records whom `cancel(true)` should interrupt,
    /// then says whether the task is still `New`, so may start. In that
    /// order: a `cancel` that read no runner has already left `New`, so we
    /// see it here and do not start.
    fn start(&self) -> bool {
        kit::pause_point("threadpool-executor::future: claimed the run, job not started");
        let mut slot = self.slot.lock();
        slot.runner = interrupt::current().map(|token| token.handle());
        self.state() == FutureState::New
    }

    /// Leaves `New` for `Completing` and then `Normal` or `Exceptional`,
    /// storing the value or the panic, unless a `cancel` left `New` first
    /// (its outcome wins, and this one is dropped).
    fn complete(&self, outcome: std::thread::Result<V>) {
        if self.cas_state(FutureState::New, FutureState::Completing) {
            let mut slot = self.slot.lock();
            let final_state = match outcome {
                Ok(value) => {
                    slot.outcome = Some(Ok(value));
                    FutureState::Normal
                }
                Err(panic) => {
                    slot.outcome = Some(Err(Box::new(Panicked {
                        message: panic_message(&*panic).to_owned(),
                        payload: Some(panic),
                    })));
                    FutureState::Exceptional
                }
            };
            self.state.store(final_state as u32, SeqCst);
            self.done.notify_all();
        }
    }

    /// The payload the job panicked with, for the first caller that asks
    /// (`None` after that, or if it did not panic): what Java's
    /// `ExecutionException::getCause` gives, and what
    /// `std::panic::resume_unwind` takes to pass the panic on.
    /// [`get`](FutureTask::get) reports the panic's message either way.
    pub fn take_panic(&self) -> Option<Box<dyn Any + Send>> {
        match &mut self.slot.lock().outcome {
            Some(Err(panicked)) => panicked.payload.take(),
            _ => None,
        }
    }

    // ANCHOR: release
    /// Gives up the claim after a run, and returns the state it left. A
    /// task done for good drops its job here (a cancel that came while it
    /// ran could not: the run held it).
    ///
    /// If a `cancel(true)` is between its CAS and its interrupt, we wait
    /// for the interrupt to land first (Java's
    /// `handlePossibleCancellationInterrupt`): returning earlier would let
    /// it land in whatever this thread runs next. Landed while we still
    /// run, it is cleared by the worker before its next task (worker.rs).
    fn release(&self) -> FutureState {
        let mut slot = self.slot.lock();
        // No runner from here on: a cancel that reads it now interrupts
        // nobody; one that read it earlier already moved the state.
        slot.runner = None;
        while self.state() == FutureState::Interrupting {
            self.done.wait(&mut slot);
        }
        let state = self.state();
        drop(slot);
        if state.is_done() {
            self.job.lock().discard();
        }
        // Only now may another run start (a periodic task's next one).
        self.claim.store(FREE, SeqCst);
        state
    }
    // ANCHOR_END: release

    // ANCHOR: cancel
    /// Cancels the task unless it is done already: a task not started
    /// never runs, and [`get`](FutureTask::get) answers
    /// [`FutureError::Cancelled`]. With `may_interrupt`, a job that is
    /// running is interrupted (it sees it through
    /// [`interrupt::check`]); without, it runs
    /// on and its value is thrown away. Returns whether this call
    /// cancelled it.
    pub fn cancel(&self, may_interrupt: bool) -> bool {
        let to = if may_interrupt {
            FutureState::Interrupting
        } else {
            FutureState::Cancelled
        };
        if !self.cas_state(FutureState::New, to) {
            return false;
        }
        if may_interrupt {
            let runner = self.slot.lock().runner.clone();
            kit::pause_point(
                "threadpool-executor::future: Interrupting, runner not yet interrupted",
            );
            // Outside our lock: interrupting takes the lock of whatever
            // the runner is blocked on.
            if let Some(runner) = runner {
                runner.interrupt();
            }
        }
        // ANCHOR_END: cancel
        // ANCHOR: settle_after_cancel
        {
            let _slot = self.slot.lock();
            if may_interrupt {
                self.state.store(FutureState::Interrupted as u32, SeqCst);
            }
            self.done.notify_all();
        }
        // Whatever the job captured goes now, not when the last handle on
        // the task does (a cancelled task may stay queued a long time).
        // Unless it is running: then its runner drops it (`release`).
        if let Some(mut job) = self.job.try_lock() {
            job.discard();
        }
        true
    }
    // ANCHOR_END: settle_after_cancel

    // ANCHOR: get
    /// Waits until the task is done, then returns its value, its panic,
    /// or its cancellation.
    ///
    /// # Errors
    /// [`FutureError::Panicked`] with the job's panic message, or
    /// [`FutureError::Cancelled`].
    pub fn get(&self) -> Result<V, FutureError>
    where
        V: Clone,
    {
        self.wait_done(None, V::clone)
    }

    /// As [`get`](FutureTask::get), but waits at most `timeout`.
    ///
    /// # Errors
    /// As `get`, and [`FutureError::Timeout`] if the task is not done in
    /// time.
    pub fn get_timeout(&self, timeout: Duration) -> Result<V, FutureError>
    where
        V: Clone,
    {
        self.wait_done(Some(timeout), V::clone)
    }

    /// As [`get_timeout`](FutureTask::get_timeout), but hands the value to
    /// `read` where it lies instead of cloning it (`None`: no time limit).
    ///
    /// # Errors
    /// As `get_timeout`.
    pub fn get_with<R>(
        &self,
        timeout: Option<Duration>,
        read: impl FnOnce(&V) -> R,
    ) -> Result<R, FutureError> {
        self.wait_done(timeout, read)
    }

    fn wait_done<R>(
        &self,
        timeout: Option<Duration>,
        read: impl FnOnce(&V) -> R,
    ) -> Result<R, FutureError> {
        // A timeout too long for the clock is forever.
        let deadline = timeout.and_then(|timeout| sync::now().checked_add(timeout));
        let mut slot = self.slot.lock();
        // Under the lock the final states are stored with: a completion
        // that comes after this look notifies us after we wait.
        while self.state() <= FutureState::Completing {
            match deadline {
                Some(deadline) if deadline <= sync::now() => return Err(FutureError::Timeout),
                Some(deadline) => self.done.wait_until(&mut slot, deadline),
                None => self.done.wait(&mut slot),
            }
        }
        match (self.state(), &slot.outcome) {
            (FutureState::Normal, Some(Ok(value))) => Ok(read(value)),
            (FutureState::Exceptional, Some(Err(panicked))) => {
                Err(FutureError::Panicked(panicked.message.clone()))
            }
            (state, _) => {
                debug_assert!(state.is_cancelled(), "reported in state {state:?}");
                Err(FutureError::Cancelled)
            }
        }
    }
    // ANCHOR_END: get
}

impl<V, J: Job<V> + ?Sized> fmt::Debug for FutureTask<V, J> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FutureTask")
            .field("state", &self.state())
            .finish_non_exhaustive()
    }
}
