//! The timers the workload benches compare: ours (the finished version of
//! each stage) and the peers named in issue 13, behind one call.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use interrupt_cancel::timer::Timer;
use threadpool_executor::factory::NamedThreads;
use threadpool_executor::pool::ThreadPool;
use threadpool_executor::scheduled::ScheduledThreadPool;
use wheel::hashed::{HashedConfig, HashedWheel};
use wheel::hierarchical::{HierarchicalConfig, HierarchicalWheel};
use wheel::{Executor, OnTicker};

/// A task as the benches hand it to a timer.
pub type Task = Box<dyn FnOnce() + Send + 'static>;

/// A running timer that runs a task once, `delay` from now. Dropping it
/// stops it and joins its threads.
pub trait OneShot: Send + Sync {
    /// Schedules `task`.
    fn schedule(&self, delay: Duration, task: Task);
}

/// One timer the benches compare.
pub struct Subject {
    /// Its name in the reports.
    pub name: &'static str,
    /// Ours (true) or a peer.
    pub ours: bool,
    /// Whether it has worker threads of its own (false: a thread per task,
    /// as a peer with no scheduler thread of its own is used).
    pub pooled: bool,
    /// Starts it with `workers` threads to run tasks (where it has a
    /// choice), every thread's name starting with `prefix`.
    pub start: fn(prefix: &str, workers: usize) -> Box<dyn OneShot>,
}

/// The wheels' tick.
pub const WHEEL_TICK: Duration = Duration::from_millis(1);

/// Every subject, ours first.
pub fn all() -> Vec<Subject> {
    vec![
        Subject {
            name: "Timer (stage 5)",
            ours: true,
            pooled: true,
            start: |prefix, _| Box::new(Timer::new(prefix).expect("a timer")),
        },
        Subject {
            name: "ScheduledThreadPool (stage 6)",
            ours: true,
            pooled: true,
            start: |prefix, workers| {
                Box::new(
                    threadpool_executor::presets::scheduled(workers)
                        .thread_factory(NamedThreads::with_prefix(format!("{prefix}-")))
                        .build()
                        .expect("a scheduled pool"),
                )
            },
        },
        Subject {
            name: "HashedWheel, 1 ms (stage 7)",
            ours: true,
            pooled: true,
            start: |prefix, workers| {
                let config = HashedConfig {
                    tick: WHEEL_TICK,
                    slots: 512,
                };
                let (executor, pool) = executor(prefix, workers);
                Box::new(OnItsPool {
                    timer: HashedWheel::start(config, executor, prefix).expect("a wheel"),
                    _pool: pool,
                })
            },
        },
        Subject {
            name: "HierarchicalWheel, 1 ms (stage 7)",
            ours: true,
            pooled: true,
            start: |prefix, workers| {
                let config = HierarchicalConfig { tick: WHEEL_TICK };
                let (executor, pool) = executor(prefix, workers);
                Box::new(OnItsPool {
                    timer: HierarchicalWheel::start(config, executor, prefix).expect("a wheel"),
                    _pool: pool,
                })
            },
        },
        Subject {
            name: "scheduled-thread-pool",
            ours: false,
            pooled: true,
            start: |prefix, workers| {
                Box::new(
                    scheduled_thread_pool::ScheduledThreadPool::builder()
                        .num_threads(workers)
                        .thread_name_pattern(&format!("{prefix}-{{}}"))
                        .build(),
                )
            },
        },
        Subject {
            name: "futures-timer",
            ours: false,
            pooled: false,
            start: |prefix, _| {
                Box::new(ThreadPerTask {
                    prefix: prefix.to_owned(),
                    wait: |deadline| {
                        let left = deadline.saturating_duration_since(Instant::now());
                        block_on(futures_timer::Delay::new(left));
                    },
                })
            },
        },
        Subject {
            name: "crossbeam after",
            ours: false,
            pooled: false,
            start: |prefix, _| {
                Box::new(ThreadPerTask {
                    prefix: prefix.to_owned(),
                    wait: |deadline| {
                        let left = deadline.saturating_duration_since(Instant::now());
                        let _ = crossbeam_channel::after(left).recv();
                    },
                })
            },
        },
    ]
}

/// A wheel's executor: the ticker itself for one worker (a task runs the
/// moment its tick is processed), else a pool of `workers` threads.
fn executor(prefix: &str, workers: usize) -> (Arc<dyn Executor>, Option<Arc<ThreadPool>>) {
    if workers <= 1 {
        return (Arc::new(OnTicker), None);
    }
    let pool = Arc::new(
        threadpool_executor::presets::fixed(workers)
            .thread_factory(NamedThreads::with_prefix(format!("{prefix}-")))
            .build()
            .expect("a pool"),
    );
    // Dropped after its wheel, it runs what the ticker handed it last.
    pool.set_drain_on_drop(true);
    let executor: Arc<dyn Executor> = pool.clone();
    (executor, Some(pool))
}

/// A wheel and the pool it hands due tasks to. Fields drop in order: the
/// wheel (and its ticker) first, then the pool, which runs what it has
/// (it drains on drop, see `executor`).
struct OnItsPool<W> {
    timer: W,
    _pool: Option<Arc<ThreadPool>>,
}

impl OneShot for Timer {
    fn schedule(&self, delay: Duration, task: Task) {
        Timer::schedule(self, delay, task).expect("a small delay");
    }
}

impl OneShot for ScheduledThreadPool {
    fn schedule(&self, delay: Duration, task: Task) {
        ScheduledThreadPool::schedule(self, delay, task).expect("a running pool");
    }
}

impl OneShot for OnItsPool<HashedWheel> {
    fn schedule(&self, delay: Duration, task: Task) {
        assert!(self.timer.schedule(delay, task).is_ok(), "a running wheel");
    }
}

impl OneShot for OnItsPool<HierarchicalWheel> {
    fn schedule(&self, delay: Duration, task: Task) {
        assert!(self.timer.schedule(delay, task).is_ok(), "a running wheel");
    }
}

impl OneShot for scheduled_thread_pool::ScheduledThreadPool {
    fn schedule(&self, delay: Duration, task: Task) {
        self.execute_after(delay, task);
    }
}

/// A peer with no scheduler thread: each task gets a thread of its own,
/// which waits for the deadline the way the peer waits (a future, a
/// channel) and then runs it. The deadline is fixed at `schedule`, so
/// spawning the thread does not count as lateness. Dropping it joins
/// every thread.
struct ThreadPerTask {
    prefix: String,
    wait: fn(Instant),
}

impl OneShot for ThreadPerTask {
    fn schedule(&self, delay: Duration, task: Task) {
        let deadline = Instant::now() + delay;
        let wait = self.wait;
        let thread = thread::Builder::new()
            .name(self.prefix.clone())
            .spawn(move || {
                wait(deadline);
                task();
            })
            .expect("spawn a thread");
        // Joined here: the benches schedule one task at a time on these
        // peers, and wait for it to run before the next.
        thread.join().expect("the task thread");
    }
}

/// Runs a future to completion on this thread: the waker unparks it.
pub fn block_on<F: Future>(future: F) -> F::Output {
    struct Unpark(Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut future = pin!(future);
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
        thread::park();
    }
}
