//! F4's versions: every retry timer that can run behind
//! [`f4::Retrier`](super::f4::Retrier) but the one the student reads (the
//! scheduler as written, in `exercises/find/f4_find_retry_timer.rs`).
//!
//! Correct ones, each of which no cancel can miss, in its own way:
//!
//! - `mended`: the scheduler as written, whose attempt asks, queues the
//!   next one and keeps its future under the lock `cancel` takes
//!   ([`one_shot`]). The worker holds that lock at `ASKED` and `QUEUED`: a
//!   `cancel` made while it is held there waits for it.
//! - `recheck`: the attempt lets the lock go while it queues, as written,
//!   but asks again once it has kept the future, and cancels it itself if
//!   the retries were cancelled meanwhile ([`one_shot`]); on a pool with
//!   the JDK's defaults (leader-follower, cancelled tasks left in the queue
//!   until due). `cancel` never waits.
//! - `asks_first`: as written, but every attempt asks whether the retries
//!   were cancelled before it tries ([`one_shot`]): one that a cancel missed
//!   ends without trying. `cancel` never waits.
//! - `periodic`: one fixed-delay periodic task instead of a chain of
//!   one-shot ones ([`periodic`]): its future exists before `retry`
//!   returns, and cancelling it stops it, even mid-run. Its next attempt
//!   is due `backoff` after the last one *ended*, not after it asked.
//!
//! Buggy ones:
//!
//! - `as_written` (F4): a cancel between the question and keeping the
//!   future finds nothing to cancel.
//! - `flag_only` (P1): `cancel` only raises the flag, which an attempt
//!   reads after it has tried: the attempt waiting in the pool when the
//!   retries are cancelled still tries ([`one_shot`]).
//! - `periodic_wrapping` (T15): `periodic` on the scheduled pool whose
//!   next deadline wraps around: an enormous backoff makes the next attempt
//!   due at once, again and again ([`periodic`]).
//!
//! Every version passes `TRIED`, `ASKED` and `QUEUED` at the same steps of
//! an attempt, on one worker named as the test says, and names no other
//! thread.

mod one_shot;
mod periodic;

use std::io;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use threadpool_executor::factory::Body;
use threadpool_executor::scheduled::{ScheduledBuilder, ScheduledThreadPool};

use super::f4::scheduler;

/// An operation to retry: the one type every version takes.
pub(super) type Op = Box<dyn FnMut() -> bool + Send>;

/// What every version behind the API does.
pub(super) trait Version: Sized {
    /// One operation's retries.
    type Retry;
    /// Starts it, its worker named `name`.
    fn start(name: &str) -> io::Result<Self>;
    /// Tries `op` at once, and `backoff` after each failure, until it
    /// succeeds or the retries are cancelled.
    fn retry(&self, backoff: Duration, op: Op) -> Self::Retry;
    /// Ends the retries: no attempt starts after this returns.
    fn cancel(retry: &Self::Retry);
}

impl Version for scheduler::Retrier {
    type Retry = scheduler::Retry;
    fn start(name: &str) -> io::Result<Self> {
        Self::new(name)
    }
    fn retry(&self, backoff: Duration, op: Op) -> Self::Retry {
        self.retry(backoff, op)
    }
    fn cancel(retry: &Self::Retry) {
        retry.cancel();
    }
}

crate::catch::select!(pub(super) f4:
    "mended" => one_shot::Retrier<one_shot::Mended>,
    "recheck" => one_shot::Retrier<one_shot::Recheck>,
    "asks_first" => one_shot::Retrier<one_shot::AsksFirst>,
    "periodic" => periodic::Retrier<false>,
    "as_written" => scheduler::Retrier,
    "flag_only" => one_shot::Retrier<one_shot::FlagOnly>,
    "periodic_wrapping" => periodic::Retrier<true>,
);

/// Every version is compiled into every build, and `Imp` is one of them.
/// Named here, the others do not count as dead code; and each, with its
/// `Retry`, must be `Send`, `Sync` and `Unpin`, so that no build differs in
/// what a test may do with them (share them, move them to another thread).
/// None is unwind-safe: each holds a pool.
const _: [fn(&str) -> io::Result<()>; 7] = [
    start::<one_shot::Retrier<one_shot::Mended>>,
    start::<one_shot::Retrier<one_shot::Recheck>>,
    start::<one_shot::Retrier<one_shot::AsksFirst>>,
    start::<periodic::Retrier<false>>,
    start::<scheduler::Retrier>,
    start::<one_shot::Retrier<one_shot::FlagOnly>>,
    start::<periodic::Retrier<true>>,
];

/// Starts a `V` and drops it at once.
fn start<V>(name: &str) -> io::Result<()>
where
    V: Version + Send + Sync + Unpin,
    V::Retry: Send + Sync + Unpin,
{
    V::start(name).map(drop)
}

/// The scheduled pool of the versions here, as the scheduler as written
/// builds and drops its own: one worker, named `name`, started at once.
struct Pool(Arc<ScheduledThreadPool>);

impl Pool {
    /// `builder`'s pool, with one worker named `name`.
    fn start(name: &str, builder: ScheduledBuilder) -> io::Result<Pool> {
        let name = name.to_owned();
        let pool = builder
            .core_pool_size(1)
            .thread_factory(move |body: Body| thread::Builder::new().name(name.clone()).spawn(body))
            .build()
            .map_err(io::Error::other)?;
        if pool.prestart_all_core_threads() == 0 {
            return Err(io::Error::other("the retrier's worker did not start"));
        }
        Ok(Pool(Arc::new(pool)))
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for task in self.0.shutdown_now() {
            task.cancel(false); // drops the attempt it would have run
        }
        // The last owner must not be the worker, which would wait for
        // itself: an attempt holds the pool only a moment.
        self.0.await_termination(Duration::from_secs(3600));
    }
}
