//! I4 `delayed_tasks`: a timer has one thread, so a long task delays every
//! task due while it runs.
//!
//! The Java Timer article's example, one article second to 5 ms (as in
//! stage 6's fixed test, which runs the same check): task 1 is due at 10 s
//! and runs for 70 s; task 2 is due at 30 s. On one thread, task 2 starts
//! when task 1 ends, at 80 s: here 150 ms due, about 400 ms started. The
//! finished Timer (timer.rs) shows it as java.util.Timer does; stage 6's
//! pool runs task 2 on another thread, on time (its `_fixed` test lives
//! there).
//!
//! The correctness check: task 2 starts while task 1 still runs. Exact on
//! one thread, which cannot start task 2 before task 1 ends, whatever the
//! load; a pool with a free worker has the 250 ms task 1 runs past task
//! 2's due time. (It was "within 100 ms of its due time", a bound on the
//! clock that a loaded machine broke for the pool.)
//!
//! Task 1 occupies the thread with `std::thread::sleep`: the thread is
//! busy with a task either way, burning a core or not. The reproducing test
//! does not wait out its 70 s: task 1 runs until 10 s past task 2's due
//! time, when the test lets it end; task 2 has waited by then, and starts
//! no sooner (exact, on one thread).
#![cfg(not(loom))]

use std::time::Duration;

use interrupt_cancel::timer::Timer;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

/// One article second.
const SECOND_MS: u64 = 5;
const TASK1_DUE_MS: u64 = 10 * SECOND_MS;
const TASK1_RUNS_MS: u64 = 70 * SECOND_MS;
const TASK2_DUE_MS: u64 = 30 * SECOND_MS;

/// How long task 1 keeps the thread.
#[derive(Clone, Copy)]
enum Task1 {
    /// The article's 70 s: what the red check and its message show.
    Runs,
    /// Until the test lets it end, once task 2 has been due for
    /// `PAST_DUE_MS`: long enough to show task 2 waiting for it, no longer.
    UntilLetGo,
}

/// How long past task 2's deadline the reproducing test keeps task 1
/// running.
const PAST_DUE_MS: u64 = 10 * SECOND_MS;

struct Run {
    rec: Recorder,
    task2_due: Duration,
    task2_started: Duration,
    task1_started: Duration,
    task1_ended: Duration,
}

fn two_tasks(task1: Task1) -> Run {
    let name = threads::unique_name("i4");
    let timer = Timer::new(&name).unwrap();
    let rec = Recorder::new();
    let r = rec.clone();
    let (let_go, until_let_go) = std::sync::mpsc::channel::<()>();
    timer
        .schedule(ms(TASK1_DUE_MS), move || {
            r.record("task 1 started");
            match task1 {
                Task1::Runs => std::thread::sleep(ms(TASK1_RUNS_MS)),
                Task1::UntilLetGo => {
                    let _ = until_let_go.recv();
                }
            }
            r.record("task 1 ended");
        })
        .unwrap();
    let r = rec.clone();
    let task2_due = rec.elapsed() + ms(TASK2_DUE_MS);
    timer
        .schedule(ms(TASK2_DUE_MS), move || {
            r.record("task 2 started");
        })
        .unwrap();
    if let Task1::UntilLetGo = task1 {
        let until = task2_due + ms(PAST_DUE_MS);
        kit::eventually(ms(5000), || {
            rec.elapsed() >= until && rec.count("task 1 started") > 0
        });
        rec.record_as("test", "let task 1 end");
    }
    drop(let_go);
    let task2_started = rec
        .eventually("task 2 started", ms(TASK1_DUE_MS + TASK1_RUNS_MS + 5000))
        .unwrap_or_else(|| panic!("task 2 never started\n{}", rec.log()));
    drop(timer);
    threads::assert_gone(&name);
    Run {
        task2_due,
        task2_started,
        task1_started: rec.at("task 1 started").expect("task 1 ran"),
        task1_ended: rec.at("task 1 ended").expect("task 1 ended"),
        rec,
    }
}

#[test]
fn i4_delayed_tasks_reproduces() {
    let run = two_tasks(Task1::UntilLetGo);
    // Not before task 1 ended: exact, one thread runs one task at a time.
    assert!(
        run.task2_started >= run.task1_ended,
        "task 2 started at {} ms, while task 1 ran (until {} ms)\n{}",
        in_ms(run.task2_started),
        in_ms(run.task1_ended),
        run.rec.log()
    );
    // Task 1 was still running when task 2 came due: task 2 waited.
    assert!(
        run.task1_ended >= run.task2_due + ms(PAST_DUE_MS),
        "task 1 ended at {} ms, before task 2 had waited (due at {} ms)\n{}",
        in_ms(run.task1_ended),
        in_ms(run.task2_due),
        run.rec.log()
    );
}

#[test]
#[ignore = "I4 delayed_tasks: shows the bug in timer.rs"]
fn i4_delayed_tasks_on_timer() {
    let run = two_tasks(Task1::Runs);
    assert!(
        run.task2_started < run.task1_ended,
        "I4 delayed_tasks: task 2 due at {} ms, started at {} ms; task 1 ran from {} ms to {} ms on the timer's one thread\n{}",
        in_ms(run.task2_due),
        in_ms(run.task2_started),
        in_ms(run.task1_started),
        in_ms(run.task1_ended),
        run.rec.log()
    );
}
