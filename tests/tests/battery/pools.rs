//! Stage 6's pool in the battery. A pool has no delays to keep, so most
//! timer scenarios do not apply to it; the two that do (I2/I6, I4) are
//! asked of it in its own terms, and three scenarios of its own (T2, T6,
//! T7) are asked of it alone.
//!
//! Every pool row has the same shape: core size 2, maximum 4, threads named
//! after the scenario. Rows differ in their queue (unbounded or bounded to
//! 2 tasks) and in their variant: the fixed pool, or one of the two files
//! that leave out a fix.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::thread;

use kit::gate::Gate;
use kit::pause::Pause;
use kit::threads::unique_name;
use kit::{Recorder, ms};
use threadpool_executor::factory::NamedThreads;
use threadpool_executor::pool::Variant;
use threadpool_executor::queue::TaskQueue;
use threadpool_executor::{Task, ThreadPool};

use super::gone::gone_within;
use super::scenarios::{Outcome, Verdict, quiet_deliberate_panics};

/// The pool's work queue, as a row chooses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queue {
    /// Never refuses: the pool never grows past its core size (T2).
    Unbounded,
    /// Holds 2 tasks: a burst fills it, then grows the pool.
    Bounded,
}

/// One version of stage 6's pool.
#[derive(Debug, Clone, Copy)]
pub struct PoolVersion {
    /// Which file's `execute` and worker exit it runs.
    pub variant: Variant,
    /// Its work queue.
    pub queue: Queue,
}

const CORE: usize = 2;
const MAXIMUM: usize = 4;
/// Ordinary tasks queued behind T6's panics.
const QUEUED: usize = 2;

/// A pool of this version, with `core` and `maximum` threads named
/// `<prefix>1`, `<prefix>2`, ...
fn build(version: &PoolVersion, prefix: &str, core: usize, maximum: usize) -> ThreadPool {
    let queue = match version.queue {
        Queue::Unbounded => TaskQueue::unbounded(),
        Queue::Bounded => TaskQueue::bounded(2).expect("a capacity of 2"),
    };
    ThreadPool::builder()
        .core_pool_size(core)
        .maximum_pool_size(maximum)
        .queue(queue)
        .thread_factory(NamedThreads::with_prefix(prefix))
        // Reported here rather than by the default panic hook (which
        // `quiet_deliberate_panics` silences for the battery's own panic).
        .on_panic(|_| {})
        .variant(version.variant)
        .build()
        .expect("a valid configuration")
}

/// Shuts the pool down, drops it (which joins every worker), and says
/// whether every thread it ever started is gone.
fn finish(pool: ThreadPool, prefix: &str) -> bool {
    let started = pool.largest_pool_size().max(MAXIMUM) + 2;
    pool.shutdown_now();
    drop(pool);
    (1..=started).all(|n| gone_within(&format!("{prefix}{n}"), ms(1000)))
}

/// I2 / I6 for a pool: a task panics; is a task executed after it run?
pub fn panic_then_execute(version: &PoolVersion) -> Outcome {
    quiet_deliberate_panics();
    let prefix = format!("{}-", unique_name("pm-pi6"));
    let pool = build(version, &prefix, CORE, MAXIMUM);
    let rec = Recorder::new();
    let r = rec.clone();
    let _ = pool.execute(move || {
        r.record("panicking");
        super::scenarios::deliberate_panic();
    });
    let _ = rec.eventually("panicking", ms(2000));
    let r = rec.clone();
    let accepted = pool
        .execute(move || {
            r.record("later task ran");
        })
        .is_ok();
    let ran = accepted && rec.eventually("later task ran", ms(500)).is_some();
    let (verdict, detail) = match (accepted, ran) {
        (false, _) => (Verdict::Ok, "the later task was refused".to_owned()),
        (true, true) => (Verdict::Ok, "the later task ran".to_owned()),
        (true, false) => (
            Verdict::Bug("I6"),
            "the later task was accepted and had not run 500 ms later".to_owned(),
        ),
    };
    Outcome {
        verdict,
        detail,
        joined: finish(pool, &prefix).into(),
    }
}

/// I4 for a pool: a task that runs 400 ms starts at once; does a task
/// executed 50 ms later wait for it?
pub fn long_task_delays_others(version: &PoolVersion) -> Outcome {
    let prefix = format!("{}-", unique_name("pm-pi4"));
    let pool = build(version, &prefix, CORE, MAXIMUM);
    let rec = Recorder::new();
    let _ = pool.execute(|| thread::sleep(ms(400)));
    thread::sleep(ms(50)); // the short task's "delay", for a pool that has none
    let r = rec.clone();
    let asked = rec.record("short task executed");
    let _ = pool.execute(move || {
        r.record("short task ran");
    });
    let ran = rec.eventually("short task ran", ms(3000));
    let (verdict, detail) = match ran {
        None => (Verdict::Unclear, "the short task never ran".to_owned()),
        Some(ran) => {
            let late = ran.saturating_sub(asked);
            let verdict = if late >= ms(200) {
                Verdict::Bug("I4")
            } else if late <= ms(100) {
                Verdict::Ok
            } else {
                Verdict::Unclear
            };
            (
                verdict,
                format!(
                    "short task executed at {} ms, ran at {} ms",
                    asked.as_millis(),
                    ran.as_millis()
                ),
            )
        }
    };
    Outcome {
        verdict,
        detail,
        joined: finish(pool, &prefix).into(),
    }
}

/// T2 `unbounded_queue_never_grows`: core 2, maximum 4, and a burst of 8
/// tasks that each wait at a gate: how many threads does the pool start?
/// Only a queue that refuses makes it grow past its core size.
pub fn burst_grows_the_pool(version: &PoolVersion) -> Outcome {
    let prefix = format!("{}-", unique_name("pm-t2"));
    let pool = build(version, &prefix, CORE, MAXIMUM);
    let gate = kit::gate::Gate::new();
    let mut refused = 0;
    for _ in 0..8 {
        let waiter = gate.waiter();
        let task: Task = Box::new(move || waiter.wait());
        if pool.execute_task(task).is_err() {
            refused += 1;
        }
    }
    let largest = pool.largest_pool_size();
    gate.open();
    let verdict = if largest == MAXIMUM {
        Verdict::Ok
    } else if largest == CORE {
        Verdict::Bug("T2")
    } else {
        Verdict::Unclear
    };
    Outcome {
        verdict,
        detail: format!(
            "8 blocked tasks: {largest} threads (core {CORE}, maximum {MAXIMUM}), {refused} refused"
        ),
        joined: finish(pool, &prefix).into(),
    }
}

/// T6 `dead_worker_not_replaced`: as many panicking tasks as core threads
/// (with the maximum at core size), then 2 ordinary tasks, queued (a
/// bounded queue holds 2): do they run?
pub fn panics_kill_every_worker(version: &PoolVersion) -> Outcome {
    quiet_deliberate_panics();
    let prefix = format!("{}-", unique_name("pm-t6"));
    let pool = build(version, &prefix, CORE, CORE);
    let ran = Arc::new(AtomicUsize::new(0));
    let rec = Recorder::new();
    // Both workers start on a task that panics once the gate opens; the
    // gate holds them until the others are queued, so no `execute` can
    // see a worker already gone and start a fresh one for its task.
    let gate = Gate::new();
    for _ in 0..CORE {
        let held = gate.waiter();
        let _ = pool.execute(move || {
            held.wait();
            super::scenarios::deliberate_panic();
        });
    }
    for _ in 0..QUEUED {
        let (ran, r) = (Arc::clone(&ran), rec.clone());
        let _ = pool.execute(move || {
            ran.fetch_add(1, SeqCst);
            r.record("ran");
        });
    }
    gate.open();
    let _ = rec.wait_until_count("ran", QUEUED, ms(300));
    let ran = ran.load(SeqCst);
    let verdict = match ran {
        QUEUED => Verdict::Ok,
        0 => Verdict::Bug("T6"),
        _ => Verdict::Unclear,
    };
    Outcome {
        verdict,
        detail: format!(
            "{CORE} panics: {ran} of {QUEUED} queued tasks ran within 300 ms; {} workers left",
            pool.pool_size()
        ),
        joined: finish(pool, &prefix).into(),
    }
}

/// The pause point between `execute`'s look at the state and its offer.
fn window(variant: Variant) -> &'static str {
    match variant {
        Variant::NoRecheck => {
            "threadpool-executor::no_recheck: saw the pool running, not yet queued"
        }
        _ => "threadpool-executor::pool: saw the pool running, not yet queued",
    }
}

/// T7 `execute_shutdown_race`: `execute` is held between its look at the
/// state and its offer while the pool shuts down and terminates. Is the
/// task run, or handed back? (Never neither.)
pub fn execute_shutdown_race(version: &PoolVersion) -> Outcome {
    let prefix = format!("{}-", unique_name("pm-t7"));
    let pool = build(version, &prefix, CORE, MAXIMUM);
    pool.prestart_all_core_threads();
    let rec = Recorder::new();
    let caller = format!("{prefix}c");
    let pause = Pause::arm(window(version.variant), &caller);
    let result = thread::scope(|s| {
        let execute = thread::Builder::new()
            .name(caller.clone())
            .spawn_scoped(s, || {
                let r = rec.clone();
                pool.execute(move || {
                    r.record("task ran");
                })
            })
            .expect("a thread");
        pause.wait_reached();
        pool.shutdown();
        let terminated = pool.await_termination(ms(2000));
        pause.release();
        (execute.join().expect("the caller"), terminated)
    });
    let (result, terminated) = result;
    let handed_back = result.is_err();
    let ran = rec.eventually("task ran", ms(300)).is_some();
    let verdict = match (terminated, handed_back, ran) {
        (false, ..) => Verdict::Unclear,
        (true, true, _) | (true, false, true) => Verdict::Ok,
        (true, false, false) => Verdict::Bug("T7"),
    };
    let detail = format!(
        "execute returned {}, task ran: {ran}, queued: {}",
        if handed_back {
            "Err (handed back)"
        } else {
            "Ok"
        },
        pool.queue().len()
    );
    Outcome {
        verdict,
        detail,
        joined: finish(pool, &prefix).into(),
    }
}
