//! A finished wheel and its pool as one [`ExecutorService`]: stage 6's
//! executor trait, so that code written for the Timer and the pools runs
//! on a wheel too.
//!
//! A wheel alone cannot be one. Its [`stop`](HashedWheel::stop) takes the
//! wheel by value (so a stopped wheel cannot be used again), the trait's
//! calls take `&self`; and a wheel only decides *when*, so the threads
//! that run the tasks, whose end `await_termination` waits for, are its
//! pool's. [`WheelPool`] holds both:
//!
//! - `execute` is a task due now, as on stage 5's Timer: it runs at the
//!   wheel's next tick (at most a tick late), on the pool;
//! - `shutdown` refuses new tasks and lets the accepted ones run. A wheel
//!   has no such call of its own (its `stop` hands back every task not
//!   run), so the wheel pool counts the tasks it accepted and not yet ran
//!   or dropped, and stops the wheel only once that count is zero: in
//!   [`await_termination`](ExecutorService::await_termination) or
//!   [`is_terminated`](ExecutorService::is_terminated), whichever is
//!   called first once the count is zero (nothing else would join the
//!   ticker thread). The pool then shuts down and runs what it holds.
//! - `shutdown_now` stops the wheel and the pool at once and hands back
//!   every task that never started: those the wheel still held and those
//!   queued in the pool.
//!
//! Dropping a wheel pool drops the tasks the wheel still holds (as the
//! wheel's drop does), then drops the pool, which acts like
//! `shutdown_now` (stage 6's drop rule): what is queued there is
//! discarded, the running tasks are interrupted, and its threads are
//! joined. To let every accepted task run, call `shutdown` and
//! `await_termination` first.
//!
//! ```
//! use std::time::Duration;
//! use threadpool_executor::executor::Executor as _;
//! use wheel::executor::WheelPool;
//! use wheel::hierarchical::HierarchicalConfig;
//!
//! let pool = threadpool_executor::presets::fixed(2).build()?;
//! let wheel = WheelPool::hierarchical(HierarchicalConfig::default(), pool, "doc-wheel-pool")?;
//! let squares: Vec<_> = (1..=3u32).map(|n| wheel.submit(move || n * n)).collect::<Result<_, _>>()?;
//! wheel.shutdown();
//! assert!(wheel.await_termination(Duration::from_secs(10)));
//! let squares: Vec<u32> = squares.iter().map(|f| f.get()).collect::<Result<_, _>>()?;
//! assert_eq!(squares, [1, 4, 9]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex, RwLock};
use threadpool_executor::ThreadPool;
use threadpool_executor::executor::Executor as ExecutorService;

use crate::error::{ConfigError, Reason, Refused};
use crate::hashed::{self, HashedConfig, HashedWheel};
use crate::hierarchical::{self, HierarchicalConfig, HierarchicalWheel};
use crate::job::{Executor, Job};

/// A running wheel that a [`WheelPool`] can drive: the two finished ones,
/// [`HashedWheel`] and [`HierarchicalWheel`].
pub trait RunningWheel: Send + Sync + 'static {
    /// What scheduling a task gives back: its handle.
    type Handle: std::fmt::Debug + Send + Sync;

    /// The wheel's own `schedule`.
    ///
    /// # Errors
    /// As the wheel's: the task comes back in the [`Refused`].
    fn schedule(&self, delay: Duration, job: Job) -> Result<Self::Handle, Refused>;

    /// The wheel's own `stop`: joins its ticker and hands back every task
    /// not run and not cancelled.
    fn stop(self) -> Vec<Job>;

    /// The handle's own `cancel`: true if this call kept the task from
    /// ever running.
    fn cancel(handle: &Self::Handle) -> bool;

    /// How many times the ticker has woken, by its own count: every tick
    /// for the hashed wheel ([`HashedWheel::ticks`]), only for a slot that
    /// holds a timer (or a new, sooner one) for the hierarchical
    /// ([`HierarchicalWheel::wakeups`]).
    fn wakeups(&self) -> u64;
}

impl RunningWheel for HashedWheel {
    type Handle = hashed::Handle;

    fn schedule(&self, delay: Duration, job: Job) -> Result<hashed::Handle, Refused> {
        HashedWheel::schedule(self, delay, job)
    }

    fn stop(self) -> Vec<Job> {
        HashedWheel::stop(self)
    }

    fn cancel(handle: &hashed::Handle) -> bool {
        handle.cancel()
    }

    fn wakeups(&self) -> u64 {
        self.ticks()
    }
}

impl RunningWheel for HierarchicalWheel {
    type Handle = hierarchical::Handle;

    fn schedule(&self, delay: Duration, job: Job) -> Result<hierarchical::Handle, Refused> {
        HierarchicalWheel::schedule(self, delay, job)
    }

    fn stop(self) -> Vec<Job> {
        HierarchicalWheel::stop(self)
    }

    fn cancel(handle: &hierarchical::Handle) -> bool {
        handle.cancel()
    }

    fn wakeups(&self) -> u64 {
        HierarchicalWheel::wakeups(self)
    }
}

/// A finished wheel that hands its due tasks to a [`ThreadPool`], behind
/// stage 6's executor trait. See the module docs.
pub struct WheelPool<W: RunningWheel> {
    /// Fields drop in order: the wheel (its ticker joined, its tasks
    /// dropped) before the pool (which runs what it holds, then joins).
    state: RwLock<State<W>>,
    accepted: Arc<Accepted>,
    pool: Arc<ThreadPool>,
}

/// Under the wheel pool's lock.
struct State<W> {
    /// `None` once stopped.
    wheel: Option<W>,
    /// `shutdown` or `shutdown_now` was called.
    shut_down: bool,
}

/// The tasks accepted and not yet run or dropped, and their end.
#[derive(Default)]
struct Accepted {
    count: Mutex<Count>,
    changed: Condvar,
}

/// Under [`Accepted`]'s lock. Lock order: the wheel pool's state first.
#[derive(Default)]
struct Count {
    /// Accepted, and not yet run or dropped.
    left: usize,
    /// The wheel has been taken out to stop: nothing more will run.
    stopped: bool,
}

impl Accepted {
    fn take_one(&self) {
        let mut count = self.count.lock();
        count.left -= 1;
        if count.left == 0 {
            self.changed.notify_all();
        }
    }
}

/// One accepted task's place in the count. The task's wrapper holds it:
/// the place is given up once, by whichever comes first, the wrapper's
/// drop (after the task ran, or with the task unrun) or a refusal.
struct Ticket {
    accepted: Arc<Accepted>,
    counted: AtomicBool,
}

impl Ticket {
    fn give_up(&self) {
        if self.counted.swap(false, Ordering::SeqCst) {
            self.accepted.take_one();
        }
    }
}

/// Travels inside each accepted task's wrapper.
struct Counted(Arc<Ticket>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.give_up();
    }
}

impl WheelPool<HashedWheel> {
    /// Starts a [`HashedWheel`] whose ticker thread is named `name` and
    /// hands its due tasks to `pool`.
    ///
    /// # Errors
    /// As [`HashedWheel::start`].
    pub fn hashed(config: HashedConfig, pool: ThreadPool, name: &str) -> Result<Self, ConfigError> {
        WheelPool::start(pool, |executor| HashedWheel::start(config, executor, name))
    }
}

impl WheelPool<HierarchicalWheel> {
    /// Starts a [`HierarchicalWheel`] whose ticker thread is named `name`
    /// and hands its due tasks to `pool`.
    ///
    /// # Errors
    /// As [`HierarchicalWheel::start`].
    pub fn hierarchical(
        config: HierarchicalConfig,
        pool: ThreadPool,
        name: &str,
    ) -> Result<Self, ConfigError> {
        WheelPool::start(pool, |executor| {
            HierarchicalWheel::start(config, executor, name)
        })
    }
}

impl<W: RunningWheel> WheelPool<W> {
    fn start(
        pool: ThreadPool,
        start: impl FnOnce(Arc<dyn Executor>) -> Result<W, ConfigError>,
    ) -> Result<Self, ConfigError> {
        let pool = Arc::new(pool);
        let wheel = start(Arc::clone(&pool) as Arc<dyn Executor>)?;
        Ok(WheelPool {
            state: RwLock::new(State {
                wheel: Some(wheel),
                shut_down: false,
            }),
            accepted: Arc::default(),
            pool,
        })
    }

    /// Runs `job` once `delay` has passed, as the wheel's `schedule` does,
    /// on the pool.
    ///
    /// # Errors
    /// [`Reason::Stopped`] once `shutdown` or `shutdown_now` was called;
    /// otherwise as the wheel's `schedule`. The job comes back in the
    /// [`Refused`], and no longer holds up a shutdown.
    pub fn schedule(&self, delay: Duration, job: Job) -> Result<W::Handle, Refused> {
        let state = self.state.read();
        let Some(wheel) = state.wheel.as_ref().filter(|_| !state.shut_down) else {
            return Err(Refused::new(Reason::Stopped, job));
        };
        self.accepted.count.lock().left += 1;
        let ticket = Arc::new(Ticket {
            accepted: Arc::clone(&self.accepted),
            counted: AtomicBool::new(true),
        });
        let counted = Counted(Arc::clone(&ticket));
        let job: Job = Box::new(move || {
            let _counted = counted;
            job();
        });
        wheel.schedule(delay, job).inspect_err(|_| {
            // Yours again (a delay beyond the wheel's range): it no longer
            // holds up a shutdown, whether you run it, keep it or drop it.
            ticket.give_up();
        })
    }

    /// Calls `look` with the wheel, while it runs: to read its counters
    /// (ticks, wake-ups). `None` once it has stopped.
    pub fn with_wheel<R>(&self, look: impl FnOnce(&W) -> R) -> Option<R> {
        self.state.read().wheel.as_ref().map(look)
    }

    /// Takes the wheel out (leaving its place stopped) if `when` says so,
    /// with the lock held; stops it with the lock released, so that a task
    /// that calls this wheel pool while the ticker is joined is refused
    /// rather than left waiting for the lock.
    fn take_wheel_if(&self, when: impl FnOnce(&State<W>) -> bool) -> Option<Vec<Job>> {
        let wheel = {
            let mut state = self.state.write();
            state.shut_down = true;
            if !when(&state) {
                return None;
            }
            let wheel = state.wheel.take()?;
            self.accepted.count.lock().stopped = true;
            self.accepted.changed.notify_all();
            wheel
        };
        Some(wheel.stop())
    }

    /// After `shutdown`: once every accepted task has run (or been
    /// dropped), stops the wheel and shuts the pool down. True if the
    /// wheel has stopped, by this call or before.
    fn finish_if_drained(&self) -> bool {
        if !self.state.read().shut_down {
            return false;
        }
        let stopped = self
            .take_wheel_if(|state| state.wheel.is_some() && self.accepted.count.lock().left == 0);
        if let Some(left) = stopped {
            // Every task reached the wheel through `schedule`, counted, and
            // none is left: the wheel hands back nothing.
            debug_assert!(left.is_empty());
            self.pool.shutdown();
        }
        self.state.read().wheel.is_none()
    }
}

impl<W: RunningWheel> ExecutorService for WheelPool<W> {
    type Refused = Refused;
    type Pending = Job;

    /// A task due now: it runs at the wheel's next tick, on the pool.
    fn execute(&self, job: Job) -> Result<(), Refused> {
        self.schedule(Duration::ZERO, job).map(drop)
    }

    /// Refuses new tasks; those accepted still run, each at its time. The
    /// wheel stops once they have (see the module docs).
    fn shutdown(&self) {
        self.state.write().shut_down = true;
    }

    /// Stops the wheel, then the pool, and hands back every task that
    /// never started: those still in the wheel, then those queued in the
    /// pool. A task running on the pool is asked to stop as the pool's
    /// `shutdown_now` asks it.
    fn shutdown_now(&self) -> Vec<Job> {
        let mut pending = self.take_wheel_if(|_| true).unwrap_or_default();
        // The ticker is joined: nothing more reaches the pool.
        pending.extend(self.pool.shutdown_now());
        pending
    }

    /// After `shutdown`, waits for the accepted tasks to run, then for the
    /// wheel's and the pool's threads to end; after `shutdown_now`, for
    /// the threads alone.
    fn await_termination(&self, timeout: Duration) -> bool {
        let deadline = Instant::now().checked_add(timeout);
        {
            let mut count = self.accepted.count.lock();
            while count.left > 0 && !count.stopped {
                match deadline {
                    Some(deadline) => {
                        if self
                            .accepted
                            .changed
                            .wait_until(&mut count, deadline)
                            .timed_out()
                        {
                            break;
                        }
                    }
                    None => self.accepted.changed.wait(&mut count),
                }
            }
        }
        if !self.finish_if_drained() {
            return false;
        }
        let left = deadline.map_or(Duration::MAX, |d| {
            d.saturating_duration_since(Instant::now())
        });
        self.pool.await_termination(left)
    }

    fn is_shutdown(&self) -> bool {
        self.state.read().shut_down
    }

    /// Shut down, every accepted task run, and every thread ended. After
    /// `shutdown`, the first call that finds no accepted task left stops
    /// the wheel (joining its ticker) and shuts the pool down.
    fn is_terminated(&self) -> bool {
        self.finish_if_drained() && self.pool.is_terminated()
    }
}

impl<W: RunningWheel> std::fmt::Debug for WheelPool<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.state.read();
        f.debug_struct("WheelPool")
            .field("running", &state.wheel.is_some())
            .field("shut_down", &state.shut_down)
            .field("accepted", &self.accepted.count.lock().left)
            .finish_non_exhaustive()
    }
}
