//! T2 `unbounded_queue_never_grows`: `execute` starts a thread above core
//! size only when the queue refuses the task, and an unbounded queue never
//! refuses. So a pool with an unbounded queue never grows past its core
//! size, whatever its maximum: the maximum is dead.
//!
//! The burst: 8 tasks that each hold their thread (they wait at a gate)
//! on a pool of core size 1 and maximum 4.
//!
//! - Unbounded queue (queue.rs, `Capacity::Unbounded`): 1 thread runs, 7
//!   tasks wait in the queue, and the pool never starts the 3 threads it
//!   may. With core size 0 it is as sharp: one thread, started by the look
//!   after queuing, runs everything.
//! - Bounded queue of 4: 1 thread, then 4 queued, then the queue is full
//!   and the pool grows to its maximum, 4 threads.
//!
//! The correctness check: a burst that keeps every thread busy grows the
//! pool to its maximum.
#![cfg(not(loom))]

mod support;

use std::collections::BTreeSet;

use threadpool_executor::ThreadPool;
use threadpool_executor::queue::TaskQueue;

use kit::{Recorder, ms};
use support::{Gate, prefix};

const CORE: usize = 1;
const MAX: usize = 4;
const BURST: usize = 8;

/// What the pool looked like with the whole burst submitted, and who ran
/// what.
struct Burst {
    queue_kind: &'static str,
    core: usize,
    pool_size: usize,
    largest: usize,
    queued: usize,
    /// The threads that ran the burst.
    threads: BTreeSet<String>,
    rec: Recorder,
}

fn burst(
    core: usize,
    queue: TaskQueue<threadpool_executor::Task>,
    queue_kind: &'static str,
) -> Burst {
    let pool = ThreadPool::builder()
        .core_pool_size(core)
        .maximum_pool_size(MAX)
        .queue(queue)
        .thread_factory(support::threads(&prefix("t2")))
        .build()
        .unwrap();
    let (gate, rec) = (Gate::new(), Recorder::new());
    for i in 0..BURST {
        let (gate, rec) = (gate.waiter(), rec.clone());
        pool.execute(move || {
            gate.wait();
            rec.record(format!("task {i}"));
        })
        .unwrap_or_else(|e| panic!("task {i}: {e}"));
    }
    let (pool_size, largest, queued) = (
        pool.pool_size(),
        pool.largest_pool_size(),
        pool.queue().len(),
    );
    rec.record_as(
        "test",
        format!("submitted {BURST}: pool size {pool_size}, {queued} queued"),
    );
    gate.open();
    for i in 0..BURST {
        rec.eventually(&format!("task {i}"), ms(5000))
            .unwrap_or_else(|| panic!("task {i} never ran\n{}", rec.log()));
    }
    let threads = rec
        .events()
        .into_iter()
        .filter(|e| e.what.starts_with("task "))
        .map(|e| e.who)
        .collect();
    Burst {
        queue_kind,
        core,
        pool_size,
        largest,
        queued,
        threads,
        rec,
    }
}

fn unbounded(core: usize) -> Burst {
    burst(core, TaskQueue::unbounded(), "unbounded queue")
}

fn bounded() -> Burst {
    burst(CORE, TaskQueue::bounded(MAX).unwrap(), "bounded queue of 4")
}

/// The correctness check.
fn assert_grows_to_max(run: &Burst) {
    assert!(
        run.largest == MAX,
        "T2 unbounded_queue_never_grows: max {MAX}, largest pool {}; a burst of {BURST} tasks that each hold \
         their thread left {} queued while the pool could have started {} more threads \
         (core {}, {})\n{}",
        run.largest,
        run.queued,
        MAX - run.largest,
        run.core,
        run.queue_kind,
        run.rec.log()
    );
}

#[test]
fn t2_unbounded_queue_never_grows_reproduces() {
    let run = unbounded(CORE);
    assert_eq!(run.pool_size, CORE, "\n{}", run.rec.log());
    assert_eq!(run.largest, CORE);
    assert_eq!(run.queued, BURST - CORE);
    assert_eq!(
        run.threads.len(),
        1,
        "one thread ran them all: {:?}",
        run.threads
    );

    // The sharpest form: no core thread at all. The look after queuing
    // starts one worker, and that is the pool.
    let run = unbounded(0);
    assert_eq!((run.pool_size, run.largest), (1, 1));
    // The worker took the first task from the queue, or is about to.
    assert!(run.queued >= BURST - 1, "{} queued", run.queued);
    assert_eq!(run.threads.len(), 1, "{:?}", run.threads);
}

#[test]
fn t2_unbounded_queue_never_grows_fixed() {
    let run = bounded();
    assert_grows_to_max(&run);
    assert_eq!(run.pool_size, MAX);
    assert_eq!(
        run.queued,
        BURST - MAX,
        "the queue full, the rest on new threads"
    );
    assert_eq!(run.threads.len(), MAX, "{:?}", run.threads);
}

#[test]
#[ignore = "T2 unbounded_queue_never_grows: shows the bug in queue.rs (Capacity::Unbounded)"]
fn t2_unbounded_queue_never_grows_on_unbounded_queue() {
    assert_grows_to_max(&unbounded(CORE));
}
