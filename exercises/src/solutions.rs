//! Glue for solutions that their stage builds differently from the
//! skeleton: the skeleton's constructor, written with the stage's builder.

/// Exercise T7's solution: the stage's `ThreadPool`, one worker, started.
pub mod t7_recheck {
    pub use threadpool_executor::ThreadPool;

    /// A running pool of one worker, its thread named after `prefix`.
    ///
    /// # Panics
    /// If the pool cannot be built or its worker started.
    pub fn fixed_pool(prefix: &str) -> ThreadPool {
        let pool = ThreadPool::builder()
            .core_pool_size(1)
            .maximum_pool_size(1)
            .thread_factory(threadpool_executor::factory::NamedThreads::with_prefix(
                prefix,
            ))
            .build()
            .expect("a valid configuration");
        assert!(pool.prestart_core_thread(), "start the worker");
        pool
    }
}

/// Exercise T10's solution: the stage's leader-follower
/// [`DelayedQueue`](threadpool_executor::delayed_queue::DelayedQueue),
/// behind the skeleton's API: plain items offered with an `Instant`, and a
/// `close` that ends every `take` (the stage ends a taker with an interrupt,
/// as `shutdown_now` does; `close` raises one for every taker inside).
pub mod t10_leader_follower {
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
    use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
    use std::time::Instant;

    use interrupt_cancel::interrupt::{InterruptHandle, InterruptToken};
    use threadpool_executor::deadline::Deadline;
    use threadpool_executor::delayed_queue::{self, Delayed, NOT_QUEUED};
    use threadpool_executor::queue::WorkQueue;

    /// An item as the stage's queue holds it.
    struct Entry<T> {
        deadline: Deadline,
        sequence: u64,
        index: AtomicUsize,
        /// Taken out by the one taker that got the entry.
        item: Mutex<Option<T>>,
    }

    impl<T: Send + 'static> Delayed for Entry<T> {
        fn deadline(&self) -> Deadline {
            self.deadline
        }
        fn sequence(&self) -> u64 {
            self.sequence
        }
        fn heap_index(&self) -> &AtomicUsize {
            &self.index
        }
    }

    /// Who is inside `take`, so that `close` can interrupt them.
    struct Takers {
        closed: bool,
        next: u64,
        inside: HashMap<u64, InterruptHandle>,
    }

    /// The stage's delayed queue, leader-follower.
    pub struct DelayedQueue<T: Send + 'static> {
        queue: delayed_queue::DelayedQueue<Entry<T>>,
        sequence: AtomicU64,
        takers: Mutex<Takers>,
    }

    impl<T: Send + 'static> Default for DelayedQueue<T> {
        fn default() -> Self {
            DelayedQueue::new()
        }
    }

    impl<T: Send + 'static> DelayedQueue<T> {
        /// An empty queue.
        pub fn new() -> Self {
            DelayedQueue {
                queue: delayed_queue::DelayedQueue::new(),
                sequence: AtomicU64::new(0),
                takers: Mutex::new(Takers {
                    closed: false,
                    next: 0,
                    inside: HashMap::new(),
                }),
            }
        }

        fn takers(&self) -> MutexGuard<'_, Takers> {
            self.takers.lock().unwrap_or_else(PoisonError::into_inner)
        }

        /// Queues `item`, to be taken once `due` has passed.
        pub fn offer(&self, due: Instant, item: T) {
            // The stage's clock is its own: the same distance from now.
            // Read in this order, the deadline is never before `due`.
            let delay = due.saturating_duration_since(Instant::now());
            let entry = Arc::new(Entry {
                deadline: Deadline::now().after(delay),
                // ORDERING: a counter; only its uniqueness matters.
                sequence: self.sequence.fetch_add(1, Relaxed),
                index: AtomicUsize::new(NOT_QUEUED),
                item: Mutex::new(Some(item)),
            });
            if self.queue.offer(entry).is_err() {
                unreachable!("a new entry is in no queue");
            }
        }

        /// Waits until the head is due and takes it; `None` once the queue
        /// is closed.
        pub fn take(&self) -> Option<T> {
            let token = InterruptToken::new();
            let me = {
                let mut takers = self.takers();
                if takers.closed {
                    return None;
                }
                let me = takers.next;
                takers.next += 1;
                takers.inside.insert(me, token.handle());
                me
            };
            let taken = self.queue.take(&token);
            self.takers().inside.remove(&me);
            let entry = taken.ok()?;
            entry
                .item
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take()
        }

        /// Ends every `take`, now and from now on, with `None`.
        pub fn close(&self) {
            let mut takers = self.takers();
            takers.closed = true;
            for handle in takers.inside.values() {
                handle.interrupt();
            }
        }

        /// How many times a taker came back from a wait.
        pub fn wakeups(&self) -> u64 {
            self.queue.wakeups()
        }

        /// How many takers are waiting right now.
        pub fn waiting(&self) -> usize {
            self.queue.waiting()
        }
    }
}

/// Exercise W7's solution: the stage's
/// [`HashedWheel`](wheel::hashed::HashedWheel) behind the skeleton's API:
/// its tasks run on the ticker ([`OnTicker`](wheel::OnTicker)), and
/// `schedule` hands back no [`Handle`](wheel::hashed::Handle) (the exercise
/// has no cancel).
pub mod w7_single_owner_wheel {
    use std::sync::Arc;
    use std::time::Duration;

    use wheel::hashed::{HashedConfig, HashedWheel};
    use wheel::{ConfigError, Job, OnTicker, Refused};

    /// The stage's hashed wheel, its tasks run on the ticker.
    pub struct Wheel(HashedWheel);

    impl Wheel {
        /// Starts a wheel of `slots` slots of `tick` each, its ticker
        /// thread called `name`.
        ///
        /// # Errors
        /// As [`HashedWheel::start`].
        pub fn start(tick: Duration, slots: usize, name: &str) -> Result<Wheel, ConfigError> {
            let config = HashedConfig { tick, slots };
            HashedWheel::start(config, Arc::new(OnTicker), name).map(Wheel)
        }

        /// Schedules `job` to run on the ticker `delay` from now.
        ///
        /// # Errors
        /// As [`HashedWheel::schedule`].
        pub fn schedule(&self, delay: Duration, job: Job) -> Result<(), Refused> {
            self.0.schedule(delay, job).map(drop)
        }

        /// How many ticks the ticker has processed.
        pub fn ticks(&self) -> u64 {
            self.0.ticks()
        }

        /// Stops the ticker, joins it, and returns every task not yet run.
        pub fn stop(self) -> Vec<Job> {
            self.0.stop()
        }
    }
}

/// Exercise D3's solution: the stage's fenced completion,
/// [`complete`](durable_timer::complete::complete), after the pause point
/// the stage's node passes just before it,
/// [`RUNNING`](durable_timer::RUNNING): the check holds a node there, as
/// the stage's own D3 test does.
pub mod d3_fencing_token {
    use durable_timer::{Claim, Store, StoreError};

    /// Completes `claim` for `node`, as the stage's node does: fenced.
    ///
    /// # Errors
    /// As [`durable_timer::complete::complete`].
    pub fn complete(store: &mut dyn Store, claim: &Claim, node: &str) -> Result<bool, StoreError> {
        kit::pause_point(durable_timer::RUNNING);
        durable_timer::complete::complete(store, claim, node)
    }
}
