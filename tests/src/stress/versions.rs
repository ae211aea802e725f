//! The finished version of each stage, as the stress drives it: stage 5's
//! `Timer`, stage 6's pool and scheduled pool, stage 7's two wheels. The
//! earlier versions are not here: their `cancel` discards what is queued
//! without a word (as `java.util.Timer`'s does), so there is nothing to
//! account with.

use std::sync::Arc;
use std::time::Duration;

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
    ]
}

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
