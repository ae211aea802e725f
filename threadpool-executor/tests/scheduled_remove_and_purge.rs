//! The scheduled pool's `remove(task)` and `purge()`: Java's
//! `ThreadPoolExecutor.remove(Runnable)` and `purge()`, which
//! `ScheduledThreadPoolExecutor` inherits. Every task here is due in an
//! hour, so which tasks wait in the queue when a call comes is decided
//! by the test, not by the clock.
#![cfg(not(loom))]

mod support;

use std::time::Duration;

use support::prefix;
use threadpool_executor::future::FutureError;
use threadpool_executor::queue::WorkQueue;
use threadpool_executor::scheduled::{ScheduledFuture, ScheduledThreadPool};

const LATER: Duration = Duration::from_secs(3600);

fn pool(id: &str, remove_on_cancel: bool) -> ScheduledThreadPool {
    ScheduledThreadPool::builder()
        .thread_factory(support::threads(&prefix(id)))
        .remove_on_cancel(remove_on_cancel)
        .build()
        .expect("a valid pool")
}

fn later(pool: &ScheduledThreadPool, n: usize) -> Vec<ScheduledFuture<usize>> {
    (0..n)
        .map(|i| pool.schedule(LATER, move || i).expect("a running pool"))
        .collect()
}

#[test]
fn remove_takes_a_queued_task_out_once_and_cancels_its_future() {
    let pool = pool("sremove", true);
    let tasks = later(&pool, 3);
    assert!(pool.remove(tasks[1].task()), "queued: taken out");
    assert_eq!(pool.queue().len(), 2);
    assert_eq!(
        tasks[1].get(),
        Err(FutureError::Cancelled),
        "no get waits for ever"
    );
    assert!(!pool.remove(tasks[1].task()), "not queued any more");
    assert!(
        !tasks[0].is_done() && !tasks[2].is_done(),
        "the others wait on"
    );
}

#[test]
fn remove_takes_back_a_task_that_shutdown_now_handed_back_only_from_the_queue() {
    let pool = pool("srm-now", true);
    let _tasks = later(&pool, 2);
    let handed = pool.shutdown_now();
    assert_eq!(handed.len(), 2);
    assert!(
        handed.iter().all(|task| !pool.remove(task)),
        "handed back: in no queue"
    );
}

#[test]
fn purge_takes_out_the_cancelled_tasks_a_lazy_pool_kept() {
    let pool = pool("spurge", false);
    let tasks = later(&pool, 6);
    for task in [&tasks[0], &tasks[2], &tasks[5]] {
        assert!(task.cancel(false));
    }
    assert_eq!(pool.queue().len(), 6, "T14: cancelled, still queued");
    assert_eq!(pool.purge(), 3);
    assert_eq!(pool.queue().len(), 3);
    assert_eq!(pool.purge(), 0, "nothing left to purge");
    assert!(!tasks[1].is_done(), "the live ones stay");
}

#[test]
fn purge_finds_nothing_when_cancel_removes_at_once() {
    let pool = pool("spg-dflt", true);
    let tasks = later(&pool, 4);
    assert!(tasks[3].cancel(false));
    assert_eq!(pool.queue().len(), 3, "the default took it out already");
    assert_eq!(pool.purge(), 0);
}

#[test]
fn remove_and_purge_work_after_shutdown_and_let_the_pool_end() {
    // Delayed tasks run after shutdown by default: these keep the pool
    // alive until they leave the queue.
    let pool = pool("spg-shut", false);
    let tasks = later(&pool, 2);
    pool.shutdown();
    assert!(!pool.await_termination(Duration::ZERO), "two tasks queued");
    assert!(tasks[0].cancel(false));
    assert_eq!(pool.purge(), 1);
    assert!(pool.remove(tasks[1].task()));
    assert!(
        pool.await_termination(Duration::from_secs(10)),
        "an empty queue lets a shut-down pool end"
    );
}
