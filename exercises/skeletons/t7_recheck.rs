//! Exercise T7: a task that `shutdown` can strand.
//!
//! The pool of *A pool of workers*, cut down to one worker and an unbounded
//! queue. `execute` looks at the pool's state, and if it is running, queues
//! the task. Between the look and the queueing, `shutdown` can run to its
//! end: the worker finds the queue empty, leaves, and the pool terminates.
//! Then the task goes into the queue of a pool with no worker left: never
//! run, never rejected (T7).
//!
//! Your job: make sure that a task `execute` accepted (returned `Ok` for) is
//! run, and that a task it cannot run is handed back in the error. Keep the
//! public API, and keep the `kit::pause_point(WINDOW)` call between the look
//! and the queueing: the check holds the calling thread there while it shuts
//! the pool down.
//!
//! Check: `cargo xtask exercise check t7`. Hints: `cargo xtask exercise hint t7`.

use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Where the check holds the caller of `execute`: it saw the pool running
/// and has not queued its task yet.
pub const WINDOW: &str = "exercise t7: saw the pool running, not yet queued";

/// A task the pool runs.
pub type Task = Box<dyn FnOnce() + Send>;

/// A task the pool refused, handed back.
pub struct Rejected(pub Task);

impl fmt::Debug for Rejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Rejected(task)")
    }
}

struct State {
    queue: VecDeque<Task>,
    running: bool,
    workers: usize,
    terminated: bool,
}

struct Shared {
    state: Mutex<State>,
    /// Signalled when a task is queued or the pool shuts down.
    work: Condvar,
    /// Signalled when the pool terminates.
    done: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A pool of one worker thread.
pub struct ThreadPool {
    shared: Arc<Shared>,
    worker: Mutex<Option<JoinHandle<()>>>,
}

/// A running pool whose one worker is named `<prefix>-1`.
///
/// # Panics
/// If the worker thread cannot be started.
pub fn fixed_pool(prefix: &str) -> ThreadPool {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            queue: VecDeque::new(),
            running: true,
            workers: 1,
            terminated: false,
        }),
        work: Condvar::new(),
        done: Condvar::new(),
    });
    let worker = {
        let shared = Arc::clone(&shared);
        thread::Builder::new()
            .name(format!("{prefix}-1"))
            .spawn(move || run_worker(&shared))
            .expect("start the worker")
    };
    ThreadPool {
        shared,
        worker: Mutex::new(Some(worker)),
    }
}

impl ThreadPool {
    /// Runs `task` on the pool.
    ///
    /// # Errors
    /// [`Rejected`], with the task, if the pool is shut down.
    pub fn execute<F: FnOnce() + Send + 'static>(&self, task: F) -> Result<(), Rejected> {
        if !self.shared.lock().running {
            return Err(Rejected(Box::new(task)));
        }
        kit::pause_point(WINDOW);
        self.shared.lock().queue.push_back(Box::new(task));
        self.shared.work.notify_one();
        // TODO(T7): the pool was running when we looked, but `shutdown` may
        // have run since, and the worker may be gone. Make sure the task we
        // just queued is run, or handed back in the error.
        Ok(())
    }

    /// Stops taking tasks; queued tasks still run, then the worker leaves.
    pub fn shutdown(&self) {
        self.shared.lock().running = false;
        self.shared.work.notify_all();
    }

    /// Waits until the pool has terminated, at most `timeout`; whether it
    /// has.
    pub fn await_termination(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut state = self.shared.lock();
        while !state.terminated {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            state = self
                .shared
                .done
                .wait_timeout(state, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        true
    }
}

/// The worker: runs queued tasks until the pool is shut down and the queue
/// is empty; the last worker out terminates the pool.
fn run_worker(shared: &Shared) {
    let mut state = shared.lock();
    loop {
        if let Some(task) = state.queue.pop_front() {
            drop(state);
            task();
            state = shared.lock();
        } else if !state.running {
            state.workers -= 1;
            if state.workers == 0 {
                state.terminated = true;
                shared.done.notify_all();
            }
            return;
        } else {
            state = shared
                .work
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

impl Drop for ThreadPool {
    /// Shuts down and joins the worker.
    fn drop(&mut self) {
        self.shutdown();
        let worker = self
            .worker
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(worker) = worker {
            let _ = worker.join();
        }
    }
}
