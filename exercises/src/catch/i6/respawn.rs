//! An I6 wheat written for the exercise: a timer whose thread dies with a
//! task that panics, and which starts a new thread to go on, as
//! `ThreadPoolExecutor` replaces a worker that a task's exception killed
//! (`processWorkerExit`).
//!
//! Nothing catches the panic: it unwinds the timer thread to its end, as in
//! the stage's `interrupted_only.rs`. On its way out the thread's guard
//! sees that it is unwinding and, unless the timer was cancelled, starts a
//! successor on the same queue. The queue outlives any one thread, so
//! every task accepted, before the panic or after it, runs, on the
//! successor: `Ok` from `schedule` still means the task will run.
//!
//! The successor has a name of its own (a pool names each new worker anew):
//! the thread named as the timer was is gone after the panic, and the timer
//! works on. The successor joins the thread it replaces before it takes a
//! task, so that joining the last thread joins them all.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::io;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::catch::ScheduleError;

/// A task: runs once, on the timer thread.
type Task = Box<dyn FnOnce() + Send + 'static>;

/// A task and when it is due; `seq` keeps equal deadlines in order.
struct Entry {
    deadline: Instant,
    seq: u64,
    task: Task,
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap pops its greatest element: reverse, earliest first.
        (other.deadline, other.seq).cmp(&(self.deadline, self.seq))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

/// What the one lock guards: the queue, and whether the timer was
/// cancelled.
struct State {
    heap: BinaryHeap<Entry>,
    next_seq: u64,
    cancelled: bool,
}

struct Shared {
    state: Mutex<State>,
    /// Notified on a new head, and on cancel.
    changed: Condvar,
    /// The thread that runs the tasks now: a dying thread's guard puts its
    /// successor here.
    thread: Mutex<Option<JoinHandle<()>>>,
    /// The first thread's name, from which a successor's is made.
    name: String,
}

/// Locks `mutex`, ignoring poisoning: no task runs under our locks, and a
/// thread's guard must not panic while the thread unwinds.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A timer with one thread at a time, replaced when a task kills it.
pub(in crate::catch) struct Timer {
    shared: Arc<Shared>,
}

impl Timer {
    /// Starts a timer whose (first) thread is named `name`.
    pub(in crate::catch) fn new(name: &str) -> io::Result<Timer> {
        if name.contains('\0') {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a thread name cannot contain NUL",
            ));
        }
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                heap: BinaryHeap::new(),
                next_seq: 0,
                cancelled: false,
            }),
            changed: Condvar::new(),
            thread: Mutex::new(None),
            name: name.to_owned(),
        });
        let first = start(Arc::clone(&shared), name.to_owned(), None)?;
        *lock(&shared.thread) = Some(first);
        Ok(Timer { shared })
    }

    /// Runs `task` once `delay` has passed; refused once the timer is
    /// cancelled.
    pub(in crate::catch) fn schedule(
        &self,
        delay: Duration,
        task: Task,
    ) -> Result<(), ScheduleError> {
        let deadline = Instant::now()
            .checked_add(delay)
            .ok_or(ScheduleError::DelayOverflow(delay))?;
        let mut state = lock(&self.shared.state);
        if state.cancelled {
            return Err(ScheduleError::Cancelled);
        }
        let seq = state.next_seq;
        state.next_seq += 1;
        state.heap.push(Entry {
            deadline,
            seq,
            task,
        });
        if state.heap.peek().is_some_and(|head| head.seq == seq) {
            self.shared.changed.notify_one();
        }
        Ok(())
    }

    /// Stops the timer: no task starts from now on, the queued ones are
    /// discarded, and the thread ends.
    pub(in crate::catch) fn cancel(&self) {
        let discarded = {
            let mut state = lock(&self.shared.state);
            state.cancelled = true;
            self.shared.changed.notify_one();
            std::mem::take(&mut state.heap)
        };
        // Dropped outside the lock: a task's captured values may do anything.
        drop(discarded);
    }
}

/// Starts a timer thread named `name` on `shared`'s queue; it first joins
/// `predecessor`, the thread it replaces.
fn start(
    shared: Arc<Shared>,
    name: String,
    predecessor: Option<JoinHandle<()>>,
) -> io::Result<JoinHandle<()>> {
    thread::Builder::new().name(name).spawn(move || {
        if let Some(predecessor) = predecessor {
            // It is finishing its unwind; its panic was reported already.
            let _ = predecessor.join();
        }
        let _replace = Replace(&shared);
        main_loop(&shared);
    })
}

/// The name of the thread that replaces the one named `name`: another one,
/// as Linux keeps it (15 bytes).
fn successor_name(name: &str) -> String {
    let mut keep = name.len().min(kit::threads::MAX_NAME - 1);
    while !name.is_char_boundary(keep) {
        keep -= 1;
    }
    format!("{}'", &name[..keep])
}

/// A timer thread's guard: dropped as the thread ends, normally (the timer
/// was cancelled) or unwinding from a task's panic, when it starts the
/// successor.
struct Replace<'a>(&'a Arc<Shared>);

impl Drop for Replace<'_> {
    fn drop(&mut self) {
        if !thread::panicking() {
            return; // cancelled: nothing to replace
        }
        let shared = self.0;
        // Held while the successor starts: the timer's drop takes it to
        // find the thread to join, and finds this one or the successor.
        let mut slot = lock(&shared.thread);
        if lock(&shared.state).cancelled {
            return;
        }
        // This thread's own handle, if the slot still has it: the
        // successor joins it.
        let me = slot.take();
        match start(Arc::clone(shared), successor_name(&shared.name), me) {
            Ok(successor) => *slot = Some(successor),
            Err(_) => {
                // No thread to go on with: refuse work from now on, and
                // drop what was queued, rather than accept tasks no thread
                // will run. The handle of this thread went with the failed
                // start: nothing left to join but a thread about to end.
                let discarded = {
                    let mut state = lock(&shared.state);
                    state.cancelled = true;
                    std::mem::take(&mut state.heap)
                };
                drop(slot);
                drop(discarded);
            }
        }
    }
}

fn main_loop(shared: &Shared) {
    let mut state = lock(&shared.state);
    while !state.cancelled {
        let now = Instant::now();
        match state.heap.peek().map(|head| head.deadline) {
            None => {
                state = shared
                    .changed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            Some(deadline) if deadline <= now => {
                let entry = state.heap.pop().expect("the head we just peeked");
                drop(state); // tasks run outside the lock
                // A panic here unwinds this thread to its end; its
                // `Replace` guard starts the successor.
                (entry.task)();
                state = lock(&shared.state);
            }
            Some(deadline) => {
                state = shared
                    .changed
                    .wait_timeout(state, deadline - now)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
            }
        }
    }
}

impl Drop for Timer {
    /// Cancels, then joins the thread that runs the tasks now (which joined
    /// any it replaced). On a timer thread itself it only cancels.
    fn drop(&mut self) {
        self.cancel();
        loop {
            // A thread dying as we cancel may have left a successor: it
            // sees the flag and ends, and is joined in the next turn.
            let Some(handle) = lock(&self.shared.thread).take() else {
                return;
            };
            if handle.thread().id() == thread::current().id() {
                return; // a task dropped the timer: a thread cannot join itself
            }
            let _ = handle.join();
        }
    }
}
