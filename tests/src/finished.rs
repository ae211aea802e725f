//! The finished versions, as the stress and the battery drive them:
//! through stage 6's executor trait, which every one of them implements
//! (stage 5's `Timer`, the pool, the scheduled pool, and stage 7's two
//! wheels on their pool, [`WheelPool`]). Their shutdown is the trait's
//! `shutdown_now`, their end its `await_termination`.
//!
//! What the trait leaves out, [`Finished`] adds: a task after a delay (the
//! pool, which has none, takes it at once through the trait's `execute`),
//! a periodic one, the cancel of one task, what a task's handle says
//! afterwards, and the wheels' own count of their wake-ups. Stage 8's
//! driver is not here: it runs no closures, so it is no executor (see
//! `threadpool_executor::executor`).

use std::time::Duration;

use interrupt_cancel::timer::{TaskHandle, TaskState, Timer};
use threadpool_executor::ThreadPool;
use threadpool_executor::executor::Executor;
use threadpool_executor::future::FutureState;
use threadpool_executor::scheduled::{ScheduledFuture, ScheduledThreadPool};
use wheel::executor::{RunningWheel, WheelPool};

use crate::stress::{Report, Task};

/// A periodic task.
pub type Periodic = Box<dyn FnMut() + Send + 'static>;

/// A finished version: the executor trait, and what it leaves out.
pub trait Finished: Executor + Send + Sync + 'static {
    /// What scheduling gives back: the version's own handle.
    type Handle: Send;

    /// Whether a cancel can succeed on a task already running (see
    /// [`Stressed::CANCEL_WHILE_RUNNING`](crate::stress::Stressed::CANCEL_WHILE_RUNNING)).
    const CANCEL_WHILE_RUNNING: bool = false;

    /// Schedules `task` to run `delay` from now; `None` if refused.
    fn after(&self, delay: Duration, task: Task) -> Option<Self::Handle>;

    /// Runs `task` every `period`, first after `delay`; `None` if refused,
    /// or if the version has no periodic tasks.
    fn at_fixed_rate(
        &self,
        _delay: Duration,
        _period: Duration,
        _task: Periodic,
    ) -> Option<Self::Handle> {
        None
    }

    /// The handle's cancel: true if this call kept the task from running.
    fn cancel(handle: &Self::Handle) -> bool;

    /// What the handle says, once the version has ended.
    fn report(handle: &Self::Handle) -> Report;

    /// How many times its thread has woken, for a version that counts
    /// them itself (the wheels' tickers); `None` for the others.
    fn wakeups(&self) -> Option<u64> {
        None
    }
}

/// Stage 5's `Timer`: `shutdown_now` discards the queue and marks each
/// discarded task's handle `Cancelled`.
impl Finished for Timer {
    type Handle = TaskHandle;

    fn after(&self, delay: Duration, task: Task) -> Option<TaskHandle> {
        self.schedule(delay, task).ok()
    }

    fn at_fixed_rate(
        &self,
        delay: Duration,
        period: Duration,
        task: Periodic,
    ) -> Option<TaskHandle> {
        self.schedule_at_fixed_rate(delay, period, task).ok()
    }

    fn cancel(handle: &TaskHandle) -> bool {
        handle.cancel()
    }

    fn report(handle: &TaskHandle) -> Report {
        match handle.state() {
            TaskState::Executed | TaskState::Panicked => Report::Ran,
            TaskState::Cancelled => Report::Cancelled,
            TaskState::Scheduled => Report::Nothing,
        }
    }
}

/// Stage 6's scheduled pool: `shutdown_now` hands back every task that
/// never started, as its own `ScheduledTask`s (which cannot run once their
/// pool is shut down): their futures stay `New`.
impl Finished for ScheduledThreadPool {
    type Handle = ScheduledFuture<()>;

    /// `cancel(false)` on a running task returns true and lets it finish.
    const CANCEL_WHILE_RUNNING: bool = true;

    fn after(&self, delay: Duration, task: Task) -> Option<ScheduledFuture<()>> {
        self.schedule(delay, task).ok()
    }

    fn at_fixed_rate(
        &self,
        delay: Duration,
        period: Duration,
        task: Periodic,
    ) -> Option<ScheduledFuture<()>> {
        self.schedule_at_fixed_rate(delay, period, task).ok()
    }

    fn cancel(handle: &ScheduledFuture<()>) -> bool {
        handle.cancel(false)
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

/// Stage 6's pool: no delays (each task is the trait's `execute`, at once),
/// no cancel; `shutdown_now` hands back the queued tasks.
impl Finished for ThreadPool {
    type Handle = ();

    fn after(&self, _delay: Duration, task: Task) -> Option<()> {
        Executor::execute(self, task).ok()
    }

    fn cancel(_handle: &()) -> bool {
        false
    }

    fn report(_handle: &()) -> Report {
        Report::Nothing
    }
}

/// One of stage 7's wheels on its pool: `shutdown_now` stops the wheel,
/// which hands back every task it held, then the pool, which hands back
/// those it had queued. A handle says nothing of how its task ended.
impl<W: RunningWheel> Finished for WheelPool<W> {
    type Handle = W::Handle;

    fn after(&self, delay: Duration, task: Task) -> Option<W::Handle> {
        self.schedule(delay, task).ok()
    }

    fn cancel(handle: &W::Handle) -> bool {
        W::cancel(handle)
    }

    fn report(_handle: &W::Handle) -> Report {
        Report::Nothing
    }

    fn wakeups(&self) -> Option<u64> {
        self.with_wheel(W::wakeups)
    }
}
