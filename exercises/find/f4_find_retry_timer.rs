// Find it, F4: a retry timer on a scheduled pool.
//
// A retry timer tries an operation until it succeeds: at once, and after
// each failure again, a backoff later. Each attempt is a one-shot task on
// the scheduled pool of *Timers on a pool*
// (`threadpool_executor::scheduled::ScheduledThreadPool`, one worker here):
// an attempt that fails puts the next one in the pool, and keeps its future
// so that `cancel` can reach it. After `cancel` returns, no attempt starts
// (one already running finishes).
//
// It has one bug, of a kind the book has taught. Find it, and write the test
// that catches it: `cargo xtask exercise start f4-find`. Your test uses this
// file's public items (`use super::{Retrier, Pause, TRIED, ...}`); behind
// `Retrier` runs either the scheduler below or a mended one, and your test
// cannot tell which except by what it does.
//
// The pause points, one per step of an attempt (each is a
// `kit::pause_point` call in the scheduler: read where it sits); they hold
// the pool's worker, the thread an attempt runs on:
//
// - `TRIED`: step 1 done, the operation has failed (or succeeded);
// - `ASKED`: step 2 done, it has asked whether the retries were cancelled;
// - `QUEUED`: step 3 done, the next attempt is in the pool.
//
// Read down to the line "Stop here". Below it are the mended version, the
// reference test and the wrong tests: the answer.

use std::io;
use std::time::Duration;

pub use exercises::catch::{Pause, Point};
use exercises::catch::{Side, calling, side};

const TRIED_AT: &str = "f4 retry timer: step 1, tried";
const ASKED_AT: &str = "f4 retry timer: step 2, asked";
const QUEUED_AT: &str = "f4 retry timer: step 3, queued";

/// An attempt has tried the operation (step 1).
pub const TRIED: Point = Point::new("TRIED", TRIED_AT, TRIED_AT);
/// An attempt that failed has asked whether the retries were cancelled
/// (step 2).
pub const ASKED: Point = Point::new("ASKED", ASKED_AT, ASKED_AT);
/// An attempt that failed has put the next one in the pool (step 3).
pub const QUEUED: Point = Point::new("QUEUED", QUEUED_AT, QUEUED_AT);

/// A retry timer: a scheduled pool with one worker. Dropping it stops the
/// pool, drops the attempts not started, and waits for its worker.
pub struct Retrier(Version);

enum Version {
    Buggy(scheduler::Retrier),
    Fixed(fixed::Retrier),
}

/// One operation's retries: [`Retry::cancel`] ends them.
pub struct Retry(RetryVersion);

enum RetryVersion {
    Buggy(scheduler::Retry),
    Fixed(fixed::Retry),
}

impl Retrier {
    /// Starts a retry timer whose worker thread is named `name` (the name a
    /// [`Pause`] holds it by).
    ///
    /// # Errors
    /// If its thread cannot be started (or `name` contains a NUL byte).
    pub fn new(name: &str) -> io::Result<Retrier> {
        Ok(Retrier(match side() {
            Side::Buggy => Version::Buggy(scheduler::Retrier::new(name)?),
            Side::Fixed => Version::Fixed(fixed::Retrier::new(name)?),
        }))
    }

    /// Tries `op` on the worker at once, and after every failure (`false`)
    /// again, `backoff` later, until it succeeds (`true`) or the retries
    /// are cancelled.
    pub fn retry(&self, backoff: Duration, op: impl FnMut() -> bool + Send + 'static) -> Retry {
        calling("retry");
        Retry(match &self.0 {
            Version::Buggy(r) => RetryVersion::Buggy(r.retry(backoff, op)),
            Version::Fixed(r) => RetryVersion::Fixed(r.retry(backoff, op)),
        })
    }
}

impl Retry {
    /// Ends the retries: no attempt starts after this returns (one already
    /// running finishes). Later calls do nothing.
    pub fn cancel(&self) {
        calling("cancel");
        match &self.0 {
            RetryVersion::Buggy(r) => r.cancel(),
            RetryVersion::Fixed(r) => r.cancel(),
        }
    }
}

// ANCHOR: scheduler
/// The retry timer as it was written.
mod scheduler {
    use std::io;
    use std::sync::{Arc, Weak};
    use std::thread;
    use std::time::Duration;

    use parking_lot::Mutex;
    use threadpool_executor::factory::Body;
    use threadpool_executor::scheduled::{ScheduledFuture, ScheduledThreadPool};

    use super::{ASKED_AT, QUEUED_AT, TRIED_AT};

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

    pub struct Retry {
        attempts: Arc<Attempts>,
    }

    impl Retrier {
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

// ===================================================================
// Stop here: below are the mended version, the reference test and the
// wrong tests. Find the bug first.
// ===================================================================

/// The retry timer mended: an attempt asks, queues the next one and keeps
/// its future under one lock, the one `cancel` takes. A cancel then comes
/// before the question, and is seen, or after the future is kept, and
/// cancels it.
mod fixed {
    use std::io;
    use std::sync::{Arc, Weak};
    use std::thread;
    use std::time::Duration;

    use parking_lot::Mutex;
    use threadpool_executor::factory::Body;
    use threadpool_executor::scheduled::{ScheduledFuture, ScheduledThreadPool};

    use super::{ASKED_AT, QUEUED_AT, TRIED_AT};

    pub struct Retrier {
        pool: Arc<ScheduledThreadPool>,
    }

    struct Attempts {
        op: Mutex<Box<dyn FnMut() -> bool + Send>>,
        backoff: Duration,
        pool: Weak<ScheduledThreadPool>,
        state: Mutex<State>,
    }

    struct State {
        cancelled: bool,
        waiting: Option<ScheduledFuture<()>>,
    }

    pub struct Retry {
        attempts: Arc<Attempts>,
    }

    impl Retrier {
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
                task.cancel(false);
            }
            self.pool.await_termination(Duration::from_secs(3600));
        }
    }

    impl Retry {
        pub fn cancel(&self) {
            let mut state = self.attempts.state.lock();
            state.cancelled = true;
            if let Some(waiting) = state.waiting.take() {
                waiting.cancel(false);
            }
        }
    }

    fn attempt(attempts: Arc<Attempts>) {
        attempts.state.lock().waiting = None;
        let succeeded = (attempts.op.lock())();
        kit::pause_point(TRIED_AT);
        if succeeded {
            return;
        }
        // 2, 3 and 4 under the lock `cancel` takes.
        let mut state = attempts.state.lock();
        if state.cancelled {
            return;
        }
        kit::pause_point(ASKED_AT);
        let Some(pool) = attempts.pool.upgrade() else {
            return;
        };
        let again = Arc::clone(&attempts);
        let next = pool.schedule(attempts.backoff, move || attempt(again)).ok();
        drop(pool);
        kit::pause_point(QUEUED_AT);
        state.waiting = next;
    }
}

/// What `cargo xtask exercise start f4-find` gives you.
mod skeleton {
    // The window: TODO(F4) say here where the bug's window is, and what a
    // cancel that lands in it does.

    use super::Retrier;
    use kit::{Recorder, ms, threads};

    #[test]
    fn f4_retry_timer_caught() {
        let name = threads::unique_name("find-f4");
        let retrier = Retrier::new(&name).expect("start the retry timer");
        let rec = Recorder::new();

        // TODO(F4): the first attempt starts at once: to hold the worker
        // during it, arm the pause here.

        let r = rec.clone();
        let retry = retrier.retry(ms(100), move || {
            r.record("attempt");
            false // it always fails
        });

        // TODO(F4): once the worker is held in the window, do there what the
        // bug cannot take (from another thread, if the call may have to wait
        // for a lock the held thread has), let the worker go, and assert
        // what a retry timer promises (no attempt starts after `cancel` has
        // returned), in a message that starts with "F4".
        let _ = rec.eventually("attempt", ms(100));
        retry.cancel();
    }
}

/// One test that catches it.
mod reference {
    // The window: from step 2, once the attempt has asked and found the
    // retries not cancelled, until step 4 keeps the next attempt's future.
    // A cancel there finds no future to cancel; the attempt then queues the
    // next one anyway, and it starts after `cancel` has returned.

    use std::thread;

    use super::{ASKED, Pause, Retrier};
    use kit::scale::in_ms;
    use kit::{Recorder, ms, threads};

    /// The backoff between attempts: longer than the hold, so that the
    /// next attempt is never due while the worker is held.
    const BACKOFF_MS: u64 = 300;
    /// How long after its backoff an attempt may start late.
    const MARGIN_MS: u64 = 300;
    /// How long the canceller may try to get in while the worker is held.
    const HOLD_MS: u64 = 100;

    #[test]
    fn f4_retry_timer_caught() {
        let name = threads::unique_name("find-f4");
        let retrier = Retrier::new(&name).expect("start the retry timer");
        let rec = Recorder::new();
        // Armed first: the first attempt fails at once and asks.
        let pause = Pause::arm(ASKED, &name);
        let r = rec.clone();
        let retry = retrier.retry(ms(BACKOFF_MS), move || {
            r.record("attempt");
            false
        });
        pause.wait_reached();

        // The cancel, from another thread: where the attempt holds the lock
        // `cancel` takes, it waits for the release.
        let canceller = {
            let rec = rec.clone();
            thread::spawn(move || {
                rec.record("cancel called");
                retry.cancel();
                rec.record("cancel returned");
            })
        };
        let _ = rec.eventually("cancel returned", ms(HOLD_MS));
        pause.release();
        canceller.join().expect("the canceller thread");
        let returned = rec
            .at("cancel returned")
            .expect("recorded by the canceller");

        // An attempt the cancel missed starts a backoff after it was queued.
        let second = rec.wait_until_count("attempt", 2, ms(BACKOFF_MS + MARGIN_MS));
        assert!(
            second.is_none_or(|at| at < returned),
            "F4 retry timer: cancel returned at {} ms, and attempt 2 started at {} ms: the \
             cancel missed the attempt queued after it\n{}",
            in_ms(returned),
            second.map_or(0, in_ms),
            rec.log()
        );
    }
}

/// Wrong: it sleeps and hopes. No pause point: it lets the first attempt
/// fail, sleeps a moment so that the worker is "surely" between its
/// question and keeping the next future, and cancels. The gap is a few
/// instructions wide.
mod wrong_sleeps_and_hopes {
    // verdict: never-held

    use super::Retrier;
    use kit::{Recorder, ms, threads};
    use std::time::Duration;

    #[test]
    fn f4_retry_timer_caught() {
        let name = threads::unique_name("find-f4");
        let retrier = Retrier::new(&name).expect("start the retry timer");
        let rec = Recorder::new();
        let r = rec.clone();
        let retry = retrier.retry(ms(100), move || {
            r.record("attempt");
            false
        });
        let _ = rec.eventually("attempt", ms(100));
        std::thread::sleep(Duration::from_micros(20));
        retry.cancel();
        assert!(
            rec.wait_until_count("attempt", 2, ms(400)).is_none(),
            "F4 retry timer: an attempt after cancel"
        );
    }
}

/// Wrong: it fails always. It forces the window well (at its other end,
/// once the next attempt is queued), then asserts more than a retry timer
/// does: that the attempt held in the window never ran, though it had run
/// before the cancel came.
mod wrong_fails_always {
    // verdict: fails-on-fixed

    use std::thread;

    use super::{Pause, QUEUED, Retrier};
    use kit::{Recorder, ms, threads};

    #[test]
    fn f4_retry_timer_caught() {
        let name = threads::unique_name("find-f4");
        let retrier = Retrier::new(&name).expect("start the retry timer");
        let rec = Recorder::new();
        let pause = Pause::arm(QUEUED, &name);
        let r = rec.clone();
        let retry = retrier.retry(ms(100), move || {
            r.record("attempt");
            false
        });
        pause.wait_reached();
        let canceller = thread::spawn(move || retry.cancel());
        std::thread::sleep(ms(100));
        pause.release();
        canceller.join().expect("the canceller thread");
        let _ = rec.wait_until_count("attempt", 2, ms(400));
        assert_eq!(
            rec.count("attempt"),
            0,
            "F4 retry timer: an attempt ran, and the retries were cancelled"
        );
    }
}

/// Wrong: it asserts nothing. It forces the window well, cancels, waits a
/// backoff and more, and never says what it expected.
mod wrong_asserts_nothing {
    // verdict: misses-the-bug

    use std::thread;

    use super::{ASKED, Pause, Retrier};
    use kit::{Recorder, ms, threads};

    #[test]
    fn f4_retry_timer_caught() {
        let name = threads::unique_name("find-f4");
        let retrier = Retrier::new(&name).expect("start the retry timer");
        let rec = Recorder::new();
        let pause = Pause::arm(ASKED, &name);
        let r = rec.clone();
        let retry = retrier.retry(ms(100), move || {
            r.record("attempt");
            false
        });
        pause.wait_reached();
        let canceller = thread::spawn(move || retry.cancel());
        std::thread::sleep(ms(100));
        pause.release();
        canceller.join().expect("the canceller thread");
        let second = rec.wait_until_count("attempt", 2, ms(400));
        println!("attempt 2: {second:?}");
    }
}

/// Wrong: it catches another bug. It holds the worker, but what it asserts
/// is that an operation that panics is tried again: the pool's future
/// catches the panic, the attempt queues no next one, and the retries end
/// quietly, in both versions (the kind of bug I6 is, in *A timer you can
/// interrupt*).
mod wrong_other_bug {
    // verdict: fails-on-fixed

    use super::{Pause, Retrier, TRIED};
    use kit::{Recorder, ms, threads};

    #[test]
    fn f4_retry_timer_caught() {
        let name = threads::unique_name("find-f4");
        let retrier = Retrier::new(&name).expect("start the retry timer");
        let rec = Recorder::new();
        let pause = Pause::arm(TRIED, &name);
        let r = rec.clone();
        let _retry = retrier.retry(ms(50), move || {
            r.record("attempt");
            if r.count("attempt") == 2 {
                panic!("attempt 2 panics, on purpose");
            }
            false
        });
        pause.wait_reached();
        pause.release();
        assert!(
            rec.wait_until_count("attempt", 3, ms(500)).is_some(),
            "F4 retry timer: no attempt after one that panicked"
        );
    }
}

/// Wrong: it holds the worker at the wrong point. It cancels while the
/// worker is held right after the operation failed, before it asks: there
/// the cancel comes before the question, and the attempt sees it. It passes
/// on both versions.
mod wrong_point {
    // verdict: misses-the-bug

    use std::thread;

    use super::{Pause, Retrier, TRIED};
    use kit::{Recorder, ms, threads};

    #[test]
    fn f4_retry_timer_caught() {
        let name = threads::unique_name("find-f4");
        let retrier = Retrier::new(&name).expect("start the retry timer");
        let rec = Recorder::new();
        let pause = Pause::arm(TRIED, &name);
        let r = rec.clone();
        let retry = retrier.retry(ms(100), move || {
            r.record("attempt");
            false
        });
        pause.wait_reached();
        let canceller = {
            let rec = rec.clone();
            thread::spawn(move || {
                retry.cancel();
                rec.record("cancel returned");
            })
        };
        let _ = rec.eventually("cancel returned", ms(100));
        pause.release();
        canceller.join().expect("the canceller thread");
        assert!(
            rec.wait_until_count("attempt", 2, ms(400)).is_none(),
            "F4 retry timer: an attempt after cancel"
        );
    }
}
