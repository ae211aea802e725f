//! The finished version of each stage, as the stress drives it: stage 5's
//! `Timer`, stage 6's pool and scheduled pool, stage 7's two wheels, stage
//! 8's driver. The earlier versions are not here: their `cancel` discards
//! what is queued without a word (as `java.util.Timer`'s does), so there
//! is nothing to account with.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use async_timer::{Driver, Handle, Sleep, TimerError};

use interrupt_cancel::timer::{TaskHandle, TaskState, Timer};
use kit::threads::unique_name;
use parking_lot::Mutex;
use threadpool_executor::factory::NamedThreads;
use threadpool_executor::future::FutureState;
use threadpool_executor::pool::ThreadPool;
use threadpool_executor::queue::TaskQueue;
use threadpool_executor::scheduled::{ScheduledFuture, ScheduledThreadPool};
use wheel::hashed::{HashedConfig, HashedWheel};
use wheel::hierarchical::{HierarchicalConfig, HierarchicalWheel};
use wheel::{Executor, Job};

use super::{HandBack, Plan, Report, Stressed, Tally, Task, run};
use crate::executor;

/// How long `finish` waits for a pool to end before it calls the run a
/// failure (every task is a few nanoseconds of work).
const TERMINATION: Duration = Duration::from_secs(10);

/// One finished version, by the name the progression matrix gives it.
pub struct Fixed {
    /// As in the matrix: `interrupt-cancel::timer`, ...
    pub name: &'static str,
    /// Starts a fresh instance and runs the plan against it.
    pub run: fn(Plan) -> Tally,
}

/// Every finished version, in the book's order.
pub fn all() -> Vec<Fixed> {
    vec![
        Fixed {
            name: "interrupt-cancel::timer",
            run: |plan| run(TimerUnderStress::start(), plan),
        },
        Fixed {
            name: "threadpool-executor::scheduled",
            run: |plan| run(ScheduledUnderStress::start(), plan),
        },
        Fixed {
            name: "threadpool-executor::pool, unbounded queue",
            run: |plan| run(PoolUnderStress::start(TaskQueue::unbounded()), plan),
        },
        Fixed {
            name: "threadpool-executor::pool, bounded queue",
            run: |plan| {
                let queue = TaskQueue::bounded(1000).expect("a capacity of 1000");
                run(PoolUnderStress::start(queue), plan)
            },
        },
        Fixed {
            name: "wheel::hashed",
            run: |plan| run(WheelUnderStress::hashed(), plan),
        },
        Fixed {
            name: "wheel::hierarchical",
            run: |plan| run(WheelUnderStress::hierarchical(), plan),
        },
        Fixed {
            name: ASYNC,
            run: |plan| run(SleepsUnderStress::start(None), plan),
        },
    ]
}

/// Stage 8's finished driver, as the matrix names its row.
pub const ASYNC: &str = "async-timer";

/// Stage 5's `Timer`: its `cancel` discards the queue and marks each
/// discarded task's handle `Cancelled`.
struct TimerUnderStress(Timer);

impl TimerUnderStress {
    fn start() -> TimerUnderStress {
        TimerUnderStress(Timer::new(&unique_name("st-tm")).expect("spawn the timer's thread"))
    }
}

impl Stressed for TimerUnderStress {
    type Handle = TaskHandle;

    fn schedule(&self, delay: Duration, task: Task) -> Option<TaskHandle> {
        self.0.schedule(delay, task).ok()
    }

    fn cancel(&self, handle: &TaskHandle) -> bool {
        handle.cancel()
    }

    fn shutdown(&self) {
        self.0.cancel();
    }

    fn finish(self) -> HandBack {
        // Dropping the timer joins its thread.
        drop(self.0);
        HandBack::default()
    }

    fn report(handle: &TaskHandle) -> Report {
        match handle.state() {
            TaskState::Executed | TaskState::Panicked => Report::Ran,
            TaskState::Cancelled => Report::Cancelled,
            TaskState::Scheduled => Report::Nothing,
        }
    }
}

/// Stage 6's scheduled pool, two workers: `shutdown_now` hands back every
/// task that never started, as its own `ScheduledTask`s (which cannot run
/// once their pool is shut down): their futures stay `New`.
struct ScheduledUnderStress {
    pool: ScheduledThreadPool,
    handed_back: Mutex<usize>,
}

impl ScheduledUnderStress {
    fn start() -> ScheduledUnderStress {
        let pool = threadpool_executor::presets::scheduled(2)
            .thread_factory(NamedThreads::with_prefix(format!(
                "{}-",
                unique_name("st-sp")
            )))
            .build()
            .expect("a scheduled pool of two");
        ScheduledUnderStress {
            pool,
            handed_back: Mutex::new(0),
        }
    }
}

impl Stressed for ScheduledUnderStress {
    type Handle = ScheduledFuture<()>;

    /// `cancel(false)` on a running task returns true and lets it finish.
    const CANCEL_WHILE_RUNNING: bool = true;

    fn schedule(&self, delay: Duration, task: Task) -> Option<ScheduledFuture<()>> {
        self.pool.schedule(delay, task).ok()
    }

    fn cancel(&self, handle: &ScheduledFuture<()>) -> bool {
        handle.cancel(false)
    }

    fn shutdown(&self) {
        *self.handed_back.lock() = self.pool.shutdown_now().len();
    }

    fn finish(self) -> HandBack {
        assert!(
            self.pool.await_termination(TERMINATION),
            "the scheduled pool did not end"
        );
        HandBack {
            runnable: Vec::new(),
            opaque: *self.handed_back.lock(),
        }
    }

    fn report(handle: &ScheduledFuture<()>) -> Report {
        match handle.state() {
            FutureState::New => Report::HandedBack,
            FutureState::Completing | FutureState::Normal | FutureState::Exceptional => Report::Ran,
            FutureState::Cancelled | FutureState::Interrupting | FutureState::Interrupted => {
                Report::Cancelled
            }
        }
    }
}

/// Stage 6's pool, two core threads and four at most: no delays, no
/// cancel; a full queue or a shutdown refuses with the task in the error,
/// and `shutdown_now` hands back the queued ones.
struct PoolUnderStress {
    pool: ThreadPool,
    handed_back: Mutex<Vec<Task>>,
}

impl PoolUnderStress {
    fn start(queue: TaskQueue<Task>) -> PoolUnderStress {
        let pool = ThreadPool::builder()
            .core_pool_size(2)
            .maximum_pool_size(4)
            .queue(queue)
            .thread_factory(NamedThreads::with_prefix(format!(
                "{}-",
                unique_name("st-pl")
            )))
            .build()
            .expect("a pool of 2 to 4");
        PoolUnderStress {
            pool,
            handed_back: Mutex::new(Vec::new()),
        }
    }
}

impl Stressed for PoolUnderStress {
    type Handle = ();

    fn schedule(&self, _delay: Duration, task: Task) -> Option<()> {
        self.pool.execute_task(task).ok()
    }

    fn cancel(&self, _handle: &()) -> bool {
        false
    }

    fn shutdown(&self) {
        *self.handed_back.lock() = self.pool.shutdown_now();
    }

    fn finish(self) -> HandBack {
        assert!(
            self.pool.await_termination(TERMINATION),
            "the pool did not end"
        );
        HandBack {
            runnable: self.handed_back.into_inner(),
            opaque: 0,
        }
    }

    fn report(_handle: &()) -> Report {
        Report::Nothing
    }
}

/// One of stage 7's wheels, ticking every millisecond, on a pool of two.
/// Clients schedule through the wheel's `Scheduler`; the shutdown stops the
/// wheel, which hands back every task not run, and then the pool runs what
/// the wheel had already given it.
struct WheelUnderStress<W, S> {
    wheel: Mutex<Option<W>>,
    scheduler: S,
    stop: fn(W) -> Vec<Job>,
    pool: Arc<ThreadPool>,
    handed_back: Mutex<Vec<Job>>,
}

/// A pool of two for a wheel's due tasks.
fn wheel_pool() -> (Arc<ThreadPool>, Arc<dyn Executor>) {
    let pool = Arc::new(
        threadpool_executor::presets::fixed(2)
            .thread_factory(NamedThreads::with_prefix(format!(
                "{}-",
                unique_name("st-wp")
            )))
            .build()
            .expect("a pool of two"),
    );
    let executor: Arc<dyn Executor> = pool.clone();
    (pool, executor)
}

const WHEEL_TICK: Duration = Duration::from_millis(1);

impl WheelUnderStress<HashedWheel, wheel::hashed::Scheduler> {
    fn hashed() -> Self {
        let (pool, executor) = wheel_pool();
        let config = HashedConfig {
            tick: WHEEL_TICK,
            slots: 512,
        };
        let wheel = HashedWheel::start(config, executor, &unique_name("st-hw"))
            .expect("a valid hashed wheel");
        WheelUnderStress {
            scheduler: wheel.scheduler(),
            wheel: Mutex::new(Some(wheel)),
            stop: HashedWheel::stop,
            pool,
            handed_back: Mutex::new(Vec::new()),
        }
    }
}

impl WheelUnderStress<HierarchicalWheel, wheel::hierarchical::Scheduler> {
    fn hierarchical() -> Self {
        let (pool, executor) = wheel_pool();
        let config = HierarchicalConfig { tick: WHEEL_TICK };
        let wheel = HierarchicalWheel::start(config, executor, &unique_name("st-lv"))
            .expect("a valid hierarchical wheel");
        WheelUnderStress {
            scheduler: wheel.scheduler(),
            wheel: Mutex::new(Some(wheel)),
            stop: HierarchicalWheel::stop,
            pool,
            handed_back: Mutex::new(Vec::new()),
        }
    }
}

/// What the stress needs of a wheel's scheduler and handle: the two
/// wheels' types have the same calls, and no trait in common.
trait WheelCalls: Sync {
    type Handle: Send;
    fn schedule(&self, delay: Duration, job: Job) -> Option<Self::Handle>;
    fn cancel(handle: &Self::Handle) -> bool;
}

impl WheelCalls for wheel::hashed::Scheduler {
    type Handle = wheel::hashed::Handle;
    fn schedule(&self, delay: Duration, job: Job) -> Option<Self::Handle> {
        wheel::hashed::Scheduler::schedule(self, delay, job).ok()
    }
    fn cancel(handle: &Self::Handle) -> bool {
        handle.cancel()
    }
}

impl WheelCalls for wheel::hierarchical::Scheduler {
    type Handle = wheel::hierarchical::Handle;
    fn schedule(&self, delay: Duration, job: Job) -> Option<Self::Handle> {
        wheel::hierarchical::Scheduler::schedule(self, delay, job).ok()
    }
    fn cancel(handle: &Self::Handle) -> bool {
        handle.cancel()
    }
}

impl<W: Send, S: WheelCalls> Stressed for WheelUnderStress<W, S> {
    type Handle = S::Handle;

    fn schedule(&self, delay: Duration, task: Task) -> Option<S::Handle> {
        self.scheduler.schedule(delay, task)
    }

    fn cancel(&self, handle: &S::Handle) -> bool {
        S::cancel(handle)
    }

    fn shutdown(&self) {
        if let Some(wheel) = self.wheel.lock().take() {
            *self.handed_back.lock() = (self.stop)(wheel);
        }
    }

    fn finish(self) -> HandBack {
        self.shutdown();
        // The wheel has stopped: nothing more reaches the pool. What it
        // already has still runs.
        self.pool.shutdown();
        assert!(
            self.pool.await_termination(TERMINATION),
            "the wheel's pool did not end"
        );
        HandBack {
            runnable: self.handed_back.into_inner(),
            opaque: 0,
        }
    }

    fn report(_handle: &S::Handle) -> Report {
        Report::Nothing
    }
}

/// Stage 8's driver, with an executor of two workers. A task is a `Sleep`
/// and what runs when it fires: the client makes the `Sleep` (so its
/// deadline counts from the call), spawns a future that awaits it, and
/// keeps a [`Ticket`] through which it can drop the `Sleep` (a cancel) or
/// reset it. The shutdown drops the driver: every `Sleep` still waiting
/// ends with `Err(Shutdown)`, which its future sees; one made after is
/// refused the same way at once.
pub(super) struct SleepsUnderStress {
    driver: Mutex<Option<Driver>>,
    handle: Handle,
    executor: executor::Executor,
    /// For the harness's own test: one `Sleep` in this many is polled with
    /// a waker that wakes nobody, as a lost wake-up would leave it.
    lose_one_in: Option<u64>,
    made: std::sync::atomic::AtomicU64,
}

/// One `Sleep`, shared by the client that made it and the future that
/// awaits it.
pub(super) struct Ticket(Mutex<Slot>);

/// Under the ticket's lock: the `Sleep` while it waits, the task to run
/// when it fires, and how it ended.
struct Slot {
    sleep: Option<Sleep>,
    task: Option<Task>,
    fate: Fate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    Waiting,
    /// Its future saw `Ok(())` and ran the task.
    Fired,
    /// Its future saw `Err(Shutdown)`.
    ShutDown,
    /// Dropped by a cancel while it waited.
    Dropped,
}

/// The future a ticket's task is: polls the `Sleep` under the ticket's
/// lock, and ends when it ends (or was dropped).
struct Awaits(Arc<Ticket>);

impl Future for Awaits {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut slot = self.0.0.lock();
        let Some(sleep) = slot.sleep.as_mut() else {
            return Poll::Ready(()); // dropped by a cancel
        };
        let ended = match Pin::new(sleep).poll(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(ended) => ended,
        };
        slot.sleep = None;
        match ended {
            Ok(()) => {
                slot.fate = Fate::Fired;
                if let Some(task) = slot.task.take() {
                    task();
                }
            }
            Err(_) => slot.fate = Fate::ShutDown,
        }
        Poll::Ready(())
    }
}

impl SleepsUnderStress {
    /// A driver and its executor; with `lose_one_in`, a fake that loses
    /// one `Sleep`'s wake-up in that many (the harness's own test).
    pub(super) fn start(lose_one_in: Option<u64>) -> SleepsUnderStress {
        let driver = Driver::start(&unique_name("st-at")).expect("start the driver");
        SleepsUnderStress {
            handle: driver.handle(),
            driver: Mutex::new(Some(driver)),
            executor: executor::Executor::new(&unique_name("st-ax"), 2),
            lose_one_in,
            made: std::sync::atomic::AtomicU64::new(0),
        }
    }
}

impl Stressed for SleepsUnderStress {
    type Handle = Arc<Ticket>;

    const RESETS: bool = true;

    fn schedule(&self, delay: Duration, task: Task) -> Option<Arc<Ticket>> {
        let mut sleep = self.handle.sleep(delay);
        if sleep.is_elapsed() {
            // Fired at once (a delay of zero) or refused (after the
            // shutdown): the first poll says which.
            let now = Pin::new(&mut sleep).poll(&mut Context::from_waker(Waker::noop()));
            if let Poll::Ready(Err(error)) = now {
                assert_eq!(error, TimerError::Shutdown, "only the shutdown refuses");
                return None;
            }
        }
        let ticket = Arc::new(Ticket(Mutex::new(Slot {
            sleep: Some(sleep),
            task: Some(task),
            fate: Fate::Waiting,
        })));
        // ORDERING: only a count.
        let n = self.made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if self.lose_one_in.is_some_and(|k| n.is_multiple_of(k)) {
            // The fake: polled once with a waker that wakes nobody, and
            // never again.
            let mut slot = ticket.0.lock();
            if let Some(sleep) = slot.sleep.as_mut() {
                let _ = Pin::new(sleep).poll(&mut Context::from_waker(Waker::noop()));
            }
        } else {
            self.executor.spawn(Awaits(Arc::clone(&ticket)));
        }
        Some(ticket)
    }

    /// Drops the `Sleep` if it still waits: its entry leaves the wheel.
    fn cancel(&self, ticket: &Arc<Ticket>) -> bool {
        let mut slot = ticket.0.lock();
        if slot.fate != Fate::Waiting || slot.sleep.is_none() {
            return false;
        }
        drop(slot.sleep.take());
        slot.fate = Fate::Dropped;
        true
    }

    fn reset(&self, ticket: &Arc<Ticket>, delay: Duration) -> bool {
        let mut slot = ticket.0.lock();
        match slot.sleep.as_mut() {
            Some(sleep) if !sleep.is_elapsed() => {
                sleep.reset(self.handle.now() + delay);
                true
            }
            _ => false,
        }
    }

    fn shutdown(&self) {
        // Joins the driver's thread: every wake it owes has been made.
        drop(self.driver.lock().take());
    }

    fn finish(self) -> HandBack {
        self.shutdown();
        assert!(
            self.executor.wait_idle(TERMINATION),
            "the executor did not run dry"
        );
        drop(self.executor);
        HandBack::default()
    }

    fn report(ticket: &Arc<Ticket>) -> Report {
        match ticket.0.lock().fate {
            Fate::Fired => Report::Ran,
            Fate::ShutDown => Report::ShutDown,
            Fate::Dropped => Report::Cancelled,
            Fate::Waiting => Report::Nothing,
        }
    }
}
