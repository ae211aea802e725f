//! Exercise P4: a cancel the thread cannot miss.
//!
//! The timer of *A timer that will not stop*, fed by a channel: clients send
//! tasks, and the timer thread keeps them in a heap of its own and blocks on
//! the channel, in `recv` when it has nothing, in `recv_deadline` until its
//! earliest task is due. `cancel` sets a flag that the thread reads at the
//! top of its loop: blocked on an empty channel it never reads it (P1), and
//! waiting for a far task it reads it only at that task's deadline (P2).
//!
//! Your job: make `cancel` reach the thread wherever it blocks, so the thread
//! ends at once and no queued task runs. Keep the public API (`Timer::new`,
//! `schedule`, `cancel`, and the drop that cancels and joins) and keep the two
//! `kit::pause_point` calls where they are: the check holds your thread there
//! while it cancels.
//!
//! Check: `cargo xtask exercise check p4`. Hints: `cargo xtask exercise hint p4`.

use std::collections::BinaryHeap;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

pub use poison_pill::error::ScheduleError;

/// Where the check holds the thread when nothing is queued: it is about to
/// block in `recv`.
pub const IDLE: &str = "exercise p4: heap empty, about to receive";
/// Where the check holds the thread when a far task is queued: it has read
/// the flag and is about to wait for the task's deadline.
pub const WAIT: &str = "exercise p4: read the flag, about to wait";

/// A task and when it is due; the heap's order is earliest first.
struct Job {
    due: Instant,
    seq: u64,
    task: Box<dyn FnOnce() + Send>,
}

impl Ord for Job {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (other.due, other.seq).cmp(&(self.due, self.seq))
    }
}

impl PartialOrd for Job {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Job {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Job {}

/// A timer with one thread, fed by a channel.
pub struct Timer {
    sender: Sender<Job>,
    /// Set by `cancel`; read by `schedule` and by the thread.
    cancelled: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Timer {
    /// A timer whose thread is named `name`.
    ///
    /// # Errors
    /// If the thread cannot be spawned (or `name` contains a NUL byte).
    pub fn new(name: &str) -> io::Result<Timer> {
        let (sender, jobs) = crossbeam_channel::unbounded();
        let cancelled = Arc::new(AtomicBool::new(false));
        let thread = {
            let cancelled = Arc::clone(&cancelled);
            thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || main_loop(&jobs, &cancelled))?
        };
        Ok(Timer {
            sender,
            cancelled,
            thread: Some(thread),
        })
    }

    /// Runs `task` on the timer thread once `delay` has passed.
    ///
    /// # Errors
    /// [`ScheduleError::Cancelled`] once the timer is cancelled;
    /// [`ScheduleError::DelayOverflow`] if now + `delay` overflows `Instant`.
    pub fn schedule(
        &self,
        delay: Duration,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<(), ScheduleError> {
        let due = Instant::now()
            .checked_add(delay)
            .ok_or(ScheduleError::DelayOverflow(delay))?;
        if self.cancelled.load(Ordering::SeqCst) {
            return Err(ScheduleError::Cancelled);
        }
        let job = Job {
            due,
            seq: 0, // numbered by the thread
            task: Box::new(task),
        };
        self.sender.send(job).map_err(|_| ScheduleError::Cancelled)
    }

    /// Stops the timer: no task starts from now on; queued tasks are
    /// discarded. Returns at once.
    pub fn cancel(&self) {
        // TODO(P4): a flag is read only when the thread comes round to it;
        // a thread blocked in `recv` or `recv_deadline` never does, or only
        // at its deadline. Make the cancel wake it, wherever it blocks.
        // (`cancel` takes `&self`: to drop something owned here, such as
        // a sender, keep it where `&self` can take it out, for instance
        // `Mutex<Option<_>>`.)
        self.cancelled.store(true, Ordering::SeqCst);
    }
}

/// The timer thread.
fn main_loop(jobs: &Receiver<Job>, cancelled: &AtomicBool) {
    let mut heap = BinaryHeap::new();
    let mut next_seq = 0;
    while !cancelled.load(Ordering::SeqCst) {
        let now = Instant::now();
        let received = match heap.peek().map(|head: &Job| head.due) {
            Some(due) if due <= now => {
                let job = heap.pop().expect("the head we just peeked");
                (job.task)();
                continue;
            }
            Some(due) => {
                kit::pause_point(WAIT);
                jobs.recv_deadline(due)
            }
            None => {
                kit::pause_point(IDLE);
                jobs.recv().map_err(|_| RecvTimeoutError::Disconnected)
            }
        };
        match received {
            Ok(mut job) => {
                job.seq = next_seq;
                next_seq += 1;
                heap.push(job);
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}

impl Drop for Timer {
    /// Cancels, then joins the thread.
    fn drop(&mut self) {
        self.cancel();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
