//! The finished version of each stage, as the stress drives it: stage 5's
//! `Timer`, stage 6's pool and scheduled pool, stage 7's two wheels, stage
//! 8's driver. The earlier versions are not here: their `cancel` discards
//! what is queued without a word (as `java.util.Timer`'s does), so there
//! is nothing to account with.
//!
//! Every one but stage 8's is driven through stage 6's executor trait,
//! by one adapter ([`UnderStress`]): the shutdown is its `shutdown_now`,
//! the end its `await_termination`; what the trait leaves out (a delay, a
//! cancel, a handle's report) is [`Finished`]'s.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use async_timer::{Driver, Handle, Sleep, TimerError};

use interrupt_cancel::timer::{TaskHandle, Timer};
use kit::threads::unique_name;
use parking_lot::Mutex;
use threadpool_executor::executor::Executor;
use threadpool_executor::factory::NamedThreads;
use threadpool_executor::pool::ThreadPool;
use threadpool_executor::queue::TaskQueue;
use threadpool_executor::scheduled::{ScheduledTask, ScheduledThreadPool};
use wheel::executor::WheelPool;
use wheel::hashed::{HashedConfig, HashedWheel};
use wheel::hierarchical::{HierarchicalConfig, HierarchicalWheel};

use super::{HandBack, Plan, Report, Stressed, Tally, Task, run};
use crate::executor;
use crate::finished::Finished;

/// How long `finish` waits for a version to end before it calls the run a
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
            run: |plan| run(UnderStress::now(timer()), plan),
        },
        Fixed {
            name: "threadpool-executor::scheduled",
            run: |plan| run(UnderStress::now(scheduled()), plan),
        },
        Fixed {
            name: "threadpool-executor::pool, unbounded queue",
            run: |plan| run(UnderStress::now(pool(TaskQueue::unbounded())), plan),
        },
        Fixed {
            name: "threadpool-executor::pool, bounded queue",
            run: |plan| run(UnderStress::now(pool(bounded())), plan),
        },
        Fixed {
            name: "wheel::hashed",
            run: |plan| run(UnderStress::now(hashed()), plan),
        },
        Fixed {
            name: "wheel::hierarchical",
            run: |plan| run(UnderStress::now(hierarchical()), plan),
        },
        Fixed {
            name: ASYNC,
            run: |plan| run(SleepsUnderStress::start(None), plan),
        },
    ]
}

/// The same versions but stage 8's, shut down with the trait's `shutdown`
/// instead: every task accepted must run (or be cancelled), and nothing
/// is handed back.
#[cfg(test)]
pub(super) fn all_drained() -> Vec<Fixed> {
    vec![
        Fixed {
            name: "interrupt-cancel::timer",
            run: |plan| run(UnderStress::drained(timer()), plan),
        },
        Fixed {
            name: "threadpool-executor::scheduled",
            run: |plan| run(UnderStress::drained(scheduled()), plan),
        },
        Fixed {
            name: "threadpool-executor::pool, bounded queue",
            run: |plan| run(UnderStress::drained(pool(bounded())), plan),
        },
        Fixed {
            name: "wheel::hashed",
            run: |plan| run(UnderStress::drained(hashed()), plan),
        },
        Fixed {
            name: "wheel::hierarchical",
            run: |plan| run(UnderStress::drained(hierarchical()), plan),
        },
    ]
}

fn timer() -> Timer {
    Timer::new(&unique_name("st-tm")).expect("spawn the timer's thread")
}

/// Stage 6's scheduled pool, two workers.
fn scheduled() -> ScheduledThreadPool {
    threadpool_executor::presets::scheduled(2)
        .thread_factory(named("st-sp"))
        .build()
        .expect("a scheduled pool of two")
}

fn bounded() -> TaskQueue<Task> {
    TaskQueue::bounded(1000).expect("a capacity of 1000")
}

fn hashed() -> WheelPool<HashedWheel> {
    let config = HashedConfig {
        tick: WHEEL_TICK,
        slots: 512,
    };
    WheelPool::hashed(config, wheel_pool(), &unique_name("st-hw")).expect("a valid hashed wheel")
}

fn hierarchical() -> WheelPool<HierarchicalWheel> {
    let config = HierarchicalConfig { tick: WHEEL_TICK };
    WheelPool::hierarchical(config, wheel_pool(), &unique_name("st-lv"))
        .expect("a valid hierarchical wheel")
}

/// Stage 8's finished driver, as the matrix names its row.
pub const ASYNC: &str = "async-timer";

/// Threads named `<unique>-1`, `<unique>-2`, ...
fn named(what: &str) -> NamedThreads {
    NamedThreads::with_prefix(format!("{}-", unique_name(what)))
}

/// Stage 6's pool, two core threads and four at most: no delays, no
/// cancel; a full queue or a shutdown refuses with the task in the error.
fn pool(queue: TaskQueue<Task>) -> ThreadPool {
    ThreadPool::builder()
        .core_pool_size(2)
        .maximum_pool_size(4)
        .queue(queue)
        .thread_factory(named("st-pl"))
        .build()
        .expect("a pool of 2 to 4")
}

/// A pool of two for a wheel's due tasks.
fn wheel_pool() -> ThreadPool {
    threadpool_executor::presets::fixed(2)
        .thread_factory(named("st-wp"))
        .build()
        .expect("a pool of two")
}

/// The wheels tick every millisecond.
const WHEEL_TICK: Duration = Duration::from_millis(1);

/// How the stress counts one task that `shutdown_now` handed back.
pub(super) trait Pending: Send {
    /// Adds it to what the shutdown gave back.
    fn count(self, back: &mut HandBack);
}

/// The pool's and the wheels' own closures: the harness runs them.
impl Pending for Task {
    fn count(self, back: &mut HandBack) {
        back.runnable.push(self);
    }
}

/// The scheduled pool's tasks cannot run once it is shut down: counted.
impl Pending for Arc<ScheduledTask> {
    fn count(self, back: &mut HandBack) {
        back.opaque += 1;
    }
}

/// The Timer's handles to what it discarded: each says `Cancelled`, as the
/// client's own handle to the same task does, which is where it counts.
impl Pending for TaskHandle {
    fn count(self, _back: &mut HandBack) {}
}

/// A finished version, through the executor trait: the shutdown is
/// `shutdown_now`, whose hand-back `finish` counts once
/// `await_termination` says every thread has ended (or, drained, the
/// trait's `shutdown`, which lets what was accepted run).
pub(super) struct UnderStress<E: Executor> {
    on: E,
    drain: bool,
    handed_back: Mutex<Vec<E::Pending>>,
}

impl<E: Executor> UnderStress<E> {
    /// Shut down with `shutdown_now`.
    fn now(on: E) -> Self {
        UnderStress {
            on,
            drain: false,
            handed_back: Mutex::new(Vec::new()),
        }
    }

    /// Shut down with `shutdown`.
    #[cfg(test)]
    fn drained(on: E) -> Self {
        UnderStress {
            drain: true,
            ..UnderStress::now(on)
        }
    }
}

impl<E> Stressed for UnderStress<E>
where
    E: Finished,
    E::Pending: Pending,
{
    type Handle = E::Handle;

    const CANCEL_WHILE_RUNNING: bool = E::CANCEL_WHILE_RUNNING;

    fn schedule(&self, delay: Duration, task: Task) -> Option<E::Handle> {
        self.on.after(delay, task)
    }

    fn cancel(&self, handle: &E::Handle) -> bool {
        E::cancel(handle)
    }

    fn shutdown(&self) {
        if self.drain {
            self.on.shutdown();
        } else {
            *self.handed_back.lock() = self.on.shutdown_now();
        }
    }

    fn finish(self) -> HandBack {
        assert!(
            self.on.await_termination(TERMINATION),
            "the version did not end"
        );
        drop(self.on);
        let mut back = HandBack::default();
        for pending in self.handed_back.into_inner() {
            pending.count(&mut back);
        }
        back
    }

    fn report(handle: &E::Handle) -> Report {
        E::report(handle)
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
