//! The peer the heap timers are measured against, `scheduled-thread-pool`
//! (crates.io, 0.2): a `BinaryHeap` of jobs behind one `parking_lot`
//! mutex, its workers waiting on a condition variable. Its `execute_after`
//! reads the clock, allocates a cancel flag (an `Arc<AtomicBool>` that the
//! job and the returned handle share), boxes the closure, locks, pushes,
//! and notifies a worker when the new job is the head; its `cancel` sets
//! the flag, and the job stays in the heap until its time comes.

use std::time::Duration;

use scheduled_thread_pool::{JobHandle, OnPoolDropBehavior, ScheduledThreadPool};

/// A one-worker `scheduled-thread-pool` whose drop waits until its worker
/// has gone. Its own drop only tells the worker to stop (pending jobs
/// discarded, or it would wait for them, hours away); waiting for the
/// thread to be gone means the next timed operation runs beside no
/// leftover thread, as after the drop of our timers, which join theirs.
pub struct Peer {
    pool: Option<ScheduledThreadPool>,
    worker: String,
}

impl Peer {
    /// A pool with one worker.
    pub fn new() -> Peer {
        let prefix = kit::threads::unique_name("stp");
        let pool = ScheduledThreadPool::builder()
            .num_threads(1)
            .thread_name_pattern(&format!("{prefix}-{{}}"))
            .on_drop_behavior(OnPoolDropBehavior::DiscardPendingScheduled)
            .build();
        Peer {
            pool: Some(pool),
            worker: format!("{prefix}-0"),
        }
    }

    /// The pool.
    pub fn pool(&self) -> &ScheduledThreadPool {
        self.pool.as_ref().expect("not dropped yet")
    }

    /// `execute_after`, with a closure that captures `capture` if it is
    /// `Some` (its box then allocates), or nothing.
    #[inline]
    pub fn schedule(&self, delay: Duration, capture: Option<u64>) -> JobHandle {
        match capture {
            None => self.pool().execute_after(delay, || ()),
            Some(x) => self.pool().execute_after(delay, move || {
                std::hint::black_box(x);
            }),
        }
    }
}

impl Default for Peer {
    fn default() -> Peer {
        Peer::new()
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        drop(self.pool.take());
        assert!(
            kit::threads::gone_within(&self.worker, Duration::from_secs(30)),
            "the peer's worker {} did not stop",
            self.worker
        );
    }
}
