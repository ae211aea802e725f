//! Fix 1: `cancel` sets the flag and then notifies the monitor, as
//! `schedule` does for a new head, so a thread waiting for a deadline wakes
//! up and reads the flag (the Java Timer article's first fix). Only
//! `cancel` changed; the loop is cancel_flag.rs's.
//!
//! This version is problematic too. The notify reaches a thread that is
//! already waiting on the monitor, and no other. A cancel that lands
//! between the thread's flag check and its wait (while it takes the head,
//! or before it holds the monitor) notifies nobody, and the thread then
//! waits out the head's full deadline (P3 `cancel_notify_race`). And a
//! thread blocked in `take` on an empty queue waits on the queue, not on
//! the monitor: P1 is untouched.

use std::io;
use std::sync::PoisonError;
use std::time::Duration;

use crate::error::ScheduleError;
use crate::sync::{self, Arc, AtomicBool, Condvar, Mutex, SeqCst, lock, thread};

// The queue and its entries are cancel_flag.rs's: what changes in this
// version is `cancel`, nothing else.
use crate::cancel_flag::BlockingQueue;

// ANCHOR: shared
struct Shared {
    /// The article's `AtomicBoolean`: set by `cancel`, read by the thread
    /// at the top of its loop and by `schedule`.
    cancelled: AtomicBool,
    queue: BlockingQueue,
    /// The article's `lock` object: the monitor the thread waits on for
    /// the head's deadline. It guards nothing.
    monitor: Mutex<()>,
    wakeup: Condvar,
}
// ANCHOR_END: shared

/// A timer with one thread whose `cancel` notifies, and can notify
/// nobody.
pub struct Timer {
    shared: Arc<Shared>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Timer {
    /// Starts a timer whose thread is named `name`.
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be started.
    pub fn new(name: &str) -> io::Result<Timer> {
        if name.contains('\0') {
            // std would panic on it; a bad name is bad input, so an error.
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a thread name cannot contain NUL",
            ));
        }
        let shared = Arc::new(Shared {
            cancelled: AtomicBool::new(false),
            queue: BlockingQueue::new(),
            monitor: Mutex::new(()),
            wakeup: Condvar::new(),
        });
        let thread = {
            let shared = Arc::clone(&shared);
            thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || main_loop(&shared))?
        };
        Ok(Timer {
            shared,
            thread: Some(thread),
        })
    }

    // ANCHOR: schedule
    /// Runs `task` on the timer thread once `delay` has passed.
    ///
    /// # Errors
    /// [`ScheduleError::Cancelled`] once the timer is cancelled;
    /// [`ScheduleError::DelayOverflow`] if `now + delay` overflows the clock.
    pub fn schedule<F>(&self, delay: Duration, task: F) -> Result<(), ScheduleError>
    where
        F: FnOnce() + Send + 'static,
    {
        if self.shared.cancelled.load(SeqCst) {
            return Err(ScheduleError::Cancelled);
        }
        let deadline = sync::now()
            .checked_add(delay)
            .ok_or(ScheduleError::DelayOverflow(delay))?;
        if self.shared.queue.put(deadline, Box::new(task)) {
            let _monitor = lock(&self.shared.monitor);
            self.shared.wakeup.notify_one();
        }
        Ok(())
    }
    // ANCHOR_END: schedule

    // ANCHOR: cancel
    /// Asks the timer to stop: sets the flag, then notifies the monitor.
    /// Returns at once; later calls do nothing. A thread waiting for a
    /// deadline wakes and stops; one blocked in `take` does not (P1), and
    /// one between its flag check and its wait misses the notify and stops
    /// at the deadline (P3).
    pub fn cancel(&self) {
        if !self.shared.cancelled.swap(true, SeqCst) {
            // New: wake the thread if it is waiting for a deadline. If it
            // has read the flag and is not waiting yet, nobody hears this:
            // P3.
            let _monitor = lock(&self.shared.monitor);
            self.shared.wakeup.notify_one();
        }
    }
    // ANCHOR_END: cancel

    /// Not part of java.util.Timer, and not a fix: a way for a test to free
    /// a thread that P1 left blocked in `take`, so that no thread outlives
    /// its test (as in cancel_flag.rs).
    ///
    /// The returned function puts a no-op task, due now, into the queue,
    /// past the cancelled check: the thread takes it, runs it, reads the
    /// flag and ends.
    pub fn rescue(&self) -> impl Fn() + Send + Sync + 'static {
        let shared = Arc::clone(&self.shared);
        move || {
            shared.queue.put(sync::now(), Box::new(|| {}));
        }
    }

    /// Not part of java.util.Timer, and not a fix: a way for a test to end
    /// a thread that a cancel left in its timed wait until a far deadline
    /// (P2, P3) without waiting out the deadline (as in cancel_flag.rs), once the test has
    /// seen what it came for.
    ///
    /// The returned function notifies the monitor: the thread wakes, puts
    /// its task back, reads the flag and ends. A thread not cancelled goes
    /// back to its wait.
    pub fn rescue_from_wait(&self) -> impl Fn() + Send + Sync + 'static {
        let shared = Arc::clone(&self.shared);
        move || {
            let _monitor = lock(&shared.monitor);
            shared.wakeup.notify_all();
        }
    }
}

// ANCHOR: main_loop
fn main_loop(shared: &Shared) {
    while !shared.cancelled.load(SeqCst) {
        kit::pause_point("poison-pill::notify_on_cancel: checked the flag, about to take");
        // P1, still: the notify of `cancel` goes to the monitor, and this
        // waits on the queue.
        let entry = shared.queue.take();
        let now = sync::now();
        if entry.deadline <= now {
            (entry.task)();
            continue;
        }
        // ANCHOR: window
        // P3: the flag was read at the top of the loop, and we are not
        // waiting yet. A cancel now notifies nobody, and we then wait for
        // this entry's deadline.
        kit::pause_point("poison-pill::notify_on_cancel: took the head, not yet waiting");
        let monitor = lock(&shared.monitor);
        kit::pause_point("poison-pill::notify_on_cancel: holding the monitor, about to wait");
        // A cancel from now on needs the monitor we hold, so its notify
        // comes when we are waiting, and wakes us: P2 is fixed here.
        let (monitor, _) = shared
            .wakeup
            .wait_timeout(monitor, entry.deadline - now)
            .unwrap_or_else(PoisonError::into_inner);
        // ANCHOR_END: window
        drop(monitor);
        shared.queue.put_back(entry);
    }
}
// ANCHOR_END: main_loop

// ANCHOR: drop
impl Drop for Timer {
    /// Cancels, then joins the thread: returns once the thread has ended,
    /// which here can be never (P1) or at the head's deadline (P3).
    ///
    /// On the timer thread itself (a task dropped the last owner) it only
    /// cancels: a thread cannot join itself.
    fn drop(&mut self) {
        self.cancel();
        if let Some(handle) = self.thread.take()
            && handle.thread().id() != thread::current().id()
        {
            // A panicking task has already reported itself; stage 5 is
            // about keeping the timer alive through one.
            let _ = handle.join();
        }
    }
}
// ANCHOR_END: drop
