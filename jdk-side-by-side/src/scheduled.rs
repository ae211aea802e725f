//! ScheduledThreadPoolExecutor's scenarios, on stage 6's
//! `ScheduledThreadPool`.
//!
//! Java's `Future.get` throws `ExecutionException` with the cause; ours
//! returns `Err(FutureError::Panicked(message))`. Both read "failed with its
//! cause" when the cause is the one the task raised.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use kit::gate::Gate;
use kit::ms;
use threadpool_executor::future::FutureError;
use threadpool_executor::queue::WorkQueue;
use threadpool_executor::scheduled::ScheduledThreadPool;

use crate::{ON_PURPOSE, line, timer};

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// The shutdown policies' defaults, and what they do: a delayed one-shot
/// task still runs after shutdown; a periodic task is cancelled.
pub fn shutdown() {
    let pool = ScheduledThreadPool::new(2).expect("a valid pool");
    line(
        "scheduled pool: the defaults",
        &format!(
            "delayed tasks run after shutdown: {}; periodic tasks go on after shutdown: {}",
            yes_no(pool.executes_delayed_after_shutdown()),
            yes_no(pool.continues_periodic_after_shutdown())
        ),
    );
    let one_shot = Arc::new(AtomicUsize::new(0));
    let o = Arc::clone(&one_shot);
    pool.schedule(ms(50), move || {
        o.fetch_add(1, SeqCst);
    })
    .expect("accepted");
    let ran_once = Arc::new(Gate::new());
    let r = Arc::clone(&ran_once);
    let periodic = pool
        .schedule_at_fixed_rate(Duration::ZERO, ms(10), move || r.open())
        .expect("accepted");
    ran_once.waiter().wait();
    pool.shutdown();
    pool.await_termination(Duration::from_secs(5));
    let ran = if one_shot.load(SeqCst) == 1 {
        "ran"
    } else {
        "did not run"
    };
    line("scheduled pool: a delayed task, then shutdown", ran);
    let cancelled = if periodic.is_cancelled() {
        "cancelled"
    } else {
        "not cancelled"
    };
    line("scheduled pool: a periodic task, then shutdown", cancelled);
}

/// Whether a cancelled task leaves the queue at once (remove-on-cancel).
pub fn remove_on_cancel() {
    let pool = ScheduledThreadPool::new(1).expect("a valid pool");
    let far = pool
        .schedule(Duration::from_secs(3600), || {})
        .expect("accepted");
    far.cancel(false);
    line(
        "scheduled pool: cancel a task due in an hour",
        &format!(
            "the queue then holds {} (remove on cancel: {})",
            pool.queue().len(),
            yes_no(pool.removes_on_cancel())
        ),
    );
    pool.shutdown_now();
    pool.await_termination(Duration::from_secs(5));
}

/// A periodic task that panics on its third run stops, and `get` fails
/// with the cause (Java: `ExecutionException`).
pub fn periodic_panics() {
    let pool = ScheduledThreadPool::new(2).expect("a valid pool");
    let runs = Arc::new(AtomicUsize::new(0));
    let r = Arc::clone(&runs);
    let future = pool
        .schedule_at_fixed_rate(Duration::ZERO, ms(5), move || {
            if r.fetch_add(1, SeqCst) + 1 == 3 {
                std::panic::panic_any(ON_PURPOSE);
            }
        })
        .expect("accepted");
    let got = match future.get() {
        Ok(()) => "returned",
        Err(FutureError::Panicked(cause)) if cause.contains("on purpose") => {
            "failed with its cause"
        }
        Err(_) => "failed",
    };
    line(
        "scheduled pool: a periodic task fails on its third run",
        &format!("stopped after {} runs; get: {got}", runs.load(SeqCst)),
    );
    pool.shutdown();
    pool.await_termination(Duration::from_secs(5));
}

/// A fixed-rate task whose runs outlast its period never overlaps itself,
/// however many threads wait.
pub fn fixed_rate_never_overlaps() {
    let pool = ScheduledThreadPool::new(4).expect("a valid pool");
    let running = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let runs = Arc::new(AtomicUsize::new(0));
    let (r, m, n) = (Arc::clone(&running), Arc::clone(&most), Arc::clone(&runs));
    let future = pool
        .schedule_at_fixed_rate(Duration::ZERO, ms(5), move || {
            m.fetch_max(r.fetch_add(1, SeqCst) + 1, SeqCst);
            std::thread::sleep(ms(20)); // the run's work: 4 periods
            r.fetch_sub(1, SeqCst);
            n.fetch_add(1, SeqCst);
        })
        .expect("accepted");
    assert!(
        kit::eventually(ms(5000), || runs.load(SeqCst) >= 5),
        "five runs"
    );
    future.cancel(false);
    pool.shutdown();
    pool.await_termination(Duration::from_secs(5));
    line(
        "scheduled pool: fixed rate, runs 4 periods long, 4 threads",
        &format!("at most {} run at a time", most.load(SeqCst)),
    );
}

/// Fixed delay on the scheduled pool counts from the end of a run: with a
/// first run 2 periods long, the next is due a period after it ended,
/// after a task due at 2 periods. (The timer's counts from its start:
/// [`timer::fixed_delay_from`].)
pub fn fixed_delay_from() {
    let period = ms(100);
    let pool = ScheduledThreadPool::new(1).expect("a valid pool");
    let count = Arc::new(AtomicUsize::new(0));
    let c = Arc::clone(&count);
    let first = Instant::now();
    pool.schedule_with_fixed_delay(Duration::ZERO, period, move || {
        if c.fetch_add(1, SeqCst) == 0 {
            std::thread::sleep(period * 2);
        }
    })
    .expect("accepted");
    let (tx, rx) = mpsc::channel();
    let c = Arc::clone(&count);
    let sentinel_due = first + period * 2;
    pool.schedule(
        sentinel_due.saturating_duration_since(Instant::now()),
        move || {
            let _ = tx.send(c.load(SeqCst));
        },
    )
    .expect("accepted");
    let before = rx.recv().expect("the sentinel ran");
    pool.shutdown_now();
    pool.await_termination(Duration::from_secs(5));
    line(
        "scheduled pool: fixed delay, the first run 2 periods long, 1 thread",
        &timer::from_start_or_end(before),
    );
}

/// Core threads start one per task, not with the pool; the pool stays at
/// its core size.
pub fn threads() {
    let pool = ScheduledThreadPool::new(4).expect("a valid pool");
    let built = pool.pool_size();
    pool.schedule(Duration::ZERO, || ()).expect("accepted");
    let one = pool.pool_size();
    pool.schedule(Duration::ZERO, || ()).expect("accepted");
    let two = pool.pool_size();
    let (tx, rx) = mpsc::channel();
    for _ in 0..100 {
        let tx = tx.clone();
        pool.schedule(Duration::ZERO, move || tx.send(()).expect("the test waits"))
            .expect("accepted");
    }
    for _ in 0..100 {
        rx.recv().expect("every task runs");
    }
    let after = pool.pool_size();
    pool.shutdown();
    pool.await_termination(ms(5000));
    line(
        "scheduled pool: its threads, core 4",
        &format!(
            "once built {built}; after one task {one}, after two {two}; after 100 more {after}"
        ),
    );
}

/// I4 on a scheduled pool of two: the second task has a thread of its own.
pub fn long_task() {
    let pool = ScheduledThreadPool::new(2).expect("a valid pool");
    let what = timer::long_task_first(|body, delay| {
        pool.schedule(delay, body).expect("accepted");
    });
    pool.shutdown();
    pool.await_termination(ms(5000));
    line(
        "scheduled pool, core 2: a task runs 3 units from 1, another is due at 2",
        what,
    );
}
