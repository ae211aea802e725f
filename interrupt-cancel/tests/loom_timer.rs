//! loom models of the finished Timer (timer.rs): `schedule` against the
//! thread's wait, a handle's `cancel` against the thread's run, and a
//! handle's `interrupt` against the thread's clear-after-run.
//!
//! Under loom the clock is frozen: a task due in an hour never comes due,
//! so the thread waits for it until notified, and a lost notify shows as a
//! deadlock.
//!
//! ```text
//! cargo xtask loom interrupt-cancel loom_timer
//! ```
//!
//! runs its models, which must pass, as the book shows it: the same as
//! `LOOM_LOCATION=1 RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test
//! -p interrupt-cancel --release --target-dir target/loom --test loom_timer -- --include-ignored`,
//! cut to the lines that matter (`--full` prints all of it).
#![cfg(loom)]

mod loom_support;

use std::time::Duration;

use interrupt_cancel::interrupt;
use interrupt_cancel::timer::{TaskState, Timer};
use loom::sync::atomic::{AtomicBool, Ordering::SeqCst};
use loom::sync::{Arc, Mutex};
use loom_support::Latch;

const HOUR: Duration = Duration::from_secs(3600);

/// A far task, then a task due now, from a client thread while the timer
/// thread waits for the far one (or has not looked yet): the due task
/// runs, and the drop's cancel then ends the thread.
#[test]
fn i7_loom_schedule_never_loses_a_wakeup() {
    loom::model(|| {
        let timer = Timer::new("loom-wake").unwrap();
        timer.schedule(HOUR, || {}).unwrap();
        let ran = Latch::new();
        let signal = ran.clone();
        let timer = Arc::new(timer);
        let client = {
            let timer = Arc::clone(&timer);
            loom::thread::spawn(move || {
                timer
                    .schedule(Duration::ZERO, move || signal.open())
                    .unwrap();
            })
        };
        ran.wait();
        client.join().unwrap();
    });
}

/// A handle's cancel races the thread taking the task to run: exactly one
/// wins. `cancel` says true exactly when the task did not run.
#[test]
fn i7_loom_cancel_or_run_never_both() {
    loom::model(|| {
        let timer = Timer::new("loom-cancel").unwrap();
        let ran = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&ran);
        let task = timer
            .schedule(Duration::ZERO, move || flag.store(true, SeqCst))
            .unwrap();
        let prevented = task.cancel();
        drop(timer); // joins: the run, if any, is over
        assert_eq!(prevented, !ran.load(SeqCst));
        let expected = if prevented {
            TaskState::Cancelled
        } else {
            TaskState::Executed
        };
        assert_eq!(task.state(), expected);
    });
}

/// A handle interrupts task A while the thread may be running it, clearing
/// after it, or already on task B: B never sees A's interrupt.
#[test]
fn i3_loom_an_interrupt_never_leaks_into_the_next_task() {
    loom::model(|| {
        let timer = Timer::new("loom-leak").unwrap();
        let a = timer.schedule(Duration::ZERO, || {}).unwrap();
        let seen = Arc::new(Mutex::new(None));
        let ran = Latch::new();
        let (b_seen, b_ran) = (Arc::clone(&seen), ran.clone());
        timer
            .schedule(Duration::ZERO, move || {
                *b_seen.lock().unwrap() = Some(interrupt::is_interrupted());
                b_ran.open();
            })
            .unwrap();
        let interrupter = loom::thread::spawn(move || {
            a.interrupt();
        });
        ran.wait();
        interrupter.join().unwrap();
        assert_eq!(*seen.lock().unwrap(), Some(false));
        drop(timer);
    });
}
