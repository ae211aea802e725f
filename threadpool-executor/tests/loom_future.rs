//! loom models of the future (T11, future.rs): a run racing a
//! `cancel(true)` racing a `get`, and two runs racing each other. In every
//! interleaving exactly one outcome wins (the value, or the
//! cancellation), the getter always returns with the outcome that won,
//! the job runs at most once, and an interrupt from the cancel never lands
//! after `run` returned.
//!
//! ```text
//! cargo xtask loom threadpool-executor loom_future
//! ```
//!
//! runs its models, which must pass, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p threadpool-executor --release --target-dir target/loom --test loom_future -- --include-ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

use loom::sync::Arc;
use loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use threadpool_executor::future::{FutureError, FutureState, FutureTask};
use threadpool_executor::interrupt::InterruptToken;

/// A task whose job counts its runs and returns 7.
fn counted() -> (Arc<FutureTask<u32>>, Arc<AtomicUsize>) {
    let runs = Arc::new(AtomicUsize::new(0));
    let r = Arc::clone(&runs);
    let task = FutureTask::new(move || {
        r.fetch_add(1, SeqCst);
        7
    });
    (Arc::new(task), runs)
}

#[test]
fn t11_loom_run_vs_cancel_vs_get() {
    loom::model(|| {
        let (task, runs) = counted();
        let runner = loom::thread::spawn({
            let task = Arc::clone(&task);
            move || {
                let token = InterruptToken::new();
                token.set_current();
                task.run();
                // Read once run has returned: a later cancel must not
                // interrupt this thread any more.
                (token.clone(), token.is_interrupted())
            }
        });
        let canceller = loom::thread::spawn({
            let task = Arc::clone(&task);
            move || task.cancel(true)
        });
        let got = task.get();
        let (token, interrupted_in_run) = runner.join().unwrap();
        let cancelled = canceller.join().unwrap();

        let runs = runs.load(SeqCst);
        assert!(runs <= 1, "the job ran {runs} times");
        match task.state() {
            FutureState::Normal => {
                assert!(!cancelled, "cancel won nothing");
                assert_eq!(runs, 1);
                assert_eq!(got, Ok(7));
            }
            FutureState::Interrupted => {
                assert!(cancelled);
                assert_eq!(got, Err(FutureError::Cancelled));
            }
            other => panic!("ended in {other:?}"),
        }
        assert_eq!(
            token.is_interrupted(),
            interrupted_in_run,
            "an interrupt landed after run returned"
        );
    });
}

#[test]
fn t11_loom_two_runs_run_once() {
    loom::model(|| {
        let (task, runs) = counted();
        let other = loom::thread::spawn({
            let task = Arc::clone(&task);
            move || task.run()
        });
        task.run();
        assert_eq!(task.get(), Ok(7));
        other.join().unwrap();
        assert_eq!(runs.load(SeqCst), 1);
    });
}
