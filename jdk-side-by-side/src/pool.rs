//! ThreadPoolExecutor's scenarios, on stage 6's `ThreadPool`.
//!
//! Java's `execute` returns or throws `RejectedExecutionException`; ours
//! returns `Ok` or `Err(Rejected)` (holding the task). Both read "refused to
//! the caller".

use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::{self, ThreadId};
use std::time::Duration;

use kit::gate::Gate;
use threadpool_executor::error::InvokeError;
use threadpool_executor::presets;
use threadpool_executor::queue::TaskQueue;
use threadpool_executor::reject::{Abort, CallerRuns, Discard, DiscardOldest, RejectPolicy};
use threadpool_executor::task::Task;
use threadpool_executor::{TaskId, ThreadPool, interrupt};

use crate::{ON_PURPOSE, line};

/// Core 2, maximum 4, 8 tasks that block: an unbounded queue takes every
/// task past the core, so the pool never grows; a bounded one fills, then
/// the pool grows to its maximum, then it rejects.
pub fn growth() {
    for bounded in [false, true] {
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
        let queue = if bounded {
            "queue of 2"
        } else {
            "unbounded queue"
        };
        line(
            &format!("pool: core 2, max 4, 8 blocking tasks, {queue}"),
            &format!(
                "largest pool {}, rejected {rejected}",
                pool.largest_pool_size()
            ),
        );
        gate.open();
    }
}

/// The before hook panics (Java: throws) on every second call: its task is
/// skipped, and so is the after hook, and the task still counts as
/// completed (T17).
pub fn before_hook_panics() {
    let calls = Arc::new(AtomicUsize::new(0));
    let (after, after_thrown) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let ran = Arc::new(AtomicUsize::new(0));
    let (a, t) = (Arc::clone(&after), Arc::clone(&after_thrown));
    let pool = presets::single()
        .before_execute(move |_run, _task| {
            if calls.fetch_add(1, SeqCst) % 2 == 1 {
                std::panic::panic_any(ON_PURPOSE);
            }
        })
        .after_execute(move |_run, panic| {
            a.fetch_add(1, SeqCst);
            if panic.is_some() {
                t.fetch_add(1, SeqCst);
            }
        })
        .on_panic(|_| {})
        .build()
        .expect("a valid pool");
    let gate = Gate::new();
    for _ in 0..10 {
        let (waiter, ran) = (gate.waiter(), Arc::clone(&ran));
        pool.execute(move || {
            waiter.wait();
            ran.fetch_add(1, SeqCst);
        })
        .expect("accepted");
    }
    gate.open();
    pool.shutdown();
    pool.await_termination(Duration::from_secs(10));
    line(
        "pool: 10 tasks, the before hook throws on every second call",
        &format!(
            "{} ran, the after hook called {} times ({} with a throw), {} completed",
            ran.load(SeqCst),
            after.load(SeqCst),
            after_thrown.load(SeqCst),
            pool.completed_task_count()
        ),
    );
}

/// A worker whose task panics (Java: throws) dies, and the pool starts
/// another.
pub fn worker_replaced() {
    let pool = presets::single().build().expect("a valid pool");
    let first: Arc<Mutex<Option<ThreadId>>> = Arc::default();
    let f = Arc::clone(&first);
    pool.execute(move || {
        *f.lock().expect("not poisoned") = Some(thread::current().id());
        std::panic::panic_any(ON_PURPOSE);
    })
    .expect("accepted");
    let (tx, rx) = mpsc::channel();
    pool.execute(move || {
        let _ = tx.send(thread::current().id());
    })
    .expect("accepted");
    let second = rx.recv().expect("the second task ran");
    let same = *first.lock().expect("not poisoned") == Some(second);
    line(
        "pool: 1 thread, a task throws, then another task",
        if same {
            "the next task ran on the same thread"
        } else {
            "the next task ran on a new thread"
        },
    );
    pool.shutdown();
    pool.await_termination(Duration::from_secs(5));
}

/// A full pool (1 thread busy, a queue of 1 full) offered one more task,
/// under each rejection policy: what happens to it, and to the queued one?
pub fn rejected_when_full() {
    fn one(name: &str, policy: impl RejectPolicy<Task>) {
        let pool = presets::single()
            .queue(TaskQueue::bounded(1).expect("a capacity of 1"))
            .reject_policy(policy)
            .build()
            .expect("a valid pool");
        let (gate, _) = occupy(&pool);
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
pub fn rejected_after_shutdown() {
    fn one(name: &str, policy: impl RejectPolicy<Task>) {
        let pool = presets::single()
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

/// `shutdown_now` hands back what was queued, and none of it runs.
pub fn shutdown_now() {
    let pool = presets::single().build().expect("a valid pool");
    let (gate, _) = occupy(&pool);
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

/// Occupies the pool's one thread with a task that waits at the returned
/// gate, and returns once that task has started (Java's started latch and
/// gate latch), with the task's id.
fn occupy(pool: &ThreadPool) -> (Gate, TaskId) {
    let gate = Gate::new();
    let (job, started) = gate.held_job();
    let id = pool.execute_with_id(job).expect("accepted");
    started.wait(Duration::from_secs(5));
    (gate, id)
}

/// `invoke_any` of three jobs on three threads: the first two wait to be
/// interrupted, the third returns once both have started. Its value
/// wins, and the two others, running, are interrupted.
pub fn invoke_any_first_wins() {
    let pool = presets::fixed(3).build().expect("a valid pool");
    let (started, interrupted) = (mpsc::channel(), mpsc::channel());
    let (started_tx, started_rx) = started;
    let (interrupted_tx, interrupted_rx) = interrupted;
    let mut jobs: Vec<Box<dyn FnOnce() -> &'static str + Send>> = Vec::new();
    for name in ["the first", "the second"] {
        let (started, interrupted) = (started_tx.clone(), interrupted_tx.clone());
        jobs.push(Box::new(move || {
            let _ = started.send(());
            let token = interrupt::current().expect("a worker's token");
            if token.sleep(kit::ms(10_000)).is_err() {
                let _ = interrupted.send(());
            }
            name
        }));
    }
    jobs.push(Box::new(move || {
        for _ in 0..2 {
            started_rx.recv().expect("the other two started");
        }
        "the third"
    }));
    let what = match pool.invoke_any(jobs) {
        Ok(value) => {
            let others = (0..2)
                .filter(|_| interrupted_rx.recv_timeout(kit::ms(10_000)).is_ok())
                .count();
            format!("returned {value}'s value; the other 2 interrupted: {others}")
        }
        Err(error) => format!("failed: {error}"),
    };
    line(
        "pool: invoke_any of 3, the third returns once the other two run",
        &what,
    );
    pool.shutdown();
    pool.await_termination(Duration::from_secs(5));
}

/// `invoke_any` where every job panics (Java: throws).
pub fn invoke_any_all_fail() {
    let pool = presets::fixed(3).build().expect("a valid pool");
    let jobs: Vec<fn() -> u32> = vec![|| std::panic::panic_any(ON_PURPOSE); 3];
    let what = match pool.invoke_any(jobs) {
        Ok(_) => "returned a value".to_owned(),
        Err(InvokeError::AllPanicked(message)) if message.contains("on purpose") => {
            "failed, with a job's throw as the cause".to_owned()
        }
        Err(error) => format!("failed: {error}"),
    };
    line("pool: invoke_any of 3, every one throws", &what);
    pool.shutdown();
    pool.await_termination(Duration::from_secs(5));
}

/// `remove` of a queued task, then of the running one: Java's
/// `remove(Runnable)`, by the id `execute_with_id` gave.
pub fn remove() {
    let pool = presets::single().build().expect("a valid pool");
    let (gate, busy) = occupy(&pool);
    let ran = Arc::new(AtomicUsize::new(0));
    let queued: Vec<_> = (0..3)
        .map(|_| {
            let ran = Arc::clone(&ran);
            pool.execute_with_id(move || {
                ran.fetch_add(1, SeqCst);
            })
            .expect("accepted")
        })
        .collect();
    let second = pool.remove(queued[1]);
    let running = pool.remove(busy);
    gate.open();
    pool.shutdown();
    pool.await_termination(Duration::from_secs(5));
    line(
        "pool: 1 busy, 3 queued, remove the second, then the running one",
        &format!(
            "removed the second: {second}, the running one: {running}; then {} of the 3 ran",
            ran.load(SeqCst)
        ),
    );
}

/// `purge` after two of three queued jobs were cancelled.
pub fn purge() {
    let pool = presets::single().build().expect("a valid pool");
    let (gate, _) = occupy(&pool);
    let ran = Arc::new(AtomicUsize::new(0));
    let futures: Vec<_> = (0..3)
        .map(|_| {
            let ran = Arc::clone(&ran);
            pool.submit(move || {
                ran.fetch_add(1, SeqCst);
            })
            .expect("accepted")
        })
        .collect();
    futures[0].cancel(false);
    futures[2].cancel(false);
    let before = pool.queue().len();
    pool.purge();
    let after = pool.queue().len();
    gate.open();
    pool.shutdown();
    pool.await_termination(Duration::from_secs(5));
    line(
        "pool: 1 busy, 3 submitted, 2 of them cancelled, purge",
        &format!(
            "queued {before} before, {after} after; then {} ran",
            ran.load(SeqCst)
        ),
    );
}
