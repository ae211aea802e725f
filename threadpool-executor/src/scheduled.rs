//! The scheduled pool: ScheduledThreadPoolExecutor in Rust (T12, T13, and
//! the fixes of T14, T15 and T16).
//!
//! A ScheduledThreadPoolExecutor is a ThreadPoolExecutor with another
//! queue and another kind of task, and so is this: the same core
//! (ctl word, workers, `get_task`, shutdown), carrying
//! `Arc<`[`ScheduledTask`]`>`s in a [`DelayedQueue`], whose takers get an
//! item only once it is due.
//!
//! - [`ScheduledThreadPool::schedule`] and the two periodic kinds make a
//!   task (a [`FutureTask`] with a deadline, a sequence number and a
//!   heap index) and hand it to `delayed_execute`: **always queue it**,
//!   look at the run state again (a shutdown may have come meanwhile), then
//!   make sure a worker exists to wait for it (`ensure_prestart`). Unlike
//!   `execute`, it never starts a worker *with* the task: the task is not
//!   due yet.
//! - A worker takes a task when it is due and runs it. A one-shot task
//!   runs its future once. A periodic one runs it with `run_and_reset`
//!   (the future stays `New`), computes its next deadline, and queues
//!   itself again: `re_execute_periodic`. Since a task is queued again
//!   only after its run, a periodic task never runs concurrently with
//!   itself, however many workers wait: a late run starts late.
//! - A job that panics completes its future with the panic (the future
//!   catches it): a periodic task stops, its `get` returns the panic, and
//!   the worker and every other task go on.
//! - `shutdown` applies two policies (the JDK's defaults: delayed one-shot
//!   tasks still run, periodic ones are cancelled); the core calls our
//!   `on_shutdown` step, Java's `onShutdown`, once the state has moved.
//!   `shutdown_now` hands back every task that never started.
//!
//! # Why `Period` is an enum
//!
//! Java keeps a task's kind in the sign of one `long period`: zero is a
//! one-shot task, positive is a fixed rate, negative is a fixed delay
//! (`scheduleWithFixedDelay` stores `-delay`, and `setNextRunTime` flips
//! it back). Every reader must know the convention; a negation forgotten
//! or added turns one kind into the other without a compile error; and
//! the negation itself overflows for the most negative `long`. Here
//! [`Period`] names the two kinds, each with a `Duration` that cannot be
//! negative, a one-shot task has no period at all (`Option<Period>` is
//! `None`), and every `match` on it must say what each kind does.
//!
//! # Cancelled tasks leave the queue at once (T14)
//!
//! Java's `remove-on-cancel` policy is off by default: a cancelled task
//! stays in the queue until its deadline, when a worker takes it, finds
//! it cancelled, and drops it. That was JDK-6602600: a program that
//! schedules a timeout for every request and cancels it when the request
//! is answered (gRPC's deadlines, Hystrix's timeouts) fills the queue with
//! dead tasks. Java 7 added the policy, and kept it off so that existing
//! programs would not change behaviour. Here it is **on** by default: each
//! task knows its heap index, so removing it costs O(log n) under the
//! queue's lock, and a queue that holds only live tasks is worth that.
//! `remove_on_cancel(false)` gives Java's default back, for the lesson.

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Weak;
use std::sync::atomic::Ordering::{Relaxed, SeqCst};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::time::Duration;

use crate::builder::{Hooks, check_sizes};
use crate::ctl::{CAPACITY, RunState, Word};
use crate::deadline::Deadline;
use crate::delayed_queue::{Delayed, DelayedQueue, NOT_QUEUED, Wait};
use crate::error::{ConfigError, Reason, Rejected};
use crate::factory::{NamedThreads, ThreadFactory};
use crate::future::{Again, FutureError, FutureState, FutureTask, Job, Once};
use crate::pool::{Core, Settings, ThreadPool, Variant};
use crate::queue::WorkQueue;
use crate::reject::{Abort, RejectPolicy};
use crate::sync::Arc;
use crate::task::Runnable;

// ANCHOR: period
/// How a periodic task repeats (a one-shot task has no `Period`). See the
/// module docs for why this is not Java's signed `long`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Period {
    /// Runs every `period`, counted from the first deadline: a run is due
    /// one period after the previous one was *due*, however long that one
    /// took. A run that ends late is followed at once by the next, never
    /// overlapped by it.
    FixedRate(Duration),
    /// Runs `delay` after the previous run *ended*.
    FixedDelay(Duration),
}

impl Period {
    /// The period or the delay.
    pub fn duration(self) -> Duration {
        match self {
            Period::FixedRate(period) | Period::FixedDelay(period) => period,
        }
    }

    /// When the next run is due, after a run that was due at `due` and
    /// ended at `ended`. Saturates: a period too long for the clock gives
    /// [`Deadline::FOREVER`], never a wrap into the past (T15).
    pub fn next_deadline(self, due: Deadline, ended: Deadline) -> Deadline {
        match self {
            Period::FixedRate(period) => due.after(period),
            Period::FixedDelay(delay) => ended.after(delay),
        }
    }
}
// ANCHOR_END: period

#[doc(hidden)]
pub use crate::variant::ScheduledVariant;

/// How long a worker above core size waits for a due task before it looks
/// again (the JDK's `DEFAULT_KEEPALIVE_MILLIS`). With zero core threads
/// the last worker never leaves while tasks are queued: it wakes this
/// often to look, 100 times a second, instead of spinning (T16).
// ANCHOR: keep_alive
pub const DEFAULT_KEEP_ALIVE: Duration = Duration::from_millis(10);
// ANCHOR_END: keep_alive

/// What a task's future holds: any value, whatever the task's type, so one
/// queue carries them all. [`ScheduledFuture<V>`] knows the type and reads
/// it back.
type Value = Box<dyn Any + Send>;

/// A task's sequence number before its queue numbered it.
const UNNUMBERED: u64 = 0;

// ANCHOR: task
/// A task in the scheduled pool: a [`FutureTask`] with a deadline, the
/// number that orders tasks due at the same time, its place in the queue,
/// and, if it repeats, its [`Period`]. Java's `ScheduledFutureTask`.
///
/// `shutdown_now` hands these back; a task rejected by the pool comes
/// back as one too.
pub struct ScheduledTask<J: ?Sized = dyn Job<Value>> {
    /// When it is due, in [`Deadline`] nanoseconds. Written only while the
    /// task is out of the queue: at creation, and by the worker between
    /// two runs of a periodic task, before it queues it again.
    deadline: AtomicU64,
    /// Its number among tasks due at the same time: 0 until the queue
    /// first takes it, then the queue's (see [`Delayed::number`]).
    sequence: AtomicU64,
    period: Option<Period>,
    /// Kept by the queue (see [`Delayed::heap_index`]).
    heap_index: AtomicUsize,
    /// The pool, to queue the task again and to remove it on cancel.
    /// Weak: a queued task must not keep its pool alive.
    scheduler: Weak<Scheduler>,
    /// Last: it ends with the job itself, of the closure's own type, so
    /// the task and its closure share one allocation. `J` is that type
    /// while the task is built, and `dyn Job` once it is an
    /// `Arc<ScheduledTask>`.
    future: FutureTask<Value, J>,
}
// ANCHOR_END: task

impl Delayed for ScheduledTask {
    fn deadline(&self) -> Deadline {
        ScheduledTask::deadline(self)
    }

    fn sequence(&self) -> u64 {
        // ORDERING: Relaxed: written once, by the queue under its lock,
        // and read by the queue under the same lock.
        self.sequence.load(Relaxed)
    }

    fn number(&self, next: u64) -> u64 {
        match self.sequence() {
            UNNUMBERED => {
                // ORDERING: as in `sequence`.
                self.sequence.store(next, Relaxed);
                next
            }
            kept => kept,
        }
    }

    fn heap_index(&self) -> &AtomicUsize {
        &self.heap_index
    }
}

impl ScheduledTask {
    /// When it is due (next, for a periodic task).
    pub fn deadline(&self) -> Deadline {
        // ORDERING: Relaxed is enough: the deadline changes only while the
        // task is out of the queue, by the one thread that holds it, and
        // the queue's lock orders that write before the queue's reads.
        // Anyone else reading it learns a time, never a decision.
        Deadline::from_nanos(self.deadline.load(Relaxed))
    }

    /// `None` for a one-shot task.
    pub fn period(&self) -> Option<Period> {
        self.period
    }

    /// Whether it repeats.
    pub fn is_periodic(&self) -> bool {
        self.period.is_some()
    }

    /// Its future's state.
    pub fn state(&self) -> FutureState {
        self.future.state()
    }

    /// Whether it was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.future.is_cancelled()
    }

    // ANCHOR: cancel
    /// Cancels it (see [`FutureTask::cancel`]); with the pool's
    /// remove-on-cancel policy (the default), it also leaves the queue at
    /// once, through its heap index, in O(log n) (T14's fix).
    pub fn cancel(self: &Arc<Self>, may_interrupt: bool) -> bool {
        let cancelled = self.future.cancel(may_interrupt);
        if cancelled
            && let Some(scheduler) = self.scheduler.upgrade()
            && scheduler.remove_on_cancel.load(SeqCst)
        {
            scheduler.remove(self);
        }
        cancelled
    }
    // ANCHOR_END: cancel
}

impl fmt::Debug for ScheduledTask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScheduledTask")
            .field("sequence", &self.sequence())
            .field("deadline", &self.deadline())
            .field("period", &self.period)
            .field("state", &self.state())
            .finish_non_exhaustive()
    }
}

// ANCHOR: run
/// What a worker does with a task it took: Java's
/// `ScheduledFutureTask.run`.
impl Runnable for Arc<ScheduledTask> {
    fn run(self) {
        let Some(scheduler) = self.scheduler.upgrade() else {
            // Its pool is gone (a task handed back, run later).
            self.future.cancel(false);
            return;
        };
        if !scheduler.can_run_in_current_run_state(&self) {
            self.cancel(false);
        } else if let Some(period) = self.period {
            let due = self.deadline();
            // Runs it, leaving the future `New`; false if it panicked or
            // was cancelled meanwhile: then it is not queued again.
            if self.future.run_and_reset() {
                let next = scheduler
                    .variant
                    .next_deadline(period, due, Deadline::now());
                // ORDERING: as in `ScheduledTask::deadline`.
                self.deadline.store(next.as_nanos(), Relaxed);
                scheduler.re_execute_periodic(self);
            }
        } else {
            self.future.run();
        }
    }
}
// ANCHOR_END: run

/// What the tasks and the pool's handle share: the core, the queue (a
/// second handle on the core's), and the policies.
struct Scheduler {
    core: Arc<Core<Arc<ScheduledTask>>>,
    queue: DelayedQueue<ScheduledTask>,
    continue_periodic: AtomicBool,
    execute_delayed: AtomicBool,
    remove_on_cancel: AtomicBool,
    variant: ScheduledVariant,
}

impl Scheduler {
    /// A task that runs `job`, in one allocation with it.
    fn new_task(
        self: &Arc<Self>,
        job: impl Job<Value> + 'static,
        deadline: Deadline,
        period: Option<Period>,
    ) -> Arc<ScheduledTask> {
        Arc::new(ScheduledTask {
            deadline: AtomicU64::new(deadline.as_nanos()),
            sequence: AtomicU64::new(UNNUMBERED),
            period,
            heap_index: AtomicUsize::new(NOT_QUEUED),
            scheduler: Arc::downgrade(self),
            future: FutureTask::with_job(job),
        })
    }

    // ANCHOR: can_run
    /// Whether a task may run (or be queued) in the pool's state now:
    /// always while running, never once stopped, and in between as the
    /// shutdown policies say.
    fn can_run_in_current_run_state(&self, task: &ScheduledTask) -> bool {
        let c = self.core.ctl.get();
        if c.is_running() {
            return true;
        }
        if c.at_least(RunState::Stop) {
            return false;
        }
        match task.period {
            Some(_) => self.continue_periodic.load(SeqCst),
            None => self.execute_delayed.load(SeqCst) || task.deadline() <= Deadline::now(),
        }
    }
    // ANCHOR_END: can_run

    // ANCHOR: delayed_execute
    /// Queues a new task: Java's `delayedExecute`. Refused (through the
    /// policy) once the pool is shut down; cancelled if a shutdown came
    /// while it was being queued and the policies do not let it run.
    fn delayed_execute(
        self: &Arc<Self>,
        task: &Arc<ScheduledTask>,
    ) -> Result<(), Rejected<Arc<ScheduledTask>>> {
        if !self.core.ctl.get().is_running() {
            let outcome = self.core.reject(Arc::clone(task), Reason::Shutdown);
            if outcome.is_ok() {
                // Discarded: cancel it, or its `get` would wait forever.
                task.future.cancel(false);
            }
            return outcome;
        }
        kit::pause_point("threadpool-executor::scheduled: saw the pool running, not yet queued");
        self.queue
            .offer(Arc::clone(task))
            .expect("a new task is in no queue");
        // Look again once it is queued (T7's lesson): a shutdown that
        // came meanwhile did not see it, and may have ended the pool.
        if !self.can_run_in_current_run_state(task) && self.remove(task) {
            task.future.cancel(false);
        } else {
            self.variant.ensure_prestart(&self.core);
        }
        Ok(())
    }
    // ANCHOR_END: delayed_execute

    // ANCHOR: re_execute_periodic
    /// Queues a periodic task again after a run, unless the state forbids
    /// it: Java's `reExecutePeriodic`. As `delayed_execute`, but a task
    /// that may not run is cancelled, not rejected.
    fn re_execute_periodic(self: &Arc<Self>, task: Arc<ScheduledTask>) {
        if self.can_run_in_current_run_state(&task) {
            kit::pause_point("threadpool-executor::scheduled: ran, not yet queued again");
            self.queue
                .offer(Arc::clone(&task))
                .expect("a task that just ran is in no queue");
            // A shutdown, or a cancel that found it out of the queue (so
            // removed nothing), may have come while it ran: look again.
            let stale = !self.can_run_in_current_run_state(&task)
                || (task.is_cancelled() && self.remove_on_cancel.load(SeqCst));
            if !stale || !self.remove(&task) {
                self.variant.ensure_prestart(&self.core);
                return;
            }
        }
        task.future.cancel(false);
    }
    // ANCHOR_END: re_execute_periodic

    /// Takes a task out of the queue; a shut-down pool whose queue just
    /// emptied may terminate.
    fn remove(&self, task: &Arc<ScheduledTask>) -> bool {
        let removed = self.queue.remove_item(task);
        if removed {
            self.core.try_terminate();
        }
        removed
    }

    // ANCHOR: on_shutdown
    /// The pool's shutdown step (Java's `onShutdown`): cancels and removes
    /// the queued tasks the policies do not let run after shutdown, and
    /// any cancelled task still there.
    fn on_shutdown(&self) {
        let keep_periodic = self.continue_periodic.load(SeqCst);
        let keep_delayed = self.execute_delayed.load(SeqCst);
        let now = Deadline::now();
        for task in self.queue.snapshot() {
            let drop_it = task.is_cancelled()
                || match task.period {
                    Some(_) => !keep_periodic,
                    // A delayed task already due runs either way.
                    None => !keep_delayed && task.deadline() > now,
                };
            if drop_it && self.queue.remove_item(&task) {
                task.future.cancel(false);
            }
        }
        self.core.try_terminate();
    }
    // ANCHOR_END: on_shutdown
}

// ANCHOR: ensure_prestart
/// Makes sure a worker exists to wait for the queue's head: one more core
/// worker, or, with zero core threads, one worker all the same
/// (JDK-7091003's fix). Java's `ensurePrestart`.
pub(crate) fn ensure_prestart(core: &Arc<Core<Arc<ScheduledTask>>>) {
    let workers = core.ctl.get().worker_count();
    if workers < core.config.core() {
        let _ = core.add_worker(None, true);
    } else if workers == 0 {
        let _ = core.add_worker(None, false);
    }
}
// ANCHOR_END: ensure_prestart

/// The future of a scheduled task: wait for its value, cancel it, ask how
/// long until it is due. Java's `ScheduledFuture`. Clones share the task.
///
/// A periodic task's future (`V` is `()`) completes only when the task
/// stops: cancelled, or panicked.
pub struct ScheduledFuture<V> {
    task: Arc<ScheduledTask>,
    value: PhantomData<fn() -> V>,
}

impl<V> Clone for ScheduledFuture<V> {
    fn clone(&self) -> Self {
        ScheduledFuture {
            task: Arc::clone(&self.task),
            value: PhantomData,
        }
    }
}

impl<V> fmt::Debug for ScheduledFuture<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ScheduledFuture").field(&self.task).finish()
    }
}

/// Reads the value back as the type it was scheduled with.
fn read<V: Clone + 'static>(value: &Value) -> V {
    value
        .downcast_ref::<V>()
        .expect("a ScheduledFuture<V> holds a task whose job returns V")
        .clone()
}

impl<V: Clone + 'static> ScheduledFuture<V> {
    /// Waits until the task is done; see [`FutureTask::get`].
    ///
    /// # Errors
    /// [`FutureError::Panicked`] or [`FutureError::Cancelled`].
    pub fn get(&self) -> Result<V, FutureError> {
        self.task.future.get_with(None, read::<V>)
    }

    /// Waits at most `timeout`; see [`FutureTask::get_timeout`].
    ///
    /// # Errors
    /// As [`ScheduledFuture::get`], and [`FutureError::Timeout`].
    pub fn get_timeout(&self, timeout: Duration) -> Result<V, FutureError> {
        self.task.future.get_with(Some(timeout), read::<V>)
    }
}

impl<V> ScheduledFuture<V> {
    /// Cancels the task; see [`ScheduledTask::cancel`].
    pub fn cancel(&self, may_interrupt: bool) -> bool {
        self.task.cancel(may_interrupt)
    }

    /// Whether the task is done: ran (a one-shot task), panicked, or was
    /// cancelled.
    pub fn is_done(&self) -> bool {
        self.task.future.is_done()
    }

    /// Whether it was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.task.is_cancelled()
    }

    /// Its future's state.
    pub fn state(&self) -> FutureState {
        self.task.state()
    }

    /// When it is due (next, for a periodic task).
    pub fn deadline(&self) -> Deadline {
        self.task.deadline()
    }

    /// How long until it is due; zero once due. Java's `getDelay`.
    pub fn remaining_delay(&self) -> Duration {
        self.task.deadline().remaining()
    }

    /// `None` for a one-shot task.
    pub fn period(&self) -> Option<Period> {
        self.task.period
    }

    /// The task itself: what [`ScheduledThreadPool::remove`] takes, and
    /// what `shutdown_now` would hand back. In Java the future returned by
    /// `schedule` is the task.
    pub fn task(&self) -> &Arc<ScheduledTask> {
        &self.task
    }
}

/// Why a periodic task was not scheduled.
#[derive(Debug)]
pub enum ScheduleError {
    /// A period (or delay) of zero: Java's `IllegalArgumentException`.
    ZeroPeriod,
    /// The pool refused it (it is shut down); the task comes back.
    Rejected(Rejected<Arc<ScheduledTask>>),
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::ZeroPeriod => {
                f.write_str("a periodic task needs a period (or delay) longer than zero")
            }
            ScheduleError::Rejected(rejected) => rejected.fmt(f),
        }
    }
}

impl std::error::Error for ScheduleError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ScheduleError::ZeroPeriod => None,
            ScheduleError::Rejected(rejected) => Some(rejected),
        }
    }
}

impl From<Rejected<Arc<ScheduledTask>>> for ScheduleError {
    fn from(rejected: Rejected<Arc<ScheduledTask>>) -> Self {
        ScheduleError::Rejected(rejected)
    }
}

/// A scheduled pool's configuration: core size, thread factory, rejection
/// policy, the three policies, and the variant. The defaults: one core
/// thread, threads named `pool-N-thread-M`, [`Abort`], delayed tasks run
/// after shutdown, periodic ones do not, cancelled tasks leave the queue.
///
/// The maximum size is unlimited and the keep-alive is
/// [`DEFAULT_KEEP_ALIVE`], as in the JDK: the queue never refuses a task,
/// so only core threads are ever started, and one more when the core
/// size is zero.
pub struct ScheduledBuilder {
    core: usize,
    factory: Option<Box<dyn ThreadFactory>>,
    policy: Box<dyn RejectPolicy<Arc<ScheduledTask>>>,
    continue_periodic: bool,
    execute_delayed: bool,
    remove_on_cancel: bool,
    wait: Wait,
    variant: ScheduledVariant,
}

impl Default for ScheduledBuilder {
    fn default() -> Self {
        ScheduledBuilder {
            core: 1,
            factory: None,
            policy: Box::new(Abort),
            continue_periodic: false,
            execute_delayed: true,
            remove_on_cancel: true,
            wait: Wait::LeaderSuccessor,
            variant: ScheduledVariant::Fixed,
        }
    }
}

impl ScheduledBuilder {
    /// Threads kept to wait for and run tasks. Zero is allowed (one
    /// worker then comes and goes with the queued tasks), as in the JDK,
    /// which advises against it.
    pub fn core_pool_size(mut self, core: usize) -> Self {
        self.core = core;
        self
    }

    /// Where threads come from (default: [`NamedThreads::new`]).
    pub fn thread_factory(mut self, factory: impl ThreadFactory) -> Self {
        self.factory = Some(Box::new(factory));
        self
    }

    /// What happens to a task scheduled after shutdown (default:
    /// [`Abort`], which hands it back).
    pub fn reject_policy(mut self, policy: impl RejectPolicy<Arc<ScheduledTask>>) -> Self {
        self.policy = Box::new(policy);
        self
    }

    /// Whether periodic tasks go on after `shutdown` (default: no). Java's
    /// `setContinueExistingPeriodicTasksAfterShutdownPolicy`.
    pub fn continue_periodic_after_shutdown(mut self, value: bool) -> Self {
        self.continue_periodic = value;
        self
    }

    /// Whether delayed one-shot tasks still run after `shutdown` (default:
    /// yes). Java's `setExecuteExistingDelayedTasksAfterShutdownPolicy`.
    pub fn execute_delayed_after_shutdown(mut self, value: bool) -> Self {
        self.execute_delayed = value;
        self
    }

    /// Whether a cancelled task leaves the queue at once (default: yes;
    /// Java's default is no: see the module docs, T14). Java's
    /// `setRemoveOnCancelPolicy`.
    pub fn remove_on_cancel(mut self, value: bool) -> Self {
        self.remove_on_cancel = value;
        self
    }

    /// How idle workers wait for the head (default: leader-successor, one
    /// wake-up per fired task; leader-follower is the JDK's, two; the herd
    /// is T10's bug).
    pub fn queue_wait(mut self, wait: Wait) -> Self {
        self.wait = wait;
        self
    }

    /// Which version to build: [`ScheduledVariant::Fixed`] unless a lesson
    /// asks for a buggy one. Hidden from the docs, as the buggy versions
    /// are: it is for the tests and the exercises.
    #[doc(hidden)]
    pub fn variant(mut self, variant: ScheduledVariant) -> Self {
        self.variant = variant;
        self
    }

    /// Checks the configuration and builds the pool. No thread starts
    /// until the first task.
    ///
    /// # Errors
    /// [`ConfigError::TooLarge`] for a core size the ctl word cannot count.
    pub fn build(self) -> Result<ScheduledThreadPool, ConfigError> {
        check_sizes(self.core, CAPACITY)?;
        let keep_alive = self.variant.keep_alive();
        let queue = DelayedQueue::with_wait(self.wait);
        let factory = self
            .factory
            .unwrap_or_else(|| Box::new(NamedThreads::new()));
        let mut pool = None;
        // The core calls our shutdown step, which needs the scheduler,
        // which holds the core: the hook holds the scheduler weakly.
        let scheduler = Arc::new_cyclic(|scheduler: &Weak<Scheduler>| {
            let hooks = shutdown_hook(scheduler.clone());
            let built = ThreadPool::from_core(Core::new(Settings {
                core: self.core,
                maximum: CAPACITY,
                keep_alive,
                allow_core_timeout: false,
                queue: Box::new(queue.clone()),
                factory,
                policy: self.policy,
                hooks,
                variant: Variant::Fixed,
            }));
            let core = Arc::clone(built.core());
            pool = Some(built);
            Scheduler {
                core,
                queue,
                continue_periodic: AtomicBool::new(self.continue_periodic),
                execute_delayed: AtomicBool::new(self.execute_delayed),
                remove_on_cancel: AtomicBool::new(self.remove_on_cancel),
                variant: self.variant,
            }
        });
        Ok(ScheduledThreadPool {
            pool: pool.expect("built in new_cyclic"),
            scheduler,
        })
    }
}

/// The core's hooks for a scheduled pool: only its shutdown step, which
/// calls the scheduler's (held weakly: the scheduler holds the core).
fn shutdown_hook(scheduler: Weak<Scheduler>) -> Hooks<Arc<ScheduledTask>> {
    let on_shutdown = move || {
        if let Some(scheduler) = scheduler.upgrade() {
            scheduler.on_shutdown();
        }
    };
    Hooks {
        before_execute: None,
        after_execute: None,
        on_panic: None,
        on_shutdown: Some(Box::new(on_shutdown)),
        terminated: None,
        on_discard: None,
    }
}

/// A pool that runs tasks after a delay, or periodically:
/// ScheduledThreadPoolExecutor. See the module docs.
///
/// ```
/// use std::sync::mpsc;
/// use std::time::Duration;
/// use threadpool_executor::scheduled::ScheduledThreadPool;
///
/// let pool = ScheduledThreadPool::new(2)?;
/// let answer = pool.schedule(Duration::from_millis(5), || 6 * 7).unwrap();
/// let (tick, ticks) = mpsc::channel();
/// let ticker = pool
///     .schedule_at_fixed_rate(Duration::ZERO, Duration::from_millis(1), move || {
///         let _ = tick.send(());
///     })
///     .unwrap();
/// assert_eq!(answer.get(), Ok(42));
/// ticks.recv().unwrap(); // the first run, whenever a worker got to it
/// assert!(ticker.cancel(false));
/// # Ok::<(), threadpool_executor::error::ConfigError>(())
/// ```
///
/// Dropping the pool stops it as `shutdown_now` does, cancels every task
/// that never started (their `get` returns `Cancelled`), and joins every
/// thread. To let delayed tasks run first, `shutdown` and
/// `await_termination` before the drop.
pub struct ScheduledThreadPool {
    // Dropped first: its drop joins the workers while the scheduler, which
    // its shutdown step needs, is still alive.
    pool: ThreadPool<Arc<ScheduledTask>>,
    scheduler: Arc<Scheduler>,
}

impl ScheduledThreadPool {
    /// A pool with `core` threads and the defaults of [`ScheduledBuilder`].
    ///
    /// # Errors
    /// As [`ScheduledBuilder::build`].
    pub fn new(core: usize) -> Result<ScheduledThreadPool, ConfigError> {
        ScheduledThreadPool::builder().core_pool_size(core).build()
    }

    /// A [`ScheduledBuilder`] with the defaults.
    pub fn builder() -> ScheduledBuilder {
        ScheduledBuilder::default()
    }

    // ANCHOR: schedule
    /// Runs `job` once, `delay` from now (zero: as soon as a worker is
    /// free).
    ///
    /// # Errors
    /// After shutdown, whatever the rejection policy says: with [`Abort`],
    /// a [`Rejected`] holding the task.
    pub fn schedule<V, F>(
        &self,
        delay: Duration,
        job: F,
    ) -> Result<ScheduledFuture<V>, Rejected<Arc<ScheduledTask>>>
    where
        F: FnOnce() -> V + Send + 'static,
        V: Send + 'static,
    {
        let job = Once::new(move || Box::new(job()) as Value);
        let task = self
            .scheduler
            .new_task(job, Deadline::now().after(delay), None);
        self.scheduler.delayed_execute(&task)?;
        Ok(ScheduledFuture {
            task,
            value: PhantomData,
        })
    }

    /// Runs `job` first `initial_delay` from now, then again and again
    /// as `period` says, until it is cancelled, panics, or the pool shuts
    /// down (see the shutdown policies).
    ///
    /// # Errors
    /// [`ScheduleError::ZeroPeriod`]; after shutdown,
    /// [`ScheduleError::Rejected`] (with [`Abort`]).
    pub fn schedule_periodic<F>(
        &self,
        initial_delay: Duration,
        period: Period,
        mut job: F,
    ) -> Result<ScheduledFuture<()>, ScheduleError>
    where
        F: FnMut() + Send + 'static,
    {
        if period.duration().is_zero() {
            return Err(ScheduleError::ZeroPeriod);
        }
        let job = Again::new(move || {
            job();
            Box::new(()) as Value
        });
        let deadline = Deadline::now().after(initial_delay);
        let task = self.scheduler.new_task(job, deadline, Some(period));
        self.scheduler.delayed_execute(&task)?;
        Ok(ScheduledFuture {
            task,
            value: PhantomData,
        })
    }
    // ANCHOR_END: schedule

    /// Runs `job` at `initial_delay`, `initial_delay + period`,
    /// `initial_delay + 2 * period`, ...: next = previous deadline +
    /// period. A run that takes longer than the period delays the next;
    /// they never overlap.
    ///
    /// # Errors
    /// As [`ScheduledThreadPool::schedule_periodic`].
    pub fn schedule_at_fixed_rate<F>(
        &self,
        initial_delay: Duration,
        period: Duration,
        job: F,
    ) -> Result<ScheduledFuture<()>, ScheduleError>
    where
        F: FnMut() + Send + 'static,
    {
        self.schedule_periodic(initial_delay, Period::FixedRate(period), job)
    }

    /// Runs `job` at `initial_delay`, then `delay` after each run ends:
    /// next = end of run + delay.
    ///
    /// # Errors
    /// As [`ScheduledThreadPool::schedule_periodic`].
    pub fn schedule_with_fixed_delay<F>(
        &self,
        initial_delay: Duration,
        delay: Duration,
        job: F,
    ) -> Result<ScheduledFuture<()>, ScheduleError>
    where
        F: FnMut() + Send + 'static,
    {
        self.schedule_periodic(initial_delay, Period::FixedDelay(delay), job)
    }

    /// Runs `job` as soon as a worker is free: `schedule` with no delay,
    /// as the JDK's `execute` is.
    ///
    /// # Errors
    /// As [`ScheduledThreadPool::schedule`].
    pub fn execute<F>(&self, job: F) -> Result<(), Rejected<Arc<ScheduledTask>>>
    where
        F: FnOnce() + Send + 'static,
    {
        self.schedule(Duration::ZERO, job).map(drop)
    }

    /// Takes no new task. Delayed tasks still run and periodic ones are
    /// cancelled, unless the policies say otherwise; does not wait (see
    /// [`ScheduledThreadPool::await_termination`]).
    pub fn shutdown(&self) {
        self.pool.shutdown();
    }

    /// Takes no new task, runs no queued one, interrupts the running ones,
    /// and hands back every task that never started (delayed and
    /// periodic), in deadline order. Their futures are left as they are:
    /// cancel or run them.
    pub fn shutdown_now(&self) -> Vec<Arc<ScheduledTask>> {
        self.pool.shutdown_now()
    }

    /// Waits until terminated, for at most `timeout`; see
    /// [`ThreadPool::await_termination`].
    pub fn await_termination(&self, timeout: Duration) -> bool {
        self.pool.await_termination(timeout)
    }

    /// Whether `shutdown` or `shutdown_now` was called.
    pub fn is_shutdown(&self) -> bool {
        self.pool.is_shutdown()
    }

    /// Shut down, not terminated yet.
    pub fn is_terminating(&self) -> bool {
        self.pool.is_terminating()
    }

    /// Terminated: nothing will run here again.
    pub fn is_terminated(&self) -> bool {
        self.pool.is_terminated()
    }

    /// The ctl word now.
    pub fn ctl(&self) -> Word {
        self.pool.ctl()
    }

    /// The thread factory workers are started with now; see
    /// [`ThreadPool::thread_factory`].
    ///
    /// ```
    /// use threadpool_executor::factory::{NamedThreads, ThreadFactory};
    /// use threadpool_executor::scheduled::ScheduledThreadPool;
    ///
    /// let pool = ScheduledThreadPool::new(1)?;
    /// let inner = pool.thread_factory();
    /// pool.set_thread_factory(move |body| inner.new_thread(body));
    /// pool.set_thread_factory(NamedThreads::with_prefix("sched-doc-"));
    /// let ran_on = pool.schedule(std::time::Duration::ZERO, || {
    ///     std::thread::current().name().map(str::to_owned)
    /// })?;
    /// assert_eq!(ran_on.get().unwrap().as_deref(), Some("sched-doc-1"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn thread_factory(&self) -> Arc<dyn ThreadFactory> {
        self.pool.thread_factory()
    }

    /// Starts every worker from now on with `factory`: Java's
    /// `setThreadFactory`.
    pub fn set_thread_factory(&self, factory: impl ThreadFactory) {
        self.pool.set_thread_factory(factory);
    }

    /// The rejection policy now; see [`ThreadPool::reject_policy`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use threadpool_executor::reject::{Discard, RejectPolicy, Saturated};
    /// use threadpool_executor::scheduled::{ScheduledTask, ScheduledThreadPool};
    ///
    /// let pool = ScheduledThreadPool::new(1)?;
    /// let abort = pool.reject_policy();
    /// pool.set_reject_policy(Discard);
    /// pool.shutdown();
    /// assert!(pool.schedule(std::time::Duration::ZERO, || ()).is_ok(), "discarded");
    /// pool.set_reject_policy(move |t: Arc<ScheduledTask>, s: &Saturated<'_, _>| abort.rejected(t, s));
    /// assert!(pool.schedule(std::time::Duration::ZERO, || ()).is_err(), "Abort again");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reject_policy(&self) -> Arc<dyn RejectPolicy<Arc<ScheduledTask>>> {
        self.pool.reject_policy()
    }

    /// Hands every task refused from now on to `policy`: Java's
    /// `setRejectedExecutionHandler`.
    pub fn set_reject_policy(&self, policy: impl RejectPolicy<Arc<ScheduledTask>>) {
        self.pool.set_reject_policy(policy);
    }

    /// The delayed queue, to look at (its length counts cancelled tasks
    /// that are still in it).
    pub fn queue(&self) -> &DelayedQueue<ScheduledTask> {
        &self.scheduler.queue
    }

    /// Threads in the pool now.
    pub fn pool_size(&self) -> usize {
        self.pool.pool_size()
    }

    /// Threads running a task now.
    pub fn active_count(&self) -> usize {
        self.pool.active_count()
    }

    /// The most threads the pool has had at once.
    pub fn largest_pool_size(&self) -> usize {
        self.pool.largest_pool_size()
    }

    /// Runs completed: each run of a periodic task counts.
    pub fn completed_task_count(&self) -> u64 {
        self.pool.completed_task_count()
    }

    /// Takes `task` out of the queue if it waits there, and cancels its
    /// future: Java's `remove(Runnable)`, for the task of a
    /// [`ScheduledFuture::task`] or one handed back. False if it was not
    /// queued (it runs now, ran, or was taken out already). Java leaves a
    /// removed task's future pending for ever; ours cancels it, so that no
    /// `get` waits on a task nobody holds. Works after shutdown too.
    ///
    /// ```
    /// use threadpool_executor::queue::WorkQueue;
    /// use threadpool_executor::scheduled::ScheduledThreadPool;
    /// use std::time::Duration;
    ///
    /// let pool = ScheduledThreadPool::new(1)?;
    /// let later = pool.schedule(Duration::from_secs(3600), || 1)?;
    /// assert!(pool.remove(later.task()));
    /// assert!(later.is_cancelled() && pool.queue().len() == 0);
    /// assert!(!pool.remove(later.task()), "taken out already");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    // ANCHOR: remove
    pub fn remove(&self, task: &Arc<ScheduledTask>) -> bool {
        let removed = self.scheduler.remove(task);
        if removed {
            task.future.cancel(false);
        }
        removed
    }
    // ANCHOR_END: remove

    /// Takes every cancelled task out of the queue and returns how many:
    /// Java's `purge()`. Only a pool built with
    /// [`remove_on_cancel(false)`](ScheduledBuilder::remove_on_cancel)
    /// keeps any (T14); with the default, a cancel takes its task out at
    /// once and there is nothing to purge. Works after shutdown too.
    ///
    /// ```
    /// use threadpool_executor::queue::WorkQueue;
    /// use threadpool_executor::scheduled::ScheduledThreadPool;
    /// use std::time::Duration;
    ///
    /// let pool = ScheduledThreadPool::builder().remove_on_cancel(false).build()?;
    /// let tasks: Vec<_> = (0..5)
    ///     .map(|_| pool.schedule(Duration::from_secs(3600), || ()))
    ///     .collect::<Result<_, _>>()?;
    /// tasks[1].cancel(false);
    /// tasks[3].cancel(false);
    /// assert_eq!(pool.queue().len(), 5, "cancelled, still queued");
    /// assert_eq!(pool.purge(), 2);
    /// assert_eq!(pool.queue().len(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    // ANCHOR: purge
    pub fn purge(&self) -> usize {
        let queue = &self.scheduler.queue;
        let purged = queue
            .snapshot()
            .iter()
            .filter(|task| task.is_cancelled() && queue.remove_item(task))
            .count();
        // An emptier queue may let a shut-down pool end.
        self.scheduler.core.try_terminate();
        purged
    }
    // ANCHOR_END: purge

    /// Runs completed and running, and tasks queued.
    pub fn task_count(&self) -> u64 {
        self.pool.task_count()
    }

    /// The core size.
    pub fn core_pool_size(&self) -> usize {
        self.pool.core_pool_size()
    }

    /// Changes the core size; see [`ThreadPool::set_core_pool_size`].
    ///
    /// # Errors
    /// [`ConfigError::TooLarge`].
    pub fn set_core_pool_size(&self, core: usize) -> Result<(), ConfigError> {
        self.pool.set_core_pool_size(core)
    }

    /// How long a worker above core size waits for a due task.
    pub fn keep_alive(&self) -> Duration {
        self.pool.keep_alive()
    }

    /// Starts every missing core thread; returns how many it started.
    pub fn prestart_all_core_threads(&self) -> usize {
        self.pool.prestart_all_core_threads()
    }

    /// Whether periodic tasks go on after `shutdown`.
    pub fn continues_periodic_after_shutdown(&self) -> bool {
        self.scheduler.continue_periodic.load(SeqCst)
    }

    /// Sets it; `false` after `shutdown` cancels the queued periodic tasks
    /// now.
    pub fn set_continue_periodic_after_shutdown(&self, value: bool) {
        self.scheduler.continue_periodic.store(value, SeqCst);
        if !value && self.is_shutdown() {
            self.scheduler.on_shutdown();
        }
    }

    /// Whether delayed one-shot tasks still run after `shutdown`.
    pub fn executes_delayed_after_shutdown(&self) -> bool {
        self.scheduler.execute_delayed.load(SeqCst)
    }

    /// Sets it; `false` after `shutdown` cancels the queued delayed tasks
    /// that are not due yet, now.
    pub fn set_execute_delayed_after_shutdown(&self, value: bool) {
        self.scheduler.execute_delayed.store(value, SeqCst);
        if !value && self.is_shutdown() {
            self.scheduler.on_shutdown();
        }
    }

    /// Whether a cancelled task leaves the queue at once.
    pub fn removes_on_cancel(&self) -> bool {
        self.scheduler.remove_on_cancel.load(SeqCst)
    }

    /// Sets it, for tasks cancelled from now on.
    pub fn set_remove_on_cancel(&self, value: bool) {
        self.scheduler.remove_on_cancel.store(value, SeqCst);
    }
}

impl Drop for ScheduledThreadPool {
    /// Stops the pool and cancels what never started; the inner pool's
    /// drop then joins every thread.
    fn drop(&mut self) {
        for task in self.pool.shutdown_now() {
            task.future.cancel(false);
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    /// The queue numbers a task the first time it takes it, in the order
    /// the tasks came, and a task queued again keeps its number: the JDK's
    /// FIFO among equal deadlines, without an atomic counter.
    #[test]
    fn tasks_are_numbered_when_first_queued_and_keep_their_number() {
        let pool = ScheduledThreadPool::new(1).expect("a pool");
        let scheduler = &pool.scheduler;
        let due = Deadline::now().after(Duration::from_secs(3600));
        let tasks: Vec<_> = (0..3)
            .map(|_| scheduler.new_task(Once::new(|| Box::new(()) as Value), due, None))
            .collect();
        assert!(tasks.iter().all(|t| t.sequence() == UNNUMBERED));
        for task in tasks.iter().rev() {
            scheduler.delayed_execute(task).expect("a running pool");
        }
        let numbers: Vec<u64> = tasks.iter().map(|t| t.sequence()).collect();
        assert!(
            numbers[2] < numbers[1] && numbers[1] < numbers[0],
            "numbered in the order queued (last made, first queued): {numbers:?}"
        );
        let kept = tasks[1].sequence();
        assert!(scheduler.remove(&tasks[1]));
        scheduler
            .delayed_execute(&tasks[1])
            .expect("a running pool");
        assert_eq!(tasks[1].sequence(), kept, "queued again, same number");
    }
}
