//! loom finds T7 `execute_shutdown_race` in no_recheck.rs on its own: the
//! model of tests/loom_ctl.rs (`t7_loom_queued_vs_shutdown`), run on the
//! pool without the look after queuing. In some interleaving `shutdown`
//! ends the pool between `execute`'s look at the state and its offer:
//! `execute` says the task was taken, and it never runs.
//!
//! Alone in its binary, as every failing model is: `cargo xtask loom`
//! expects it to fail.
//!
//! ```text
//! cargo xtask loom threadpool-executor loom_no_recheck
//! ```
//!
//! runs its buggy model, which must fail, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p threadpool-executor --release --target-dir target/loom --test loom_no_recheck -- --ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

use std::time::Duration;

use loom::sync::Arc;
use loom::sync::atomic::{AtomicBool, Ordering::SeqCst};
use threadpool_executor::ThreadPool;
use threadpool_executor::pool::Variant;

#[test]
#[ignore = "T7 execute_shutdown_race: loom finds it in no_recheck.rs"]
fn t7_loom_queued_vs_shutdown_on_no_recheck() {
    loom::model(|| {
        let pool = Arc::new(
            ThreadPool::builder()
                .variant(Variant::NoRecheck)
                .build()
                .unwrap(),
        );
        assert!(pool.prestart_core_thread());
        let ran = Arc::new(AtomicBool::new(false));
        let client = {
            let (pool, ran) = (Arc::clone(&pool), Arc::clone(&ran));
            loom::thread::spawn(move || pool.execute(move || ran.store(true, SeqCst)).is_ok())
        };
        pool.shutdown();
        let taken = client.join().unwrap();
        assert!(pool.await_termination(Duration::from_secs(3600)));
        // The drop joins every worker: whatever will run has run.
        drop(Arc::try_unwrap(pool).ok().expect("the client let go"));
        assert!(
            !taken || ran.load(SeqCst),
            "T7 execute_shutdown_race: execute returned Ok, the pool terminated, and the task never ran"
        );
    });
}
