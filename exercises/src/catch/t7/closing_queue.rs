//! A correct version of T7's pool, written for the exercise: the queue
//! itself refuses a task once the pool is shut down.
//!
//! The stage's pool closes T7's window with a second look at the state
//! after queuing, and takes the task back out if the pool shut down
//! meanwhile. This one closes it where the task goes in: the queue has a
//! `closed` flag, set by `shutdown` under the queue's lock, and `execute`
//! pushes its task under that lock only if the flag is not set. A task is
//! either in the queue before the close, and the worker (which leaves only
//! once the queue is closed *and* empty) runs it, or it is refused and
//! handed back. `execute`'s first look at the state, without the lock, is
//! only a shortcut for a pool shut down long ago: the window after it is
//! as wide as the stage's, and harmless.
//!
//! Its worker also waits differently: `execute` wakes it, but `shutdown`
//! does not; the worker looks again at least once a tick, and so finds the
//! pool closed a tick later at most. (It costs an idle pool a hundred
//! wake-ups a second: fine for an exercise, not for a library.)

use std::collections::VecDeque;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};
use threadpool_executor::Task;
use threadpool_executor::error::{Reason, Rejected};

use super::Version;

/// How long the worker waits before it looks at the queue again unasked.
const TICK: Duration = Duration::from_millis(10);

/// The pool.
pub(super) struct ClosingQueue {
    shared: Arc<Shared>,
    worker: Option<JoinHandle<()>>,
}

/// What the pool shares with its worker.
struct Shared {
    /// Cleared by `shutdown`: `execute`'s first look, without the lock.
    running: AtomicBool,
    state: Mutex<State>,
    /// Notified (one waiter: the worker) when a task is queued.
    work: Condvar,
    /// Notified (every waiter) when the pool terminates.
    terminated: Condvar,
}

/// What the lock guards.
struct State {
    queue: VecDeque<Task>,
    /// Set by `shutdown`: the queue takes nothing more.
    closed: bool,
    /// Set by the worker as it leaves, the queue closed and empty.
    terminated: bool,
}

impl Version for ClosingQueue {
    const WINDOW: &'static str =
        "exercises::catch::t7::closing_queue: saw the pool running, not yet queued";

    fn start(prefix: &str) -> Self {
        let shared = Arc::new(Shared {
            running: AtomicBool::new(true),
            state: Mutex::new(State {
                queue: VecDeque::new(),
                closed: false,
                terminated: false,
            }),
            work: Condvar::new(),
            terminated: Condvar::new(),
        });
        let worker = thread::Builder::new()
            // The stage's factory names them so too: `<prefix>1`.
            .name(format!("{prefix}1"))
            .spawn({
                let shared = Arc::clone(&shared);
                move || work(&shared)
            })
            .expect("start the worker");
        ClosingQueue {
            shared,
            worker: Some(worker),
        }
    }

    fn execute(&self, task: Task) -> Result<(), Rejected<Task>> {
        // A shortcut, not the check: the state may change right after.
        if !self.shared.running.load(SeqCst) {
            return Err(Rejected::new(task, Reason::Shutdown));
        }
        kit::pause_point(Self::WINDOW);
        let mut state = self.shared.state.lock();
        // The check: under the lock `shutdown` closes the queue with.
        if state.closed {
            return Err(Rejected::new(task, Reason::Shutdown));
        }
        state.queue.push_back(task);
        self.shared.work.notify_one();
        Ok(())
    }

    fn shutdown(&self) {
        self.shared.running.store(false, SeqCst);
        self.shared.state.lock().closed = true;
        // No notify: the worker finds the queue closed within a tick.
    }

    fn await_termination(&self, timeout: Duration) -> bool {
        // A timeout too long for the clock is forever.
        let deadline = Instant::now().checked_add(timeout);
        let mut state = self.shared.state.lock();
        while !state.terminated {
            match deadline {
                Some(deadline) => {
                    if self
                        .shared
                        .terminated
                        .wait_until(&mut state, deadline)
                        .timed_out()
                    {
                        return state.terminated;
                    }
                }
                None => self.shared.terminated.wait(&mut state),
            }
        }
        true
    }

    fn is_terminated(&self) -> bool {
        self.shared.state.lock().terminated
    }

    fn queued(&self) -> usize {
        self.shared.state.lock().queue.len()
    }
}

/// The worker: runs queued tasks in order; leaves once the queue is closed
/// and empty.
fn work(shared: &Shared) {
    let mut state = shared.state.lock();
    loop {
        if let Some(task) = state.queue.pop_front() {
            // Not under the lock: a task may take its time, or call
            // `execute`. A panicking task does not take the worker with it.
            parking_lot::MutexGuard::unlocked(&mut state, || {
                let _ = panic::catch_unwind(AssertUnwindSafe(task));
            });
        } else if state.closed {
            state.terminated = true;
            shared.terminated.notify_all();
            return;
        } else {
            shared.work.wait_for(&mut state, TICK);
        }
    }
}

impl Drop for ClosingQueue {
    /// As the stage's pool: the tasks not yet started are thrown away, and
    /// the running one is waited for.
    fn drop(&mut self) {
        self.shared.running.store(false, SeqCst);
        let dropped = {
            let mut state = self.shared.state.lock();
            state.closed = true;
            std::mem::take(&mut state.queue)
        };
        // Outside the lock: dropping a task runs whatever its captures'
        // drops do.
        drop(dropped);
        self.shared.work.notify_one();
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}
