//! The sides the schedule benches (`timer_schedule`, `scheduled_pool`,
//! `instructions`) call, one function per side, so that a time and an
//! instruction count measure the very same call: ours, and the floors.
//! The peer is in [`crate::peer`].

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use interrupt_cancel::timer::{TaskHandle, Timer};
use threadpool_executor::delayed_queue::Plain;
use threadpool_executor::scheduled::{ScheduledFuture, ScheduledThreadPool};

use crate::workload::Call;

/// The `Timer`'s floor's name in the reports.
pub const HEAP_FLOOR: &str = "floor: clock, lock, box, heap push";

/// The scheduled pool's floor's name in the reports.
pub const ARC_FLOOR: &str = "floor: clock, lock, box, Arc, heap push";

/// A task's closure: one that captures `call.capture` (its box
/// allocates), or one that captures nothing (its box allocates nothing).
#[inline]
pub fn task(call: Call) -> Box<dyn FnOnce() + Send> {
    match call.capture {
        None => Box::new(|| ()),
        Some(x) => Box::new(move || {
            black_box(x);
        }),
    }
}

/// Stage 5's `Timer::schedule`, with the call's closure.
///
/// # Panics
/// If the timer refuses.
#[inline]
pub fn timer_schedule(timer: &Timer, call: Call) -> TaskHandle {
    match call.capture {
        None => timer.schedule(call.delay, || ()),
        Some(x) => timer.schedule(call.delay, move || {
            black_box(x);
        }),
    }
    .expect("a running timer")
}

/// Stage 6's `ScheduledThreadPool::schedule`, with the call's closure.
///
/// # Panics
/// If the pool refuses.
#[inline]
pub fn pool_schedule(pool: &ScheduledThreadPool, call: Call) -> ScheduledFuture<()> {
    match call.capture {
        None => pool.schedule(call.delay, || ()),
        Some(x) => pool.schedule(call.delay, move || {
            black_box(x);
        }),
    }
    .expect("a running pool")
}

/// The `Timer`'s floor, what any timer of its shape must do and no more:
/// a clock read, the closure's box, an uncontended `parking_lot` lock and
/// a heap push of a 32-byte entry (deadline and box, as big as the
/// `Timer`'s entry); no handle.
#[derive(Default)]
pub struct HeapFloor {
    heap: parking_lot::Mutex<BinaryHeap<Entry>>,
}

struct Entry {
    deadline: Instant,
    #[expect(dead_code, reason = "held to be dropped with the heap, never run")]
    task: Box<dyn FnOnce() + Send>,
}

const _: () = assert!(size_of::<Entry>() == 32);

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        // Earliest on top, as a timer's (std's heap is a max-heap).
        other.deadline.cmp(&self.deadline)
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.deadline == other.deadline
    }
}

impl Eq for Entry {}

impl HeapFloor {
    /// One schedule: see the type's docs.
    #[inline]
    pub fn schedule(&self, call: Call) {
        let deadline = Instant::now() + call.delay;
        let task = task(call);
        self.heap.lock().push(Entry { deadline, task });
    }
}

/// The scheduled pool's floor: what any pool pays that hands out a handle
/// sharing the task with its queue: a clock read, the closure's box, one
/// shared allocation (an `Arc` holding the deadline and the box behind a
/// lock of its own, so that a worker can take it while the handle's
/// holder can cancel it, from any thread), an uncontended `parking_lot`
/// lock, a push of the `Arc` onto a `BinaryHeap` ordered through it, and
/// a clone of the `Arc` handed back.
#[derive(Default)]
pub struct ArcFloor {
    heap: parking_lot::Mutex<BinaryHeap<Queued>>,
}

/// The task, shared by the heap and the handle.
pub struct SharedTask {
    deadline: Instant,
    #[expect(dead_code, reason = "held to be dropped, never run")]
    task: parking_lot::Mutex<Option<Box<dyn FnOnce() + Send>>>,
}

/// A heap entry: the shared task, ordered through the pointer.
struct Queued(Arc<SharedTask>);

impl Ord for Queued {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.deadline.cmp(&self.0.deadline)
    }
}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.0.deadline == other.0.deadline
    }
}

impl Eq for Queued {}

impl ArcFloor {
    /// One schedule: see the type's docs.
    #[inline]
    pub fn schedule(&self, call: Call) -> Arc<SharedTask> {
        let deadline = Instant::now() + call.delay;
        let task = task(call);
        let shared = Arc::new(SharedTask {
            deadline,
            task: parking_lot::Mutex::new(Some(task)),
        });
        self.heap.lock().push(Queued(Arc::clone(&shared)));
        shared
    }
}

/// An item of the bare indexed heap (stage 6's `DelayedQueue` with
/// nothing around it): what the cancel benches set beside the scheduled
/// pool, to show what the heap itself costs.
pub type HeapItem = Plain;
