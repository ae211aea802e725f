//! I3 `interrupt_is_a_request`: interrupting a running task only asks it to
//! stop. A task that checks its thread's interrupt (`interrupt::check`, or
//! an interruptible sleep) stops early; a task that never checks runs to
//! its end, whatever `TaskHandle::interrupt` says.
//!
//! And the hygiene rule (JDK-6576792): an interrupt meant for one task must
//! never reach the next task on the same thread. The timer thread clears
//! its interrupt after every task, under the lock `TaskHandle::interrupt`
//! checks "is my task the one running?" with. The two pause points on
//! either side of that clear show both orders: an interrupt that lands
//! before it is cleared with its task; one that comes after finds its task
//! no longer running and does nothing.
#![cfg(not(loom))]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::time::Duration;

use interrupt_cancel::interrupt;
use interrupt_cancel::timer::{TaskHandle, Timer};
use kit::pause::Pause;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

/// How long a task that never checks is seen to run on after its
/// interrupt, before the test lets it end.
const STUBBORN_MS: u64 = 50;
/// How soon a checking task must stop once interrupted.
const STOP_BOUND_MS: u64 = 500;
/// How long a checking task would run if nobody stopped it.
const LONG_MS: u64 = 10_000;

const BEFORE_CLEAR: &str = "interrupt-cancel::timer: ran a task, not yet cleared the interrupt";
const AFTER_CLEAR: &str =
    "interrupt-cancel::timer: cleared the interrupt, not yet looked at the queue";

/// Schedules `task` at once and waits until it has started.
fn started(timer: &Timer, rec: &Recorder, task: impl FnOnce() + Send + 'static) -> TaskHandle {
    let r = rec.clone();
    let handle = timer
        .schedule(Duration::ZERO, move || {
            r.record("task started");
            task();
        })
        .unwrap();
    rec.eventually("task started", ms(5000))
        .expect("the task started");
    handle
}

#[test]
fn i3_interrupt_is_a_request_a_task_that_checks_stops() {
    let name = threads::unique_name("i3-check");
    let timer = Timer::new(&name).unwrap();
    let rec = Recorder::new();
    let r = rec.clone();
    let handle = started(&timer, &rec, move || {
        // Works in small steps, and asks between them.
        let give_up = std::time::Instant::now() + ms(LONG_MS);
        while std::time::Instant::now() < give_up {
            if interrupt::check().is_err() {
                r.record("task stopped early");
                return;
            }
            std::hint::black_box((0..1000).sum::<u64>());
        }
        r.record("task ran to its end");
    });
    let asked = rec.record_as("test", "interrupt the task");
    assert!(handle.interrupt(), "the task was running");
    let stopped = rec
        .eventually("task stopped early", ms(STOP_BOUND_MS))
        .unwrap_or_else(|| panic!("the checking task did not stop\n{}", rec.log()));
    assert!(stopped >= asked);
    drop(timer);
    threads::assert_gone(&name);
}

#[test]
fn i3_interrupt_is_a_request_an_interruptible_sleep_ends() {
    let name = threads::unique_name("i3-sleep");
    let timer = Timer::new(&name).unwrap();
    let rec = Recorder::new();
    let r = rec.clone();
    let handle = started(&timer, &rec, move || {
        let token = interrupt::current().expect("a timer thread has a token");
        match token.sleep(ms(LONG_MS)) {
            Ok(()) => r.record("task slept its fill"),
            Err(interrupt::Interrupted) => r.record("task woke: interrupted"),
        };
    });
    assert!(handle.interrupt());
    rec.eventually("task woke: interrupted", ms(STOP_BOUND_MS))
        .unwrap_or_else(|| panic!("the sleep was not interrupted\n{}", rec.log()));
    drop(timer);
    threads::assert_gone(&name);
}

#[test]
fn i3_interrupt_is_a_request_a_task_that_never_checks_runs_to_its_end() {
    let name = threads::unique_name("i3-stub");
    let timer = Timer::new(&name).unwrap();
    let rec = Recorder::new();
    let r = rec.clone();
    let go = Arc::new(AtomicBool::new(false));
    let may_end = Arc::clone(&go);
    let handle = started(&timer, &rec, move || {
        // std's sleep, deaf to our interrupt: the task runs until the test
        // lets it end, so the interrupt surely finds it running.
        while !may_end.load(SeqCst) {
            std::thread::sleep(ms(1));
        }
        r.record(format!(
            "task ended, interrupted = {}",
            interrupt::is_interrupted()
        ));
    });
    assert!(handle.interrupt(), "the task was running");
    // Interrupted, it runs on: a task that checks would stop within
    // milliseconds (the tests above).
    let interrupted = rec.record("interrupted");
    if let Err(ended) = rec.still_absent(
        "task ended, interrupted = true",
        interrupted + ms(STUBBORN_MS),
    ) {
        panic!(
            "the task ended at {} ms, interrupted at {} ms\n{}",
            in_ms(ended.at),
            in_ms(interrupted),
            rec.log()
        );
    }
    let let_go = rec.record("let the task end");
    go.store(true, SeqCst);
    let ended = rec
        .eventually("task ended, interrupted = true", ms(5000))
        .unwrap_or_else(|| panic!("no end, or the interrupt was lost\n{}", rec.log()));
    assert!(
        ended >= let_go,
        "the task ended at {} ms, before it was let go at {} ms",
        in_ms(ended),
        in_ms(let_go)
    );
    drop(timer);
    threads::assert_gone(&name);
}

/// Task A has returned and the thread is held at `point`; the test
/// interrupts A; then task B, next on the same thread, reports what it
/// sees. Returns what `interrupt` said and what B saw.
fn interrupt_a_at(point: &'static str) -> (bool, Recorder) {
    let name = threads::unique_name("i3-hyg");
    let rec = Recorder::new();
    let pause = Pause::arm(point, &name);
    let timer = Timer::new(&name).unwrap();
    let r = rec.clone();
    let a = timer
        .schedule(Duration::ZERO, move || {
            r.record("task A ran");
        })
        .unwrap();
    let r = rec.clone();
    timer
        .schedule(Duration::ZERO, move || {
            r.record(format!(
                "task B ran, interrupted = {}",
                interrupt::is_interrupted()
            ));
        })
        .unwrap();
    pause.wait_reached();
    let delivered = a.interrupt();
    rec.record_as("test", format!("interrupt A: {delivered}"));
    pause.release();
    rec.eventually("task B ran, interrupted = false", ms(5000))
        .unwrap_or_else(|| {
            panic!(
                "task B saw the interrupt meant for task A (or did not run)\n{}",
                rec.log()
            )
        });
    drop(timer);
    threads::assert_gone(&name);
    (delivered, rec)
}

#[test]
fn i3_interrupt_is_a_request_does_not_leak_into_the_next_task() {
    // A has returned, its interrupt not cleared yet: A still counts as
    // running, so the interrupt is raised, and cleared with A.
    let (delivered, rec) = interrupt_a_at(BEFORE_CLEAR);
    assert!(delivered, "A was still the running task\n{}", rec.log());
    // Cleared already: A is not running, the interrupt goes nowhere.
    let (delivered, rec) = interrupt_a_at(AFTER_CLEAR);
    assert!(!delivered, "A had finished\n{}", rec.log());
}
