//! The pool: ThreadPoolExecutor in Rust.
//!
//! - [`ThreadPool::execute`] takes ThreadPoolExecutor's three steps (T1):
//!   below core size, start a worker with the task as its first task;
//!   else queue it, and look at the pool again once it is queued (T7);
//!   else start a worker up to the maximum size; else reject it (T3).
//! - The run state and the worker count live in one atomic word, changed
//!   by CAS ([`crate::ctl`], T4).
//! - Workers (see [`crate::worker`]) take tasks from the queue, wait at
//!   most the keep-alive when they may time out (T5), and a worker that
//!   dies of a panic is replaced (T6).
//! - [`ThreadPool::shutdown`] lets the queue drain; [`ThreadPool::shutdown_now`]
//!   interrupts every worker (stage 5's cooperative interrupt) and hands
//!   back what never started (T8). Dropping the pool does what
//!   `shutdown_now` does and joins every thread, unless
//!   [`ThreadPool::set_drain_on_drop`] asked it to let the queue drain.
//!
//! Locks, in the order they nest: `main` (the worker set and the
//! statistics), a worker's run lock, an interrupt token's lock, the
//! queue's lock. `execute` takes no lock at all on its way to the queue's.

use std::mem;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::time::Duration;

use parking_lot::RwLock;

use crate::builder::{Builder, Hooks, check_keep_alive, check_sizes};
use crate::ctl::{Ctl, RunState, Word};
use crate::error::{ConfigError, Reason, Rejected};
use crate::factory::{Body, JoinHandle, ThreadFactory};
use crate::queue::{Ticket, WorkQueue};
use crate::reject::{RejectPolicy, Saturated};
use crate::sync::{self, Arc, Condvar, Mutex};
use crate::task::{Place, Runnable, Task, TaskId};
use crate::worker::{self, Worker};

#[doc(hidden)]
pub use crate::variant::Variant;

/// The parameters a caller may change while the pool runs. Read without a
/// lock on every `execute` and every wait for a task, as Java reads its
/// volatile fields; the setters take `setters` so that `core <= maximum`
/// holds between any two of them.
pub(crate) struct Config {
    core: AtomicUsize,
    maximum: AtomicUsize,
    /// In nanoseconds; `u64::MAX` is as good as forever.
    keep_alive: AtomicU64,
    allow_core_timeout: AtomicBool,
    setters: Mutex<()>,
}

impl Config {
    #[inline]
    pub(crate) fn core(&self) -> usize {
        self.core.load(SeqCst)
    }

    #[inline]
    pub(crate) fn maximum(&self) -> usize {
        self.maximum.load(SeqCst)
    }

    #[inline]
    pub(crate) fn keep_alive(&self) -> Duration {
        Duration::from_nanos(self.keep_alive.load(SeqCst))
    }

    #[inline]
    pub(crate) fn allow_core_timeout(&self) -> bool {
        self.allow_core_timeout.load(SeqCst)
    }
}

/// A number for each pool, so that one pool's [`TaskId`] never names
/// another's task.
fn next_serial() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, SeqCst)
}

fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

/// What `main` guards: the workers, and what outlives them.
pub(crate) struct Workers<T> {
    pub(crate) set: Vec<Arc<Worker<T>>>,
    /// The most workers the set has held at once.
    largest: usize,
    /// Tasks completed by workers that have left the set.
    pub(crate) completed: u64,
    /// Every thread not joined yet, running or finished.
    threads: Vec<JoinHandle>,
}

/// Everything the pool's handle and its workers share.
pub(crate) struct Core<T> {
    pub(crate) ctl: Ctl,
    pub(crate) queue: Box<dyn WorkQueue<T>>,
    pub(crate) main: Mutex<Workers<T>>,
    /// Notified (under `main`) when the state becomes TERMINATED.
    termination: Condvar,
    pub(crate) config: Config,
    /// Settable while the pool runs, as Java's `setThreadFactory`: read
    /// (the `Arc` cloned out) only when a worker starts.
    factory: RwLock<Arc<dyn ThreadFactory>>,
    /// Settable while the pool runs, as Java's
    /// `setRejectedExecutionHandler`: read only when a task is refused.
    policy: RwLock<Arc<dyn RejectPolicy<T>>>,
    pub(crate) hooks: Hooks<T>,
    discarded: AtomicU64,
    pub(crate) variant: Variant,
    /// This pool's number, in every [`TaskId`] it gives.
    serial: u64,
    /// How many tasks got an id without a ticket (never queued).
    unqueued_ids: AtomicU64,
    /// What a drop does: shut down and wait (`true`), or stop.
    drain_on_drop: AtomicBool,
    /// Tickets of tasks whose futures were cancelled while they may have
    /// been queued: what `purge` looks for.
    cancelled: Mutex<Cancelled>,
}

/// The tickets `purge` will look for, and when to forget those whose task
/// has left the queue anyway.
struct Cancelled {
    tickets: Vec<Ticket>,
    /// Above this many, forget the tickets no longer queued.
    limit: usize,
}

/// Fewest tickets `Cancelled` holds before it forgets any.
const CANCELLED_SLACK: usize = 64;

/// Why `add_worker` started no worker, with the first task handed back.
pub(crate) struct NotAdded<T> {
    pub(crate) task: Option<T>,
    pub(crate) reason: Reason,
}

/// What a core is made of: a builder's settings, checked. The plain pool's
/// [`Builder`] and the scheduled pool's each fill one in.
pub(crate) struct Settings<T> {
    pub(crate) core: usize,
    pub(crate) maximum: usize,
    pub(crate) keep_alive: Duration,
    pub(crate) allow_core_timeout: bool,
    pub(crate) queue: Box<dyn WorkQueue<T>>,
    pub(crate) factory: Box<dyn ThreadFactory>,
    pub(crate) policy: Box<dyn RejectPolicy<T>>,
    pub(crate) hooks: Hooks<T>,
    pub(crate) variant: Variant,
}

impl<T: Runnable> Core<T> {
    pub(crate) fn new(settings: Settings<T>) -> Core<T> {
        let Settings {
            core,
            maximum,
            keep_alive,
            allow_core_timeout,
            queue,
            factory,
            policy,
            hooks,
            variant,
        } = settings;
        Core {
            ctl: Ctl::new(),
            queue,
            main: Mutex::new(Workers {
                set: Vec::new(),
                largest: 0,
                completed: 0,
                threads: Vec::new(),
            }),
            termination: Condvar::new(),
            config: Config {
                core: AtomicUsize::new(core),
                maximum: AtomicUsize::new(maximum),
                keep_alive: AtomicU64::new(nanos(keep_alive)),
                allow_core_timeout: AtomicBool::new(allow_core_timeout),
                setters: Mutex::new(()),
            },
            factory: RwLock::new(Arc::from(factory)),
            policy: RwLock::new(Arc::from(policy)),
            hooks,
            discarded: AtomicU64::new(0),
            variant,
            serial: next_serial(),
            unqueued_ids: AtomicU64::new(0),
            drain_on_drop: AtomicBool::new(false),
            cancelled: Mutex::new(Cancelled {
                tickets: Vec::new(),
                limit: CANCELLED_SLACK,
            }),
        }
    }

    /// The id of a task `execute` accepted, queued under `ticket` or not.
    fn task_id(&self, ticket: Option<Ticket>) -> TaskId {
        let place = match ticket {
            Some(Ticket(ticket)) => Place::Queued(ticket),
            None => Place::Elsewhere(self.unqueued_ids.fetch_add(1, SeqCst)),
        };
        TaskId {
            pool: self.serial,
            place,
        }
    }

    /// The ticket of `id`, if it is one of this pool's queued tasks.
    fn ticket_of(&self, id: TaskId) -> Option<Ticket> {
        if id.pool == self.serial {
            id.ticket()
        } else {
            None
        }
    }

    /// A submitted task's future was cancelled: remember its ticket for
    /// `purge`. Now and then, forget the tickets whose task has left the
    /// queue, so that a pool never purged keeps no more of them than it
    /// has queued tasks (give or take).
    pub(crate) fn cancelled_while_queued(&self, id: TaskId) {
        let Some(ticket) = self.ticket_of(id) else {
            return;
        };
        let mut cancelled = self.cancelled.lock();
        cancelled.tickets.push(ticket);
        if cancelled.tickets.len() > cancelled.limit {
            cancelled
                .tickets
                .retain(|&ticket| self.queue.contains(ticket));
            cancelled.limit = 2 * cancelled.tickets.len() + CANCELLED_SLACK;
        }
    }

    // ANCHOR: execute
    /// ThreadPoolExecutor's three steps: the queue's ticket if the task
    /// was queued. On failure, hands the task back with the reason, for
    /// the policy.
    pub(crate) fn execute(self: &Arc<Self>, task: T) -> Result<Option<Ticket>, (T, Reason)> {
        let mut c = self.ctl.get();
        // 1. Below core size: a new worker, with this task as its first.
        let mut task = task;
        if c.worker_count() < self.config.core() {
            match self.add_worker(Some(task), true) {
                Ok(()) => return Ok(None),
                Err(not_added) => task = not_added.task.expect("our first task"),
            }
            c = self.ctl.get();
        }
        // 2. Running: queue it, then look again.
        if c.is_running() {
            kit::pause_point("threadpool-executor::pool: saw the pool running, not yet queued");
            match self.queue.offer(task) {
                // ANCHOR: queued
                Ok(ticket) => return self.recheck(ticket),
                // ANCHOR_END: queued
                Err(back) => task = back,
            }
        }
        // 3. Not queued: a worker above core size, or a rejection.
        match self.add_worker(Some(task), false) {
            Ok(()) => Ok(None),
            Err(not_added) => Err((not_added.task.expect("our first task"), not_added.reason)),
        }
    }

    // ANCHOR: recheck
    /// After queuing: the pool may have shut down, or lost its last
    /// worker, since `execute` looked. Without this look, a task queued
    /// after `shutdown` emptied the pool would never run, nor be
    /// rejected (T7).
    fn recheck(self: &Arc<Self>, ticket: Ticket) -> Result<Option<Ticket>, (T, Reason)> {
        let recheck = self.ctl.get();
        if !recheck.is_running() {
            // Take it back if no worker took it: then it is ours to reject.
            if let Some(task) = self.remove(ticket) {
                return Err((task, Reason::Shutdown));
            }
        } else if recheck.worker_count() == 0 {
            // Running with no worker (core size 0, or every worker just
            // left): someone must take the task from the queue.
            if let Err(not_added) = self.add_worker(None, false)
                && self.ctl.get().worker_count() == 0
                && let Some(task) = self.remove(ticket)
            {
                return Err((task, not_added.reason));
            }
        }
        Ok(Some(ticket))
    }
    // ANCHOR_END: recheck
    // ANCHOR_END: execute

    // ANCHOR: add_worker
    /// Starts a worker, if the state and the bound (core or maximum size)
    /// allow one, with `first` as its first task: counted first, then
    /// created and started.
    pub(crate) fn add_worker(
        self: &Arc<Self>,
        first: Option<T>,
        core: bool,
    ) -> Result<(), NotAdded<T>> {
        match self.count_worker(first.is_some(), core) {
            Ok(()) => self.start_worker(first),
            Err(reason) => Err(NotAdded {
                task: first,
                reason,
            }),
        }
    }
    // ANCHOR_END: add_worker

    // ANCHOR: count_worker
    /// The counting half: one more worker in the word, by CAS, so that two
    /// callers that both saw room for one more cannot both take it.
    fn count_worker(&self, has_first: bool, core: bool) -> Result<(), Reason> {
        let mut c = self.ctl.get();
        loop {
            if c.at_least(RunState::Shutdown)
                && (c.at_least(RunState::Stop) || has_first || self.queue.is_empty())
            {
                // Shut down: only a worker for queued tasks, and only
                // before STOP.
                return Err(Reason::Shutdown);
            }
            let bound = if core {
                self.config.core()
            } else {
                self.config.maximum()
            };
            if c.worker_count() >= bound {
                return Err(self.saturated(c));
            }
            if self.ctl.compare_and_increment(c) {
                return Ok(());
            }
            c = self.ctl.get();
        }
    }
    // ANCHOR_END: count_worker

    // ANCHOR: start_worker
    /// The other half: creates the counted worker, and looks at the state
    /// again under `main` before it joins the set (a shutdown may have
    /// come since); then starts its thread. If it cannot join or start,
    /// the count is taken back and the first task handed back.
    fn start_worker(self: &Arc<Self>, first: Option<T>) -> Result<(), NotAdded<T>> {
        let has_first = first.is_some();
        let worker = Arc::new(Worker::new(first));
        let joined = {
            let mut workers = self.main.lock();
            let c = self.ctl.get();
            let ok = c.is_running() || (c.less_than(RunState::Stop) && !has_first);
            if ok {
                workers.set.push(Arc::clone(&worker));
            }
            ok
        };
        let started = if joined {
            self.start_thread(&worker)
        } else {
            Err(Reason::Shutdown)
        };
        started.map_err(|reason| {
            self.add_worker_failed(&worker);
            NotAdded {
                task: worker.first_task.lock().take(),
                reason,
            }
        })
    }
    // ANCHOR_END: start_worker

    /// Starts a worker's thread from the factory; then joins the threads
    /// of workers that have finished.
    fn start_thread(self: &Arc<Self>, worker: &Arc<Worker<T>>) -> Result<(), Reason> {
        let body: Body = {
            let (core, worker) = (Arc::clone(self), Arc::clone(worker));
            Box::new(move || worker::run(core, worker))
        };
        let factory = Arc::clone(&self.factory.read());
        let thread = factory.new_thread(body).map_err(|error| Reason::NoThread {
            error: error.kind(),
        })?;
        let finished = {
            let mut workers = self.main.lock();
            // Counted once started: a worker whose thread never started
            // was never in the pool.
            workers.largest = workers.largest.max(workers.set.len());
            workers.threads.push(thread);
            finished_threads(&mut workers.threads)
        };
        for thread in finished {
            // Its panic, if any, was reported when it happened.
            let _ = thread.join();
        }
        Ok(())
    }

    /// Undoes a counted worker that did not start: out of the set, one
    /// fewer in the word, and termination checked (it may have been the
    /// worker that held it up).
    fn add_worker_failed(self: &Arc<Self>, worker: &Arc<Worker<T>>) {
        self.main
            .lock()
            .set
            .retain(|other| !Arc::ptr_eq(other, worker));
        self.ctl.decrement();
        self.try_terminate();
    }

    fn saturated(&self, c: Word) -> Reason {
        Reason::Saturated {
            pool_size: c.worker_count(),
            maximum: self.config.maximum(),
            queued: self.queue.len(),
        }
    }

    /// Hands a rejected task to the policy.
    pub(crate) fn reject(self: &Arc<Self>, task: T, reason: Reason) -> Result<(), Rejected<T>> {
        // Cloned out: a policy that runs the task (CallerRuns) must not
        // hold the lock while it does.
        let policy = Arc::clone(&self.policy.read());
        policy.rejected(task, &Saturated { core: self, reason })
    }

    /// Counts a discarded task and gives it to the discard hook.
    pub(crate) fn discard(&self, task: T) {
        self.discarded.fetch_add(1, SeqCst);
        match &self.hooks.on_discard {
            Some(hook) => hook(task),
            None => drop(task),
        }
    }

    /// Takes a queued task back; the queue may now be empty, which may
    /// let a shut-down pool terminate.
    fn remove(self: &Arc<Self>, ticket: Ticket) -> Option<T> {
        let task = self.queue.remove(ticket);
        self.try_terminate();
        task
    }

    // ANCHOR: try_terminate
    /// Moves to TERMINATED if the pool is shut down and done: SHUTDOWN
    /// with an empty queue and no worker, or STOP with no worker. Called
    /// after everything that could make that true.
    pub(crate) fn try_terminate(self: &Arc<Self>) {
        loop {
            let c = self.ctl.get();
            if c.is_running()
                || c.at_least(RunState::Tidying)
                || (c.less_than(RunState::Stop) && !self.queue.is_empty())
            {
                return;
            }
            if c.worker_count() != 0 {
                // Done but for the workers: wake one idle worker, which
                // finds the pool shut down, leaves, and calls this again.
                // That chain reaches every worker that is idle.
                self.interrupt_idle_workers(&self.main.lock(), true);
                return;
            }
            // Only the thread whose CAS wins runs the hook: exactly once.
            if self.ctl.compare_and_set(c, Word::new(RunState::Tidying, 0)) {
                // Outside `main`: the hook may ask the pool for its size.
                if let Some(hook) = &self.hooks.terminated {
                    hook();
                }
                let _workers = self.main.lock();
                self.ctl.set(Word::new(RunState::Terminated, 0));
                self.termination.notify_all();
                return;
            }
        }
    }
    // ANCHOR_END: try_terminate

    // ANCHOR: interrupt_idle
    /// Interrupts workers waiting for a task (all, or one): never one that
    /// runs a task, whose run lock is held. A worker takes that lock
    /// before each task and clears its interrupt under it, so an interrupt
    /// meant to wake it cannot reach the task.
    fn interrupt_idle_workers(&self, workers: &Workers<T>, only_one: bool) {
        for worker in &workers.set {
            if !worker.interrupt.is_interrupted()
                && let Some(_idle) = worker.try_lock_idle()
            {
                worker.interrupt.interrupt();
            }
            if only_one {
                break;
            }
        }
    }
    // ANCHOR_END: interrupt_idle

    // ANCHOR: shutdown
    pub(crate) fn shutdown(self: &Arc<Self>) {
        {
            let workers = self.main.lock();
            self.ctl.advance_run_state(RunState::Shutdown);
            self.interrupt_idle_workers(&workers, false);
        }
        if let Some(hook) = &self.hooks.on_shutdown {
            hook();
        }
        self.try_terminate();
    }

    /// Returns the queued tasks, each with its ticket.
    pub(crate) fn shutdown_now(self: &Arc<Self>) -> Vec<(Option<Ticket>, T)> {
        let tasks = {
            let workers = self.main.lock();
            self.ctl.advance_run_state(RunState::Stop);
            // Busy or idle: a running task is asked to stop.
            for worker in &workers.set {
                worker.interrupt.interrupt();
            }
            self.queue.drain_with_tickets()
        };
        if let Some(hook) = &self.hooks.on_shutdown {
            hook();
        }
        self.try_terminate();
        tasks
    }
    // ANCHOR_END: shutdown

    /// Waits until TERMINATED, for at most `timeout` (`None`: forever).
    fn await_termination(&self, timeout: Option<Duration>) -> bool {
        // A timeout too long for the clock is forever.
        let deadline = timeout.and_then(|timeout| sync::now().checked_add(timeout));
        let mut workers = self.main.lock();
        loop {
            if self.ctl.get().at_least(RunState::Terminated) {
                return true;
            }
            match deadline {
                Some(deadline) if deadline <= sync::now() => return false,
                Some(deadline) => self.termination.wait_until(&mut workers, deadline),
                None => self.termination.wait(&mut workers),
            }
        }
    }
}

/// The threads that have finished, taken out of `threads` to be joined.
#[cfg(not(loom))]
fn finished_threads(threads: &mut Vec<JoinHandle>) -> Vec<JoinHandle> {
    let (finished, running) = mem::take(threads)
        .into_iter()
        .partition(JoinHandle::is_finished);
    *threads = running;
    finished
}

/// loom's threads cannot say whether they finished: the drop joins them.
#[cfg(loom)]
fn finished_threads(_: &mut Vec<JoinHandle>) -> Vec<JoinHandle> {
    Vec::new()
}

/// A thread pool: ThreadPoolExecutor. See the module docs.
///
/// ```
/// use std::sync::mpsc;
/// use threadpool_executor::pool::ThreadPool;
///
/// let pool = ThreadPool::builder().core_pool_size(2).maximum_pool_size(2).build()?;
/// let (tx, rx) = mpsc::channel();
/// for i in 0..4 {
///     let tx = tx.clone();
///     pool.execute(move || tx.send(i * i).unwrap()).unwrap();
/// }
/// let mut squares: Vec<i32> = rx.iter().take(4).collect();
/// squares.sort();
/// assert_eq!(squares, [0, 1, 4, 9]);
/// # Ok::<(), threadpool_executor::error::ConfigError>(())
/// ```
///
/// # Dropping it
///
/// One rule for every finished version (this pool, the
/// [`ScheduledThreadPool`](crate::scheduled::ScheduledThreadPool), stage
/// 5's `Timer`, the wheels): a drop acts like
/// [`shutdown_now`](ThreadPool::shutdown_now). Nothing more starts, every
/// queued task that never started goes to the discard hook
/// ([`Builder::on_discard`]; a submitted job's future answers `Cancelled`),
/// the running tasks are interrupted (they see it through
/// [`interrupt::check`](crate::interrupt::check)), and the drop joins every
/// thread once they have returned. [`ThreadPool::set_drain_on_drop`] makes
/// it act like [`shutdown`](ThreadPool::shutdown) and wait instead, so
/// every queued task runs first. To wait for the queue only as long as you
/// choose, call `shutdown` and
/// [`await_termination`](ThreadPool::await_termination) before the drop.
///
/// Java has no destructor: its pool is ended only by `shutdown` or
/// `shutdownNow` (JDK 19's `close()` is `shutdown` and a wait). A drop
/// must end the pool, and it must not block for as long as a queued task
/// takes: hence `shutdown_now` by default.
pub struct ThreadPool<T: Runnable = Task> {
    core: Arc<Core<T>>,
}

impl ThreadPool<Task> {
    /// A [`Builder`] for a pool of closures.
    pub fn builder() -> Builder<Task> {
        Builder::new()
    }

    /// Runs `task` on the pool, some time soon: see [`ThreadPool::execute_task`].
    ///
    /// # Errors
    /// As [`ThreadPool::execute_task`]: the task comes back in the error.
    pub fn execute<F>(&self, task: F) -> Result<(), Rejected<Task>>
    where
        F: FnOnce() + Send + 'static,
    {
        self.execute_task(Box::new(task))
    }

    /// As [`ThreadPool::execute`], and returns the task's [`TaskId`]: the
    /// handle [`ThreadPool::remove`] takes.
    ///
    /// ```
    /// let pool = threadpool_executor::ThreadPool::builder().build()?;
    /// let (a, b) = (pool.execute_with_id(|| {}).unwrap(), pool.execute_with_id(|| {}).unwrap());
    /// assert_ne!(a, b, "each task its own id");
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    ///
    /// # Errors
    /// As [`ThreadPool::execute`].
    pub fn execute_with_id<F>(&self, task: F) -> Result<TaskId, Rejected<Task>>
    where
        F: FnOnce() + Send + 'static,
    {
        self.execute_task_with_id(Box::new(task))
    }
}

impl<T: Runnable> ThreadPool<T> {
    pub(crate) fn from_core(core: Core<T>) -> ThreadPool<T> {
        ThreadPool {
            core: Arc::new(core),
        }
    }

    /// What the pool shares with its workers: for a pool built on this
    /// one (the scheduled pool), which adds its own steps to the core's.
    pub(crate) fn core(&self) -> &Arc<Core<T>> {
        &self.core
    }

    /// Runs `task` on a worker: a new one below core size, else a queued
    /// one, else a new one up to the maximum; else the policy decides.
    ///
    /// # Errors
    /// Whatever the policy returns: with [`Abort`](crate::reject::Abort),
    /// a [`Rejected`] holding the task, when the pool is shut down or
    /// saturated.
    pub fn execute_task(&self, task: T) -> Result<(), Rejected<T>> {
        match self.core.variant.execute(&self.core, task) {
            Ok(_ticket) => Ok(()),
            Err((task, reason)) => self.core.reject(task, reason),
        }
    }

    /// As [`ThreadPool::execute_task`], and returns the task's [`TaskId`].
    /// A task the policy took instead (ran it, discarded it, or, with
    /// [`DiscardOldest`](crate::reject::DiscardOldest), queued it on a
    /// retry) gets an id that `remove` does not find.
    ///
    /// # Errors
    /// As [`ThreadPool::execute_task`].
    pub fn execute_task_with_id(&self, task: T) -> Result<TaskId, Rejected<T>> {
        let ticket = match self.core.variant.execute(&self.core, task) {
            Ok(ticket) => ticket,
            Err((task, reason)) => {
                self.core.reject(task, reason)?;
                None
            }
        };
        Ok(self.core.task_id(ticket))
    }

    /// Takes the task `id` names out of the queue, if it is still there,
    /// and drops it: Java's `remove(Runnable)`. Returns whether it did;
    /// `false` for a task that a worker took already (running or done),
    /// one that never went to the queue, or another pool's. Works after
    /// shutdown too, as Java's does; a task removed goes to no hook and is
    /// not counted as discarded. A [`submit`](ThreadPool::submit)ted
    /// job removed this way never runs, and its future answers
    /// [`Cancelled`](crate::future::FutureError::Cancelled).
    ///
    /// ```
    /// use threadpool_executor::ThreadPool;
    /// use std::sync::mpsc;
    ///
    /// let pool = ThreadPool::builder().core_pool_size(1).maximum_pool_size(1).build()?;
    /// let (go, wait) = mpsc::channel::<()>();
    /// let busy = pool.execute_with_id(move || wait.recv().unwrap()).unwrap();
    /// let queued = pool.execute_with_id(|| unreachable!("removed")).unwrap();
    /// assert!(pool.remove(queued), "still queued: taken out");
    /// assert!(!pool.remove(queued), "not there any more");
    /// assert!(!pool.remove(busy), "a worker has it");
    /// go.send(()).unwrap();
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    // ANCHOR: remove
    pub fn remove(&self, id: TaskId) -> bool {
        self.core
            .ticket_of(id)
            .and_then(|ticket| self.core.remove(ticket))
            .is_some()
    }
    // ANCHOR_END: remove

    /// Takes out of the queue every task whose future was cancelled
    /// ([`Submitted::cancel`](crate::submit::Submitted::cancel)) while it
    /// waited there, and returns how many: Java's `purge()`. A cancelled
    /// task would run as a no-op anyway; until then it holds its place
    /// and whatever the pool keeps of it. Works after shutdown too.
    ///
    /// ```
    /// use threadpool_executor::ThreadPool;
    /// use std::sync::mpsc;
    ///
    /// let pool = ThreadPool::builder().core_pool_size(1).maximum_pool_size(1).build()?;
    /// let (go, wait) = mpsc::channel::<()>();
    /// pool.execute(move || wait.recv().unwrap()).unwrap();
    /// let futures: Vec<_> = (0..3).map(|n| pool.submit(move || n).unwrap()).collect();
    /// assert!(futures[0].cancel(false) && futures[2].cancel(false));
    /// assert_eq!(pool.queue().len(), 3);
    /// assert_eq!(pool.purge(), 2);
    /// assert_eq!(pool.queue().len(), 1);
    /// go.send(()).unwrap();
    /// assert_eq!(futures[1].get(), Ok(1));
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    // ANCHOR: purge
    pub fn purge(&self) -> usize {
        let tickets = mem::take(&mut self.core.cancelled.lock().tickets);
        let removed = tickets
            .into_iter()
            .filter_map(|ticket| self.core.queue.remove(ticket))
            .count();
        if removed > 0 {
            // The queue may now be empty, which may end a shut-down pool.
            self.core.try_terminate();
        }
        removed
    }
    // ANCHOR_END: purge

    /// Takes no new task from now on; queued tasks still run, and idle
    /// workers are woken to find the queue empty and leave. Does not wait:
    /// see [`ThreadPool::await_termination`]. A second call does nothing.
    pub fn shutdown(&self) {
        self.core.shutdown();
    }

    /// Takes no new task, runs no queued task, interrupts every worker
    /// (a running task sees it through
    /// [`interrupt::check`](crate::interrupt::check)), and returns the
    /// queued tasks, which never started. Does not wait for the running
    /// ones.
    pub fn shutdown_now(&self) -> Vec<T> {
        let tasks = self.core.shutdown_now();
        tasks.into_iter().map(|(_, task)| task).collect()
    }

    /// As [`ThreadPool::shutdown_now`], each task handed back beside its
    /// [`TaskId`]: the id [`execute_with_id`](ThreadPool::execute_with_id)
    /// or [`Submitted::task_id`](crate::submit::Submitted::task_id) gave
    /// for it. Java hands back the `Runnable`s themselves, which its caller
    /// compares by identity; a closure has none, so the id stands beside
    /// it.
    ///
    /// ```
    /// use threadpool_executor::ThreadPool;
    /// use std::sync::mpsc;
    ///
    /// let pool = ThreadPool::builder().core_pool_size(1).maximum_pool_size(1).build()?;
    /// let (go, wait) = mpsc::channel::<()>();
    /// pool.execute(move || { let _ = wait.recv(); }).unwrap();
    /// let queued = pool.execute_with_id(|| {}).unwrap();
    /// let back = pool.shutdown_now_with_ids();
    /// assert_eq!(back.len(), 1);
    /// assert_eq!(back[0].0, queued);
    /// drop(go);
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    pub fn shutdown_now_with_ids(&self) -> Vec<(TaskId, T)> {
        let tasks = self.core.shutdown_now();
        tasks
            .into_iter()
            .map(|(ticket, task)| (self.core.task_id(ticket), task))
            .collect()
    }

    /// Waits until the pool has terminated (shut down, every task over,
    /// every worker gone, the terminated hook run), for at most `timeout`.
    /// Returns whether it has. A zero timeout only looks.
    pub fn await_termination(&self, timeout: Duration) -> bool {
        self.core.await_termination(Some(timeout))
    }

    /// Whether `shutdown` or `shutdown_now` was called.
    pub fn is_shutdown(&self) -> bool {
        !self.core.ctl.get().is_running()
    }

    /// Shut down, but not terminated yet.
    pub fn is_terminating(&self) -> bool {
        let c = self.core.ctl.get();
        c.at_least(RunState::Shutdown) && c.less_than(RunState::Terminated)
    }

    /// Terminated: nothing will ever run here again.
    pub fn is_terminated(&self) -> bool {
        self.core.ctl.get().at_least(RunState::Terminated)
    }

    /// The ctl word now: run state and worker count, read together.
    pub fn ctl(&self) -> Word {
        self.core.ctl.get()
    }

    /// The run state now.
    pub fn run_state(&self) -> RunState {
        self.core.ctl.get().run_state()
    }

    /// The work queue, to look at.
    pub fn queue(&self) -> &dyn WorkQueue<T> {
        &*self.core.queue
    }

    /// How many tasks the policy discarded (gave to the discard hook).
    pub fn discarded_count(&self) -> u64 {
        self.core.discarded.load(SeqCst)
    }

    /// Threads in the pool now (0 once terminated).
    pub fn pool_size(&self) -> usize {
        let workers = self.core.main.lock();
        if self.core.ctl.get().at_least(RunState::Tidying) {
            0
        } else {
            workers.set.len()
        }
    }

    /// Threads running a task now.
    pub fn active_count(&self) -> usize {
        let workers = self.core.main.lock();
        workers.set.iter().filter(|w| w.progress().1).count()
    }

    /// The most threads the pool has had at once.
    pub fn largest_pool_size(&self) -> usize {
        self.core.main.lock().largest
    }

    /// Tasks completed (a task that panicked counts too). Never
    /// decreases.
    pub fn completed_task_count(&self) -> u64 {
        let workers = self.core.main.lock();
        workers.completed + workers.set.iter().map(|w| w.progress().0).sum::<u64>()
    }

    /// Tasks completed, running and queued: never more than were taken.
    /// Workers are read before the queue: a task moves from the queue to a
    /// worker, never back, so no task is counted in both places.
    pub fn task_count(&self) -> u64 {
        let workers = self.core.main.lock();
        let by_workers: u64 = workers
            .set
            .iter()
            .map(|w| {
                let (completed, running) = w.progress();
                completed + u64::from(running)
            })
            .sum();
        workers.completed + by_workers + self.core.queue.len() as u64
    }

    /// The core size.
    pub fn core_pool_size(&self) -> usize {
        self.core.config.core()
    }

    /// The maximum size.
    pub fn maximum_pool_size(&self) -> usize {
        self.core.config.maximum()
    }

    /// The keep-alive.
    pub fn keep_alive(&self) -> Duration {
        self.core.config.keep_alive()
    }

    /// Whether core threads may time out.
    pub fn allows_core_thread_timeout(&self) -> bool {
        self.core.config.allow_core_timeout()
    }

    // ANCHOR: setters
    /// Changes the core size. Smaller: idle workers above it end. Larger:
    /// new workers start for what is queued.
    ///
    /// # Errors
    /// [`ConfigError::CoreAboveMaximum`], [`ConfigError::TooLarge`].
    pub fn set_core_pool_size(&self, core: usize) -> Result<(), ConfigError> {
        let config = &self.core.config;
        let old = {
            let _setters = config.setters.lock();
            check_sizes(core, config.maximum())?;
            config.core.swap(core, SeqCst)
        };
        if self.core.ctl.get().worker_count() > core {
            self.core
                .interrupt_idle_workers(&self.core.main.lock(), false);
        } else if core > old {
            // As many new workers as there are queued tasks, up to the
            // difference.
            for _ in 0..(core - old).min(self.core.queue.len()) {
                if self.core.add_worker(None, true).is_err() || self.core.queue.is_empty() {
                    break;
                }
            }
        }
        Ok(())
    }
    // ANCHOR_END: setters

    /// Changes the maximum size. Idle workers above it end.
    ///
    /// # Errors
    /// [`ConfigError::ZeroMaximum`], [`ConfigError::CoreAboveMaximum`],
    /// [`ConfigError::TooLarge`].
    pub fn set_maximum_pool_size(&self, maximum: usize) -> Result<(), ConfigError> {
        let config = &self.core.config;
        {
            let _setters = config.setters.lock();
            check_sizes(config.core(), maximum)?;
            config.maximum.store(maximum, SeqCst);
        }
        if self.core.ctl.get().worker_count() > maximum {
            self.core
                .interrupt_idle_workers(&self.core.main.lock(), false);
        }
        Ok(())
    }

    /// Changes the keep-alive. Shorter: idle workers look again now.
    ///
    /// # Errors
    /// [`ConfigError::ZeroKeepAliveWithCoreTimeout`].
    pub fn set_keep_alive(&self, keep_alive: Duration) -> Result<(), ConfigError> {
        let config = &self.core.config;
        let old = {
            let _setters = config.setters.lock();
            check_keep_alive(keep_alive, config.allow_core_timeout())?;
            config.keep_alive.swap(nanos(keep_alive), SeqCst)
        };
        if nanos(keep_alive) < old {
            self.core
                .interrupt_idle_workers(&self.core.main.lock(), false);
        }
        Ok(())
    }

    /// Lets core threads time out too (or not). Idle workers look again.
    ///
    /// # Errors
    /// [`ConfigError::ZeroKeepAliveWithCoreTimeout`] to allow it with a
    /// keep-alive of zero.
    pub fn allow_core_thread_timeout(&self, allow: bool) -> Result<(), ConfigError> {
        let config = &self.core.config;
        let changed = {
            let _setters = config.setters.lock();
            check_keep_alive(config.keep_alive(), allow)?;
            config.allow_core_timeout.swap(allow, SeqCst) != allow
        };
        if changed && allow {
            self.core
                .interrupt_idle_workers(&self.core.main.lock(), false);
        }
        Ok(())
    }

    /// The thread factory workers are started with now: Java's
    /// `getThreadFactory`, to wrap it, for one.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    /// use threadpool_executor::ThreadPool;
    /// use threadpool_executor::factory::ThreadFactory;
    ///
    /// let pool = ThreadPool::builder().core_pool_size(2).maximum_pool_size(2).build()?;
    /// let (inner, started) = (pool.thread_factory(), Arc::new(AtomicUsize::new(0)));
    /// let count = Arc::clone(&started);
    /// pool.set_thread_factory(move |body| {
    ///     count.fetch_add(1, SeqCst);
    ///     inner.new_thread(body)
    /// });
    /// assert_eq!(pool.prestart_all_core_threads(), 2);
    /// assert_eq!(started.load(SeqCst), 2, "each new worker, through the wrapper");
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    pub fn thread_factory(&self) -> Arc<dyn ThreadFactory> {
        Arc::clone(&self.core.factory.read())
    }

    /// Starts every worker from now on with `factory`: Java's
    /// `setThreadFactory`. Workers already running keep their threads.
    pub fn set_thread_factory(&self, factory: impl ThreadFactory) {
        *self.core.factory.write() = Arc::new(factory);
    }

    /// The rejection policy now: Java's `getRejectedExecutionHandler`,
    /// to wrap it, for one.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    /// use threadpool_executor::ThreadPool;
    /// use threadpool_executor::reject::{RejectPolicy, Saturated};
    /// use threadpool_executor::task::Task;
    ///
    /// let pool = ThreadPool::builder().build()?;
    /// let (inner, refused) = (pool.reject_policy(), Arc::new(AtomicUsize::new(0)));
    /// let count = Arc::clone(&refused);
    /// pool.set_reject_policy(move |task: Task, saturated: &Saturated<'_, Task>| {
    ///     count.fetch_add(1, SeqCst);
    ///     inner.rejected(task, saturated)
    /// });
    /// pool.shutdown();
    /// assert!(pool.execute(|| {}).is_err(), "the old policy (Abort) still decides");
    /// assert_eq!(refused.load(SeqCst), 1);
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    pub fn reject_policy(&self) -> Arc<dyn RejectPolicy<T>> {
        Arc::clone(&self.core.policy.read())
    }

    /// Hands every task refused from now on to `policy`: Java's
    /// `setRejectedExecutionHandler`.
    ///
    /// ```
    /// use threadpool_executor::ThreadPool;
    /// use threadpool_executor::reject::Discard;
    ///
    /// let pool = ThreadPool::builder().build()?;
    /// pool.shutdown();
    /// assert!(pool.execute(|| {}).is_err(), "Abort, the default, refuses");
    /// pool.set_reject_policy(Discard);
    /// assert!(pool.execute(|| {}).is_ok(), "Discard drops it and says Ok");
    /// assert_eq!(pool.discarded_count(), 1);
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    pub fn set_reject_policy(&self, policy: impl RejectPolicy<T>) {
        *self.core.policy.write() = Arc::new(policy);
    }

    /// Starts one core thread, idle until a task comes, if fewer than core
    /// size are running. Returns whether it started one.
    pub fn prestart_core_thread(&self) -> bool {
        self.core.ctl.get().worker_count() < self.core.config.core()
            && self.core.add_worker(None, true).is_ok()
    }

    /// Starts every missing core thread; returns how many it started.
    pub fn prestart_all_core_threads(&self) -> usize {
        let mut started = 0;
        while self.core.add_worker(None, true).is_ok() {
            started += 1;
        }
        started
    }
}

// ANCHOR: drop
impl<T: Runnable> Drop for ThreadPool<T> {
    /// The drop rule of every finished version (see the type's docs):
    /// `shutdown_now`, every queued task to the discard hook, and every
    /// thread joined; or, if [`ThreadPool::set_drain_on_drop`] chose so,
    /// `shutdown`, and every thread joined once the queue has drained.
    /// Either way it waits for the running tasks to return.
    fn drop(&mut self) {
        if self.drains_on_drop() {
            self.core.shutdown();
            // Queued tasks and no worker (none was replaced, or the thread
            // factory failed) would wait forever: start one to run them,
            // or, if none can start, stop instead.
            if self.core.ctl.get().worker_count() == 0
                && !self.core.queue.is_empty()
                && self.core.add_worker(None, false).is_err()
                && self.core.ctl.get().worker_count() == 0
            {
                self.discard_the_queue();
            }
        } else {
            self.discard_the_queue();
        }
        self.core.await_termination(None);
        // A worker on its way out may start a replacement and record its
        // thread after we looked: look until there is nothing left.
        loop {
            let threads = mem::take(&mut self.core.main.lock().threads);
            if threads.is_empty() {
                break;
            }
            for thread in threads {
                let _ = thread.join();
            }
        }
    }
}
// ANCHOR_END: drop

impl<T: Runnable> ThreadPool<T> {
    /// `shutdown_now`, and every task it hands back to the discard hook.
    fn discard_the_queue(&self) {
        for (_, task) in self.core.shutdown_now() {
            self.core.discard(task);
        }
    }

    /// Chooses what dropping the pool does. `false` (the default, as the
    /// builder makes it): what [`ThreadPool::shutdown_now`] does, with
    /// every task that never started given to the discard hook (a
    /// [`submit`](ThreadPool::submit)ted job's future then answers
    /// `Cancelled`), the running tasks interrupted, and every thread
    /// joined, so a drop never waits for a task that is not running yet.
    /// `true`: [`ThreadPool::shutdown`] and join, so the drop waits until
    /// the last queued task has run, however long the queue. The default
    /// is not the JDK 19 `close()`, which waits for the queue: a drop is a
    /// point in the program, and one that waited for a queue of long
    /// tasks would look like a hang. Stage 5's
    /// [`Timer::set_drain_on_drop`](interrupt_cancel::timer::Timer::set_drain_on_drop)
    /// is the same choice.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    /// use threadpool_executor::ThreadPool;
    ///
    /// let ran = Arc::new(AtomicUsize::new(0));
    /// let pool = ThreadPool::builder().core_pool_size(1).maximum_pool_size(1).build()?;
    /// pool.set_drain_on_drop(true);
    /// for _ in 0..3 {
    ///     let ran = Arc::clone(&ran);
    ///     pool.execute(move || { ran.fetch_add(1, Ordering::SeqCst); }).unwrap();
    /// }
    /// drop(pool); // waits for the three tasks
    /// assert_eq!(ran.load(Ordering::SeqCst), 3);
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    pub fn set_drain_on_drop(&self, drain: bool) {
        self.core.drain_on_drop.store(drain, SeqCst);
    }

    /// Whether dropping the pool drains its queue (see
    /// [`ThreadPool::set_drain_on_drop`]).
    ///
    /// ```
    /// let pool = threadpool_executor::ThreadPool::builder().build()?;
    /// assert!(!pool.drains_on_drop());
    /// # Ok::<(), threadpool_executor::error::ConfigError>(())
    /// ```
    pub fn drains_on_drop(&self) -> bool {
        self.core.drain_on_drop.load(SeqCst)
    }
}
