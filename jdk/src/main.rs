//! Our side of `cargo xtask jdk`: each scenario of `jdk/java/SideBySide.java`
//! run on the finished versions (stage 5's Timer, stage 6's pool), printing
//! one line, `<scenario> | <what happened>`, in the same words. Counts and
//! orders only, never a time.
//!
//! Where our API differs from the JDK's by design, the line says what a
//! caller sees: a typed `Err` where Java throws is "refused" on both sides.
//! Where the behaviour itself differs by design (a timer that survives a
//! panicking task, I6), the line says what ours does, and `cargo xtask jdk`
//! lists the difference with its reason.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::time::Duration;

use interrupt_cancel::timer::{TaskState, Timer};
use kit::gate::Gate;
use kit::ms;
use threadpool_executor::ThreadPool;
use threadpool_executor::future::FutureError;
use threadpool_executor::queue::TaskQueue;
use threadpool_executor::reject::{Abort, CallerRuns, Discard, DiscardOldest, RejectPolicy};
use threadpool_executor::scheduled::ScheduledThreadPool;
use threadpool_executor::task::Task;

const FAR: Duration = Duration::from_secs(3600);

fn line(scenario: &str, what: &str) {
    println!("{scenario} | {what}");
}

/// `cancel` discards the queue, and a later schedule is refused.
fn timer_cancel() {
    let timer = Timer::new("jdk-cancel").expect("a timer");
    timer.schedule(FAR, || {}).expect("accepted");
    timer.cancel();
    match timer.schedule(ms(10), || {}) {
        Ok(_) => line("timer: schedule after cancel", "accepted"),
        Err(e) => {
            line("timer: schedule after cancel", "refused");
            line("timer: the refusal's message", &e.to_string());
        }
    }
}

/// A task that panics: does the timer take more tasks?
fn timer_task_panics() {
    let timer = Timer::with_panic_hook("jdk-panic", |_| {}).expect("a timer");
    let panicked = timer
        .schedule(Duration::ZERO, || std::panic::panic_any(ON_PURPOSE))
        .expect("accepted");
    // Its panic is caught and reported: wait for that, with a deadline.
    let reported = kit::eventually(ms(5000), || panicked.state() == TaskState::Panicked);
    assert!(reported, "the panicking task ran and was reported");
    let ran = Arc::new(AtomicUsize::new(0));
    let r = Arc::clone(&ran);
    let verdict = match timer.schedule(Duration::ZERO, move || {
        r.fetch_add(1, SeqCst);
    }) {
        Err(_) => "refused",
        Ok(_) if kit::eventually(ms(2000), || ran.load(SeqCst) == 1) => "accepted, and ran",
        Ok(_) => "accepted, never ran",
    };
    line("timer: schedule after a task threw", verdict);
    timer.cancel();
}

/// `purge` counts the cancelled tasks it removes.
fn timer_purge() {
    let timer = Timer::new("jdk-purge").expect("a timer");
    // As the Java side: the head is not cancelled (the JDK's timer thread
    // drops a cancelled head by itself, whenever it looks).
    let handles: Vec<_> = (0..5)
        .map(|i| {
            timer
                .schedule(FAR + Duration::from_millis(i), || {})
                .expect("accepted")
        })
        .collect();
    for handle in &handles[1..=3] {
        handle.cancel();
    }
    line(
        "timer: purge after 3 of 5 cancelled, not the head",
        &format!("removed {}", timer.purge()),
    );
    timer.cancel();
}

/// Core 2, maximum 4, 8 tasks that block: how many threads?
fn pool_growth(bounded: bool) {
    let queue = if bounded {
        TaskQueue::bounded(2).expect("a capacity of 2")
    } else {
        TaskQueue::unbounded()
    };
    let pool = ThreadPool::builder()
        .core_pool_size(2)
        .maximum_pool_size(4)
        .keep_alive(Duration::from_secs(1))
        .queue(queue)
        .build()
        .expect("a valid pool");
    let gate = Gate::new();
    let mut rejected = 0;
    for _ in 0..8 {
        let waiter = gate.waiter();
        if pool.execute(move || waiter.wait()).is_err() {
            rejected += 1;
        }
    }
    let what = format!(
        "largest pool {}, rejected {rejected}",
        pool.largest_pool_size()
    );
    let queue = if bounded {
        "queue of 2"
    } else {
        "unbounded queue"
    };
    line(
        &format!("pool: core 2, max 4, 8 blocking tasks, {queue}"),
        &what,
    );
    gate.open();
}

/// `shutdown_now` hands back what was queued.
fn shutdown_now() {
    let pool = ThreadPool::builder()
        .core_pool_size(1)
        .maximum_pool_size(1)
        .queue(TaskQueue::unbounded())
        .build()
        .expect("a valid pool");
    let gate = Gate::new();
    let started = Arc::new(Gate::new());
    let (waiter, start) = (gate.waiter(), Arc::clone(&started));
    pool.execute(move || {
        start.open();
        waiter.wait();
    })
    .expect("accepted");
    started.waiter().wait();
    let ran = Arc::new(AtomicUsize::new(0));
    for _ in 0..3 {
        let ran = Arc::clone(&ran);
        pool.execute(move || {
            ran.fetch_add(1, SeqCst);
        })
        .expect("accepted");
    }
    let handed_back = pool.shutdown_now().len();
    gate.open();
    drop(pool);
    line(
        "pool: shutdown_now with 1 running and 3 queued",
        &format!("handed back {handed_back}, ran {}", ran.load(SeqCst)),
    );
}

/// A full pool (1 thread busy, a queue of 1 full) offered one more task,
/// under each rejection policy: what happens to it, and to the queued one?
fn rejected_when_full() {
    fn one(name: &str, policy: impl RejectPolicy<Task>) {
        let pool = ThreadPool::builder()
            .core_pool_size(1)
            .maximum_pool_size(1)
            .queue(TaskQueue::bounded(1).expect("a capacity of 1"))
            .reject_policy(policy)
            .build()
            .expect("a valid pool");
        let (gate, started) = (Gate::new(), Arc::new(Gate::new()));
        let (waiter, start) = (gate.waiter(), Arc::clone(&started));
        pool.execute(move || {
            start.open();
            waiter.wait();
        })
        .expect("accepted");
        started.waiter().wait();
        let counter = || Arc::new(AtomicUsize::new(0));
        let (queued_ran, new_ran) = (counter(), counter());
        let q = Arc::clone(&queued_ran);
        pool.execute(move || {
            q.fetch_add(1, SeqCst);
        })
        .expect("queued");
        let n = Arc::clone(&new_ran);
        let offer = match pool.execute(move || {
            n.fetch_add(1, SeqCst);
        }) {
            Err(_) => "refused to the caller",
            Ok(()) if new_ran.load(SeqCst) == 1 => "ran on the caller",
            Ok(()) => "returned normally",
        };
        gate.open();
        pool.shutdown();
        pool.await_termination(Duration::from_secs(5));
        line(
            &format!("pool: full, one more task, policy {name}"),
            &format!(
                "{offer}; then the queued task ran {}, the new one {}",
                queued_ran.load(SeqCst),
                new_ran.load(SeqCst)
            ),
        );
    }
    one("abort", Abort);
    one("caller runs", CallerRuns);
    one("discard", Discard);
    one("discard oldest", DiscardOldest);
}

/// A task offered after shutdown, under each rejection policy.
fn rejected_after_shutdown() {
    fn one(name: &str, policy: impl RejectPolicy<Task>) {
        let pool = ThreadPool::builder()
            .core_pool_size(1)
            .maximum_pool_size(1)
            .queue(TaskQueue::unbounded())
            .reject_policy(policy)
            .build()
            .expect("a valid pool");
        pool.shutdown();
        let ran = Arc::new(AtomicUsize::new(0));
        let r = Arc::clone(&ran);
        let what = match pool.execute(move || {
            r.fetch_add(1, SeqCst);
        }) {
            Err(_) => "refused to the caller",
            Ok(()) if ran.load(SeqCst) == 1 => "ran on the caller",
            Ok(()) => "dropped without a word",
        };
        line(
            &format!("pool: execute after shutdown, policy {name}"),
            what,
        );
    }
    one("abort", Abort);
    one("caller runs", CallerRuns);
    one("discard", Discard);
    one("discard oldest", DiscardOldest);
}

/// The scheduled pool's shutdown defaults: a delayed one-shot task still
/// runs; a periodic task is cancelled.
fn scheduled_shutdown() {
    let pool = ScheduledThreadPool::new(2).expect("a valid pool");
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

/// A periodic task that panics on its third run stops, and `get` fails
/// with the cause (Java: `ExecutionException`).
fn periodic_panics() {
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

/// A fixed-rate task whose runs outlast its period never overlaps itself.
fn fixed_rate_never_overlaps() {
    let pool = ScheduledThreadPool::new(4).expect("a valid pool");
    let running = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let runs = Arc::new(AtomicUsize::new(0));
    let (r, m, n) = (Arc::clone(&running), Arc::clone(&most), Arc::clone(&runs));
    let future = pool
        .schedule_at_fixed_rate(Duration::ZERO, ms(5), move || {
            m.fetch_max(r.fetch_add(1, SeqCst) + 1, SeqCst);
            std::thread::sleep(ms(20)); // the run's work
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
        "scheduled pool: fixed rate 5 ms, runs of 20 ms, 4 threads",
        &format!("at most {} run at a time", most.load(SeqCst)),
    );
}

/// The panic this program raises on purpose (the Java side's throwing task
/// prints its stack trace to stderr; this keeps ours quiet instead).
const ON_PURPOSE: &str = "a task that panics, on purpose";

fn main() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if info.payload().downcast_ref::<&str>() != Some(&ON_PURPOSE) {
            report(info);
        }
    }));
    timer_cancel();
    timer_task_panics();
    timer_purge();
    pool_growth(false);
    pool_growth(true);
    shutdown_now();
    rejected_when_full();
    rejected_after_shutdown();
    scheduled_shutdown();
    periodic_panics();
    fixed_rate_never_overlaps();
}
