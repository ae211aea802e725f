//! loom models of the pool's ctl word at work (T4): `execute`, a worker
//! that exits, and `shutdown` or `shutdown_now`, racing. In every
//! interleaving the worker count and the run state stay consistent (the
//! pool ends TERMINATED with a count of 0 and no thread left in the set),
//! the terminated hook runs exactly once, and the task is accounted for
//! once: run, rejected (handed back), or returned by `shutdown_now`.
//!
//! Under loom the clock is frozen: a keep-alive of zero is over at once,
//! so a worker above core size times out and leaves as soon as the queue
//! is empty, and `await_termination` with an hour's timeout waits until
//! notified (a lost notify is reported as a deadlock).
//!
//! ```text
//! cargo xtask loom threadpool-executor loom_ctl
//! ```
//!
//! runs its models, which must pass, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p threadpool-executor --release --target-dir target/loom --test loom_ctl -- --include-ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

use std::time::Duration;

use loom::sync::Arc;
use loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use threadpool_executor::ThreadPool;
use threadpool_executor::builder::Builder;
use threadpool_executor::ctl::{RunState, Word};
use threadpool_executor::task::Task;

const HOUR: Duration = Duration::from_secs(3600);

/// What a model's pool reports at the end.
struct Counts {
    terminated: Arc<AtomicUsize>,
    ran: Arc<AtomicBool>,
}

fn pool(builder: Builder<Task>) -> (Arc<ThreadPool>, Counts) {
    let terminated = Arc::new(AtomicUsize::new(0));
    let t = Arc::clone(&terminated);
    let pool = builder
        .on_terminated(move || {
            t.fetch_add(1, SeqCst);
        })
        .build()
        .unwrap();
    let counts = Counts {
        terminated,
        ran: Arc::new(AtomicBool::new(false)),
    };
    (Arc::new(pool), counts)
}

/// A client thread that executes one task; joins to whether it was taken.
fn submit(pool: &Arc<ThreadPool>, counts: &Counts) -> loom::thread::JoinHandle<bool> {
    let (pool, ran) = (Arc::clone(pool), Arc::clone(&counts.ran));
    loom::thread::spawn(move || {
        pool.execute(move || {
            assert!(!ran.swap(true, SeqCst), "ran twice");
        })
        .is_ok()
    })
}

/// The end every model shares: terminated once, consistently. Returns
/// whether the task ran, read once every worker is joined.
fn assert_terminated_once(pool: Arc<ThreadPool>, counts: &Counts) -> bool {
    assert!(pool.await_termination(HOUR));
    assert_eq!(pool.ctl(), Word::new(RunState::Terminated, 0));
    assert_eq!(pool.pool_size(), 0);
    assert_eq!(counts.terminated.load(SeqCst), 1, "the hook ran once");
    // The last handle: its drop joins every worker thread.
    drop(Arc::try_unwrap(pool).ok().expect("the client let go"));
    assert_eq!(counts.terminated.load(SeqCst), 1);
    counts.ran.load(SeqCst)
}

/// Core size 1: `execute` starts the worker (or is refused) while
/// `shutdown` runs. A task that was taken runs; one that was refused does
/// not.
#[test]
fn t4_loom_execute_vs_shutdown() {
    loom::model(|| {
        let (pool, counts) = pool(ThreadPool::builder());
        let client = submit(&pool, &counts);
        pool.shutdown();
        let taken = client.join().unwrap();
        assert_terminated_once(pool, &counts);
        assert_eq!(
            taken,
            counts.ran.load(SeqCst),
            "taken means run, after shutdown too"
        );
    });
}

/// Core size 1, the worker already started: `execute` goes to the queue
/// and re-checks (T7) while `shutdown` may empty and end the pool.
#[test]
fn t7_loom_queued_vs_shutdown() {
    loom::model(|| {
        let (pool, counts) = pool(ThreadPool::builder());
        assert!(pool.prestart_core_thread());
        let client = submit(&pool, &counts);
        pool.shutdown();
        let taken = client.join().unwrap();
        let ran = assert_terminated_once(pool, &counts);
        assert_eq!(taken, ran, "taken means run");
    });
}

/// Core size 0, keep-alive 0: the worker the re-check starts leaves as
/// soon as it finds the queue empty, racing the client's offer and the
/// shutdown.
#[test]
fn t5_loom_worker_exit_vs_execute_vs_shutdown() {
    loom::model(|| {
        let (pool, counts) = pool(
            ThreadPool::builder()
                .core_pool_size(0)
                .maximum_pool_size(1)
                .keep_alive(Duration::ZERO),
        );
        let client = submit(&pool, &counts);
        pool.shutdown();
        let taken = client.join().unwrap();
        let ran = assert_terminated_once(pool, &counts);
        assert_eq!(taken, ran, "taken means run");
    });
}

/// `shutdown_now` against `execute`: a task taken either ran (a first
/// task runs even in STOP) or came back from `shutdown_now`, never both.
#[test]
fn t8_loom_execute_vs_shutdown_now() {
    loom::model(|| {
        let (pool, counts) = pool(ThreadPool::builder());
        assert!(pool.prestart_core_thread());
        let client = submit(&pool, &counts);
        let returned = pool.shutdown_now();
        let taken = client.join().unwrap();
        let ran = assert_terminated_once(pool, &counts);
        assert_eq!(
            taken,
            ran || !returned.is_empty(),
            "taken means run or returned"
        );
        assert!(!ran || returned.is_empty(), "run and returned");
    });
}
