//! Find it, F4: a retry timer on a scheduled pool.
//!
//! A retry timer tries an operation until it succeeds: at once, and after
//! each failure again, a backoff later. Each attempt is a one-shot task on
//! the scheduled pool of *Timers on a pool*
//! (`threadpool_executor::scheduled::ScheduledThreadPool`, one worker here):
//! an attempt that fails puts the next one in the pool, and keeps its future
//! so that `cancel` can reach it. After `cancel` returns, no attempt starts
//! (one already running finishes).
//!
//! It has one bug, of a kind the book has taught. Find it, and write the
//! test that catches it: `cargo xtask exercise start f4-find`. Your test
//! uses this module's public items (`use exercises::find::f4::{Retrier,
//! Pause, TRIED, ...}`). Behind [`Retrier`] runs one of several retry
//! timers: the one in this file, as it was written, and others, correct
//! ones built in different ways and ones with other bugs. Your test cannot
//! tell which it got except by what it does, and the check runs it against
//! each: it must fail on this one, and pass on every correct one.
//!
//! The pause points, one per step of an attempt (each is a
//! `kit::pause_point` call in the scheduler: read where it sits); they hold
//! the pool's worker, the thread an attempt runs on. Every version has
//! them, at the same steps:
//!
//! - [`TRIED`]: step 1 done, the operation has failed (or succeeded);
//! - [`ASKED`]: step 2 done, it has asked whether the retries were
//!   cancelled;
//! - [`QUEUED`]: step 3 done, the next attempt is in the pool.

use std::io;
use std::time::Duration;

use super::f4_versions::{Imp, Version};
pub use crate::catch::{Pause, Point};

/// Where step 1 ends, in every version.
pub(crate) const TRIED_AT: &str = "f4 retry timer: step 1, tried";
/// Where step 2 ends, in every version.
pub(crate) const ASKED_AT: &str = "f4 retry timer: step 2, asked";
/// Where step 3 ends, in every version.
pub(crate) const QUEUED_AT: &str = "f4 retry timer: step 3, queued";

/// An attempt has tried the operation (step 1).
pub const TRIED: Point = Point::new("TRIED", TRIED_AT);
/// An attempt that failed has asked whether the retries were cancelled
/// (step 2).
pub const ASKED: Point = Point::new("ASKED", ASKED_AT);
/// An attempt that failed has put the next one in the pool (step 3).
pub const QUEUED: Point = Point::new("QUEUED", QUEUED_AT);

/// A retry timer: a scheduled pool with one worker. Dropping it stops the
/// pool, drops the attempts not started, and waits for its worker.
// Boxed, as `Retry` is: one size, whichever version runs.
pub struct Retrier(Box<Imp>);

/// One operation's retries: [`Retry::cancel`] ends them.
pub struct Retry(Box<<Imp as Version>::Retry>);

impl Retrier {
    /// Starts a retry timer whose worker thread is named `name` (the name a
    /// [`Pause`] holds it by).
    ///
    /// # Errors
    /// If its thread cannot be started (or `name` contains a NUL byte).
    pub fn new(name: &str) -> io::Result<Retrier> {
        Ok(Retrier(Box::new(<Imp as Version>::start(name)?)))
    }

    /// Tries `op` on the worker at once, and after every failure (`false`)
    /// again, `backoff` later, until it succeeds (`true`) or the retries
    /// are cancelled.
    pub fn retry(&self, backoff: Duration, op: impl FnMut() -> bool + Send + 'static) -> Retry {
        crate::catch::calling("retry");
        Retry(Box::new(Version::retry(&*self.0, backoff, Box::new(op))))
    }
}

impl Retry {
    /// Ends the retries: no attempt starts after this returns (one already
    /// running finishes). Later calls do nothing.
    pub fn cancel(&self) {
        crate::catch::calling("cancel");
        <Imp as Version>::cancel(&*self.0);
    }
}

// ANCHOR: scheduler
/// The retry timer as it was written.
pub(crate) mod scheduler {
    use std::io;
    use std::sync::{Arc, Weak};
    use std::thread;
    use std::time::Duration;

    use parking_lot::Mutex;
    use threadpool_executor::factory::Body;
    use threadpool_executor::scheduled::{ScheduledFuture, ScheduledThreadPool};

    use super::{ASKED_AT, QUEUED_AT, TRIED_AT};

    /// The retry timer: its pool.
    pub struct Retrier {
        pool: Arc<ScheduledThreadPool>,
    }

    /// One operation's retries, shared by its handle and its attempts.
    struct Attempts {
        op: Mutex<Box<dyn FnMut() -> bool + Send>>,
        backoff: Duration,
        pool: Weak<ScheduledThreadPool>,
        state: Mutex<State>,
    }

    struct State {
        cancelled: bool,
        /// The attempt waiting in the pool, if one is.
        waiting: Option<ScheduledFuture<()>>,
    }

    /// One operation's retries.
    pub struct Retry {
        attempts: Arc<Attempts>,
    }

    impl Retrier {
        /// Starts the pool and its worker, named `name`.
        pub fn new(name: &str) -> io::Result<Retrier> {
            let name = name.to_owned();
            let pool = ScheduledThreadPool::builder()
                .core_pool_size(1)
                .thread_factory(move |body: Body| {
                    thread::Builder::new().name(name.clone()).spawn(body)
                })
                .build()
                .map_err(io::Error::other)?;
            if pool.prestart_all_core_threads() == 0 {
                return Err(io::Error::other("the retrier's worker did not start"));
            }
            Ok(Retrier {
                pool: Arc::new(pool),
            })
        }

        /// Puts the first attempt in the pool, due at once.
        pub fn retry(&self, backoff: Duration, op: impl FnMut() -> bool + Send + 'static) -> Retry {
            let attempts = Arc::new(Attempts {
                op: Mutex::new(Box::new(op)),
                backoff,
                pool: Arc::downgrade(&self.pool),
                state: Mutex::new(State {
                    cancelled: false,
                    waiting: None,
                }),
            });
            let mut state = attempts.state.lock();
            let first = Arc::clone(&attempts);
            state.waiting = self
                .pool
                .schedule(Duration::ZERO, move || attempt(first))
                .ok();
            drop(state);
            Retry { attempts }
        }
    }

    impl Drop for Retrier {
        fn drop(&mut self) {
            for task in self.pool.shutdown_now() {
                task.cancel(false); // drops the attempt it would have run
            }
            // An attempt that is running may hold the pool a moment: the
            // last owner must not be the worker, which would wait for itself.
            self.pool.await_termination(Duration::from_secs(3600));
        }
    }

    impl Retry {
        /// Marks the retries cancelled, and cancels the attempt waiting.
        pub fn cancel(&self) {
            let mut state = self.attempts.state.lock();
            state.cancelled = true;
            if let Some(waiting) = state.waiting.take() {
                waiting.cancel(false);
            }
        }
    }

    fn attempt(attempts: Arc<Attempts>) {
        // 1. Try: this attempt is no longer waiting in the pool.
        attempts.state.lock().waiting = None;
        let succeeded = (attempts.op.lock())();
        kit::pause_point(TRIED_AT);
        if succeeded {
            return;
        }
        // 2. Ask whether the retries were cancelled.
        if attempts.state.lock().cancelled {
            return;
        }
        kit::pause_point(ASKED_AT);
        // 3. Put the next attempt in the pool, a backoff from now.
        let Some(pool) = attempts.pool.upgrade() else {
            return; // the retrier is gone
        };
        let again = Arc::clone(&attempts);
        let next = pool.schedule(attempts.backoff, move || attempt(again)).ok();
        drop(pool);
        kit::pause_point(QUEUED_AT);
        // 4. Keep its future, so that `cancel` can reach it.
        attempts.state.lock().waiting = next;
    }
}
// ANCHOR_END: scheduler
