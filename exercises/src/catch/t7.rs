//! Catch it, T7 `execute_shutdown_race`: a pool whose `execute` can queue a
//! task while `shutdown` finishes, so that the task is neither run nor
//! rejected.
//!
//! Behind this API runs one of several pools, and your test cannot tell
//! which except by what the pool does. Among them:
//!
//! - the pool of *A pool of workers* without its second look
//!   (`threadpool-executor/src/no_recheck.rs`): `execute` looks at the
//!   pool's state ("running"), then queues the task and returns `Ok`. If
//!   `shutdown` ran to the end in between, the task lies in the queue of a
//!   pool that will never run anything again;
//! - correct pools that close the window in different ways: one looks again
//!   after queuing and takes the task back out (the stage's pool); one
//!   whose queue itself refuses a task once the pool is shut down; one that
//!   hands each task straight to an idle worker, or to a new one, and keeps
//!   no queue at all; one whose `execute`s take turns, holding a lock of
//!   their own across the window;
//! - pools with other bugs of the course.
//!
//! Write a test that fails on the pool without the second look every time,
//! naming T7, and passes on every correct one every time.

mod closing_queue;

use std::marker::PhantomData;
use std::time::Duration;

use parking_lot::Mutex;
use threadpool_executor::ThreadPool;
use threadpool_executor::factory::NamedThreads;
use threadpool_executor::pool::Variant;
use threadpool_executor::presets;

pub use super::{Pause, Point};
pub use threadpool_executor::Task;
pub use threadpool_executor::error::{Reason, Rejected};

/// The race window: `execute` has seen the pool running and has not queued
/// its task yet. The thread held here is the one that calls `execute`:
/// name it, and arm the pause with that name.
///
/// In some versions the held thread holds a lock here that every other
/// `execute` takes too: an `execute` from another thread then waits until
/// you release it, and one from the thread that holds the pause waits
/// forever. No version's `shutdown`, `await_termination`, `is_terminated`
/// or `queued` takes that lock. Held once per arm; later passes go through.
pub const WINDOW: Point = Point::new(
    "WINDOW (t7: saw the pool running, task not yet queued)",
    <Imp as Version>::WINDOW,
);

/// A version's code, as a pointer (see `keep_every_version`): its
/// constructor, and beside it every other method, kept too (`execute`
/// holds the version's pause point).
fn constructor<T: Version>() -> *const () {
    std::hint::black_box([
        T::execute as *const (),
        T::shutdown as *const (),
        T::await_termination as *const (),
        T::is_terminated as *const (),
        T::queued as *const (),
    ]);
    T::start as *const ()
}

select!(t7 keep constructor:
    "fixed" => Staged<Recheck>,
    "closing_queue" => closing_queue::ClosingQueue,
    "hand_off" => Staged<HandOff>,
    "one_at_a_time" => Staged<OneAtATime>,
    "no_recheck" => Staged<NoRecheck>,
    "no_replacement" => Staged<NoReplacement>,
    "shutdown_drops_queue" => Staged<DropsQueue>,
);

/// What every version behind this API does.
trait Version: Sized {
    /// Its `kit::pause_point` where `execute` has seen the pool running
    /// and has not queued its task.
    const WINDOW: &'static str;
    /// Starts it, one worker already running, its threads named after
    /// `prefix`.
    fn start(prefix: &str) -> Self;
    /// Runs `task` on a worker, or hands it back.
    fn execute(&self, task: Task) -> Result<(), Rejected<Task>>;
    /// Takes no new task; queued tasks still run.
    fn shutdown(&self);
    /// Waits at most `timeout` for the pool to terminate.
    fn await_termination(&self, timeout: Duration) -> bool;
    /// Whether it has terminated.
    fn is_terminated(&self) -> bool;
    /// Tasks waiting in its queue.
    fn queued(&self) -> usize;
}

/// How a version built on the stage's pool differs from the stage's own.
trait Way {
    /// Which of the stage's versions of `execute` and a worker's exit.
    const VARIANT: Variant = Variant::Fixed;
    /// A hand-off queue (no task waits in it) and as many workers as there
    /// are tasks running at once, as `presets::cached` has; else one
    /// worker and an unbounded queue.
    const HAND_OFF: bool = false;
    /// `execute`s one at a time, under a lock of this version's own.
    const ONE_AT_A_TIME: bool = false;
    /// `shutdown` does what `shutdown_now` does: the queued tasks go.
    const SHUTDOWN_DROPS_QUEUE: bool = false;
}

/// Correct: the stage's pool, as *A pool of workers* leaves it
/// (`threadpool-executor/src/pool.rs`): after queuing, `execute` looks at
/// the state again, and a task queued into a pool that shut down meanwhile
/// is taken back out and handed back in the error.
enum Recheck {}
impl Way for Recheck {}

/// Correct: the stage's pool with the queue of `presets::cached`, a
/// hand-off that holds nothing: a task goes to an idle worker waiting for
/// one, or else to a new worker. One worker is started at first; a task
/// that comes while every worker is busy runs on a new one, at once. In
/// the window, the offer to a pool whose workers have all left finds no
/// taker, and the task comes back.
enum HandOff {}
impl Way for HandOff {
    const HAND_OFF: bool = true;
}

/// Correct: the stage's pool behind a lock that every `execute` holds from
/// its first look to its return, as a wrapper that numbers tasks in the
/// order they were accepted would. The lock keeps no `shutdown` out (the
/// stage's second look still does that work); what it changes is that a
/// second `execute` waits while one is held in the window.
enum OneAtATime {}
impl Way for OneAtATime {
    const ONE_AT_A_TIME: bool = true;
}

/// The bug (T7): the stage's `execute` without the look after queuing
/// (`threadpool-executor/src/no_recheck.rs`).
enum NoRecheck {}
impl Way for NoRecheck {
    const VARIANT: Variant = Variant::NoRecheck;
}

/// Another bug (T6 `dead_worker_not_replaced`): a worker killed by a
/// panicking task is not replaced (`threadpool-executor/src/no_replacement.rs`),
/// and the tasks queued behind it wait for a worker nobody starts.
enum NoReplacement {}
impl Way for NoReplacement {
    const VARIANT: Variant = Variant::NoReplacement;
}

/// Another bug, against T8's rule that `shutdown` lets queued tasks run:
/// this `shutdown` is the stage's `shutdown_now`, and throws the queue
/// away. A task `execute` accepted before the shutdown never runs.
enum DropsQueue {}
impl Way for DropsQueue {
    const SHUTDOWN_DROPS_QUEUE: bool = true;
}

/// A version built on the stage's pool, the way `W` says.
struct Staged<W> {
    pool: ThreadPool,
    /// Held by every `execute` of a [`OneAtATime`] pool; unused otherwise.
    turn: Mutex<()>,
    way: PhantomData<W>,
}

impl<W: Way> Version for Staged<W> {
    const WINDOW: &'static str = match W::VARIANT {
        Variant::NoRecheck => {
            "threadpool-executor::no_recheck: saw the pool running, not yet queued"
        }
        _ => "threadpool-executor::pool: saw the pool running, not yet queued",
    };

    fn start(prefix: &str) -> Self {
        let builder = if W::HAND_OFF {
            presets::cached().core_pool_size(1)
        } else {
            ThreadPool::builder().core_pool_size(1).maximum_pool_size(1)
        };
        let pool = builder
            .variant(W::VARIANT)
            .thread_factory(NamedThreads::with_prefix(prefix))
            .build()
            .expect("a valid configuration");
        assert!(pool.prestart_core_thread(), "start the worker");
        Staged {
            pool,
            turn: Mutex::new(()),
            way: PhantomData,
        }
    }

    fn execute(&self, task: Task) -> Result<(), Rejected<Task>> {
        let _turn = W::ONE_AT_A_TIME.then(|| self.turn.lock());
        self.pool.execute_task(task)
    }

    fn shutdown(&self) {
        if W::SHUTDOWN_DROPS_QUEUE {
            // BUG (T8): the queued tasks were accepted, and are dropped
            // unrun.
            drop(self.pool.shutdown_now());
        } else {
            self.pool.shutdown();
        }
    }

    fn await_termination(&self, timeout: Duration) -> bool {
        self.pool.await_termination(timeout)
    }

    fn is_terminated(&self) -> bool {
        self.pool.is_terminated()
    }

    fn queued(&self) -> usize {
        self.pool.queue().len()
    }
}

/// A pool, started with one worker: a task given to `execute` runs on a
/// worker, some time soon. How many workers it has later, and whether a
/// task waits in a queue or goes straight to a worker, differ between
/// versions. Dropping it throws away the tasks not yet started and waits
/// for the running ones. (Boxed, so that its size is the same whichever
/// version runs.)
pub struct Pool(Box<Imp>);

impl Pool {
    /// Starts a pool whose worker threads are named after `prefix`.
    ///
    /// # Panics
    /// If the worker cannot be started.
    pub fn new(prefix: &str) -> Pool {
        Pool(Box::new(Imp::start(prefix)))
    }

    /// Runs `task` on a worker, some time soon.
    ///
    /// # Errors
    /// A [`Rejected`] holding the task, with [`Reason::Shutdown`], when the
    /// pool is shut down: the task comes back to the caller.
    pub fn execute(&self, task: impl FnOnce() + Send + 'static) -> Result<(), Rejected<Task>> {
        super::calling("execute");
        Version::execute(&*self.0, Box::new(task))
    }

    /// Takes no new task from now on; queued tasks still run, and idle
    /// workers leave once nothing is left to run. Does not wait: see
    /// [`Pool::await_termination`].
    pub fn shutdown(&self) {
        super::calling("shutdown");
        Version::shutdown(&*self.0);
    }

    /// Waits until the pool has terminated (shut down, every task over,
    /// every worker gone), for at most `timeout`. Returns whether it has.
    pub fn await_termination(&self, timeout: Duration) -> bool {
        Version::await_termination(&*self.0, timeout)
    }

    /// Whether the pool has terminated: nothing will ever run here again.
    pub fn is_terminated(&self) -> bool {
        Version::is_terminated(&*self.0)
    }

    /// How many tasks wait in the queue (none, in a pool that keeps none).
    pub fn queued(&self) -> usize {
        Version::queued(&*self.0)
    }
}
