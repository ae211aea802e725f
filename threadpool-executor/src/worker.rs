//! A worker: one thread that runs its first task, then takes tasks from the
//! queue until `get_task` says there is no reason to stay.
//!
//! - `get_task` blocks without limit at or below core size and waits at
//!   most the keep-alive above it (or always, if core threads may time
//!   out). A worker that timed out leaves only by a CAS on the ctl word
//!   that lowers the count it saw, so two idle workers cannot both see
//!   "one above core" and both leave: the pool shrinks to exactly its core
//!   size, never below (T5, JDK-6458662).
//! - Each task runs under the worker's run lock, which tells
//!   `shutdown`'s "interrupt the idle workers" to leave this one alone,
//!   and with the thread's interrupt cleared unless the pool is stopping.
//!   The lock and the worker's count of completed tasks share one atomic
//!   word.
//! - A task that panics is counted as completed, shown to the after hook,
//!   and ends the worker, as an exception ends Java's; the exit replaces it
//!   (T6), then reports the panic. A before hook that panics ends the
//!   worker the same way, with its task unrun and no after hook: the
//!   after hook hears only of tasks that ran (after_hook_always.rs shows
//!   what goes wrong otherwise).

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::Ordering::{Release, SeqCst};

use interrupt_cancel::interrupt::{InterruptHandle, InterruptToken};

use crate::builder::{Execution, panic_message};
use crate::ctl::RunState;
use crate::pool::Core;
use crate::sync::{Arc, AtomicU64, Mutex, thread};
use crate::task::Runnable;

// ANCHOR: worker
/// One worker, as the pool's set holds it. Aligned to keep two workers'
/// state words off one cache line: each writes its own for every task.
#[repr(align(128))]
pub(crate) struct Worker<T> {
    /// The task it was started with, until its thread takes it (or, if no
    /// thread could be started, until `add_worker` takes it back).
    pub(crate) first_task: Mutex<Option<T>>,
    /// Its run lock and its count of completed tasks, in one word:
    /// `completed << 2 | INTERRUPTING | RUNNING`. See [`Worker::lock_for_task`].
    state: AtomicU64,
    token: InterruptToken,
    pub(crate) interrupt: InterruptHandle,
}
// ANCHOR_END: worker

/// The worker runs a task: it holds its run lock.
const RUNNING: u64 = 1;
/// An interrupter holds the run lock of an idle worker.
const INTERRUPTING: u64 = 2;
/// One completed task, in the word.
const COMPLETED: u64 = 4;

/// An idle worker's run lock, held by the thread about to interrupt it.
pub(crate) struct IdleGuard<'a>(&'a AtomicU64);

impl Drop for IdleGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_and(!INTERRUPTING, SeqCst);
    }
}

impl<T> Worker<T> {
    pub(crate) fn new(first_task: Option<T>) -> Worker<T> {
        let token = InterruptToken::new();
        Worker {
            first_task: Mutex::new(first_task),
            state: AtomicU64::new(0),
            interrupt: token.handle(),
            token,
        }
    }

    // ANCHOR: run_lock
    /// Takes the run lock before a task; returns the word to unlock with.
    ///
    /// Java's Worker is its own lock (an AQS state word), so that
    /// "interrupt the idle workers" can tell an idle worker from a busy one
    /// and never interrupt a task; its source leaves a TODO to move the
    /// completed count into the lock word. Here it is done: the count and
    /// the lock change together, so nobody reads a task as both running
    /// and completed, and a task costs one CAS and one store.
    fn lock_for_task(&self) -> u64 {
        loop {
            let state = self.state.load(SeqCst);
            if state & INTERRUPTING == 0
                && self
                    .state
                    .compare_exchange(state, state | RUNNING, SeqCst, SeqCst)
                    .is_ok()
            {
                return state;
            }
            // An interrupter holds it, for the time of one interrupt.
            thread::yield_now();
        }
    }

    /// Releases the run lock after a task, counting it.
    fn unlock_after_task(&self, locked_at: u64) {
        // ORDERING: only the holder writes the word while it is locked, so
        // a plain store is enough; Release makes the task's effects and the
        // cleared interrupt visible to the next holder, whose CAS acquires.
        self.state.store(locked_at + COMPLETED, Release);
    }
    // ANCHOR_END: run_lock

    /// Takes an idle worker's run lock, if it is idle, to interrupt it.
    pub(crate) fn try_lock_idle(&self) -> Option<IdleGuard<'_>> {
        let state = self.state.load(SeqCst);
        let idle = state & (RUNNING | INTERRUPTING) == 0
            && self
                .state
                .compare_exchange(state, state | INTERRUPTING, SeqCst, SeqCst)
                .is_ok();
        idle.then_some(IdleGuard(&self.state))
    }

    /// Tasks completed, and whether one is running.
    pub(crate) fn progress(&self) -> (u64, bool) {
        let state = self.state.load(SeqCst);
        (state / COMPLETED, state & RUNNING != 0)
    }
}

/// The worker thread's whole life.
pub(crate) fn run<T: Runnable>(core: Arc<Core<T>>, worker: Arc<Worker<T>>) {
    // Tasks read it with `interrupt::check()`.
    worker.token.set_current();
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| run_worker(&core, &worker)));
    core.variant.worker_exited(&core, &worker, outcome.is_err());
    if let Err(panic) = outcome {
        match &core.hooks.on_panic {
            Some(hook) => hook(panic_message(&*panic)),
            // No hook: end the thread with the panic, whose message Rust's
            // panic hook printed when it happened.
            None => panic::resume_unwind(panic),
        }
    }
}

// ANCHOR: run_worker
/// Runs tasks until `get_task` says to stop; unwinds if a task panics.
fn run_worker<T: Runnable>(core: &Arc<Core<T>>, worker: &Worker<T>) {
    let thread = std::thread::current();
    let name = thread.name().unwrap_or_default();
    let mut first = worker.first_task.lock().take();
    while let Some(task) = first.take().or_else(|| get_task(core, worker)) {
        let locked_at = worker.lock_for_task();
        // Stopping: the task must see an interrupt. Not stopping: it must
        // not see one meant to wake the idle worker. A `shutdown_now`
        // between the look and the clear is caught by the second look.
        let stopping = core.ctl.get().at_least(RunState::Stop)
            || (worker.token.is_interrupted()
                && worker.token.clear()
                && core.ctl.get().at_least(RunState::Stop));
        if stopping && !worker.token.is_interrupted() {
            worker.interrupt.interrupt();
        }
        let run = Execution {
            worker: name,
            number: locked_at / COMPLETED + 1,
        };
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            core.variant.run_task(core, &run, task);
        }));
        // Counted whichever hook or task panicked, as Java's `finally`.
        worker.unlock_after_task(locked_at);
        if let Err(panic) = outcome {
            // The worker dies with its task, as in Java.
            panic::resume_unwind(panic);
        }
    }
}
// ANCHOR_END: run_worker

// ANCHOR: run_task
/// One task between its hooks. A before hook that panics unwinds from
/// here with the task unrun: the after hook is for tasks that ran, so it
/// is not called (Java's `afterExecute` is skipped when `beforeExecute`
/// throws). A task that panics is shown to the after hook, then unwinds.
pub(crate) fn run_task<T: Runnable>(core: &Core<T>, run: &Execution<'_>, task: T) {
    if let Some(before) = &core.hooks.before_execute {
        before(run, &task);
    }
    let Some(after) = &core.hooks.after_execute else {
        return task.run();
    };
    match panic::catch_unwind(AssertUnwindSafe(|| task.run())) {
        Ok(()) => after(run, None),
        Err(panic) => {
            after(run, Some(panic_message(&*panic)));
            panic::resume_unwind(panic);
        }
    }
}
// ANCHOR_END: run_task

/// The next task, or `None` if this worker should leave; then the worker
/// count was already lowered for it.
// ANCHOR: get_task
fn get_task<T: Runnable>(core: &Arc<Core<T>>, worker: &Worker<T>) -> Option<T> {
    let mut timed_out = false;
    loop {
        let c = core.ctl.get();
        // Shut down: leave once the queue is empty. Stopped: leave now.
        if c.at_least(RunState::Shutdown) && (c.at_least(RunState::Stop) || core.queue.is_empty()) {
            core.ctl.decrement();
            return None;
        }
        let count = c.worker_count();
        let may_time_out = core.config.allow_core_timeout() || count > core.config.core();
        // Too many workers (the maximum was lowered), or timed out while
        // it may: leave, unless it is the last worker and tasks wait.
        if (count > core.config.maximum() || (may_time_out && timed_out))
            && (count > 1 || core.queue.is_empty())
        {
            // Only if nobody changed the word since we read it: of two
            // workers that both saw one worker above core, one leaves.
            kit::pause_point("threadpool-executor::worker: may leave, count read, not yet lowered");
            if core.ctl.compare_and_decrement(c) {
                return None;
            }
            continue;
        }
        // ANCHOR_END: get_task
        // ANCHOR: wait_for_task
        let next = if may_time_out {
            core.queue.poll(core.config.keep_alive(), &worker.token)
        } else {
            core.queue.take(&worker.token).map(Some)
        };
        match next {
            Ok(Some(task)) => return Some(task),
            Ok(None) => timed_out = true,
            // Woken to look at the pool again (a shutdown, a new size).
            // The interrupt was for this look: clear it, or every later
            // wait would end at once.
            Err(_interrupted) => {
                worker.token.clear();
                timed_out = false;
            }
        }
    }
}
// ANCHOR_END: wait_for_task

// ANCHOR: process_worker_exit
/// The bookkeeping of a worker that leaves: out of the set, its count
/// added to the pool's, termination tried, and a replacement started if
/// the pool needs one.
pub(crate) fn process_worker_exit<T: Runnable>(
    core: &Arc<Core<T>>,
    worker: &Arc<Worker<T>>,
    abruptly: bool,
) {
    if abruptly {
        // A panic left `get_task` no chance to lower the count.
        core.ctl.decrement();
    }
    {
        let mut workers = core.main.lock();
        workers.completed += worker.progress().0;
        workers.set.retain(|other| !Arc::ptr_eq(other, worker));
    }
    core.try_terminate();
    let c = core.ctl.get();
    // ANCHOR: replacement
    if c.less_than(RunState::Stop) {
        if !abruptly {
            // ANCHOR_END: replacement
            let mut min = if core.config.allow_core_timeout() {
                0
            } else {
                core.config.core()
            };
            if min == 0 && !core.queue.is_empty() {
                min = 1; // someone must run what is queued
            }
            if c.worker_count() >= min {
                return;
            }
        }
        // A panic took this worker, or the pool is below its minimum:
        // replace it, or the queued tasks could wait forever (T6).
        let _ = core.add_worker(None, false);
    }
}
// ANCHOR_END: process_worker_exit
