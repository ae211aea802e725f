//! I7 `timer_api`: the whole java.util.Timer API on the finished Timer
//! (timer.rs): one-shot tasks after a delay or at an instant, fixed delay,
//! fixed rate, per-task cancel with `TimerTask.cancel`'s answer, `cancel`,
//! `purge`, a named thread; and nothing accepted is lost: every task runs,
//! or its handle says it was cancelled.
#![cfg(not(loom))]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use interrupt_cancel::error::ScheduleError;
use interrupt_cancel::timer::{TaskState, Timer};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

const DELAY_MS: u64 = 50;
/// How late a task may run on a free timer: near a second, the middle of
/// the gap between a run on time (milliseconds) and a task never run, so
/// that a loaded machine that wakes the thread late fails nothing.
const MARGIN_MS: u64 = 1000;
const FAR_MS: u64 = 3_600_000;

#[test]
fn i7_timer_api_one_shot_after_a_delay_and_at_an_instant() {
    let name = threads::unique_name("i7-once");
    let timer = Timer::new(&name).unwrap();
    let rec = Recorder::new();
    let (r1, r2) = (rec.clone(), rec.clone());
    let at = rec.start() + ms(2 * DELAY_MS);
    let a = timer
        .schedule(ms(DELAY_MS), move || {
            r1.record("after a delay");
        })
        .unwrap();
    let b = timer
        .schedule_at(at, move || {
            r2.record("at an instant");
        })
        .unwrap();
    let ran = rec
        .eventually("at an instant", ms(2 * DELAY_MS + MARGIN_MS))
        .unwrap_or_else(|| panic!("late or never\n{}", rec.log()));
    let delayed = rec.at("after a delay").expect("ran before it");
    // Not before: exact lower bounds (the recorder started before both
    // calls, so each deadline is at least this far from its start).
    assert!(delayed >= ms(DELAY_MS), "ran at {} ms", in_ms(delayed));
    assert!(ran >= ms(2 * DELAY_MS), "ran at {} ms", in_ms(ran));
    assert_eq!(
        (a.state(), b.state()),
        (TaskState::Executed, TaskState::Executed)
    );
    assert!(!a.cancel(), "a task that ran cannot be cancelled");
    drop(timer);
    threads::assert_gone(&name);
}

#[test]
fn i7_timer_api_the_thread_has_the_timers_name() {
    let name = threads::unique_name("i7-name");
    let timer = Timer::new(&name).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    timer
        .schedule(Duration::ZERO, move || {
            tx.send(std::thread::current().name().map(str::to_owned))
                .unwrap();
        })
        .unwrap();
    assert_eq!(rx.recv().unwrap().as_deref(), Some(name.as_str()));
    assert_eq!(threads::tids_named(&name).unwrap().len(), 1);
    drop(timer);
    threads::assert_gone(&name);
}

#[test]
fn i7_timer_api_repeating_tasks_and_their_cancel() {
    let name = threads::unique_name("i7-rep");
    let timer = Timer::new(&name).unwrap();
    let rec = Recorder::new();
    let (r1, r2) = (rec.clone(), rec.clone());
    let delay = timer
        .schedule_with_fixed_delay(ms(5), ms(5), move || {
            r1.record("fixed delay");
        })
        .unwrap();
    let rate = timer
        .schedule_at_fixed_rate(ms(5), ms(5), move || {
            r2.record("fixed rate");
        })
        .unwrap();
    for what in ["fixed delay", "fixed rate"] {
        rec.wait_until_count(what, 3, ms(5000))
            .unwrap_or_else(|| panic!("{what} did not repeat\n{}", rec.log()));
    }
    // A repeating task that would run again: cancel prevents that.
    assert!(delay.cancel());
    assert!(rate.cancel());
    assert!(!rate.cancel(), "cancelled already");
    assert_eq!(rate.state(), TaskState::Cancelled);
    let counts = (rec.count("fixed delay"), rec.count("fixed rate"));
    // A marker due after both tasks' next deadlines: by the time it runs,
    // the thread has met both (cancelled) entries and dropped them.
    let r = rec.clone();
    timer
        .schedule(ms(20), move || {
            r.record("marker");
        })
        .unwrap();
    rec.eventually("marker", ms(5000)).expect("the marker ran");
    assert_eq!(timer.queued(), 0, "the cancelled entries are gone");
    // No run after a cancel (one may have been under way when it came).
    let after = (rec.count("fixed delay"), rec.count("fixed rate"));
    assert!(
        after.0 <= counts.0 + 1 && after.1 <= counts.1 + 1,
        "{counts:?} then {after:?}"
    );
    drop(timer);
    threads::assert_gone(&name);
}

#[test]
fn i7_timer_api_cancel_before_the_run() {
    let name = threads::unique_name("i7-tcan");
    let timer = Timer::new(&name).unwrap();
    let rec = Recorder::new();
    let r = rec.clone();
    let task = timer
        .schedule(ms(DELAY_MS), move || {
            r.record("ran");
        })
        .unwrap();
    assert!(task.cancel(), "prevented its run");
    assert!(!task.cancel());
    // The thread takes the cancelled task off its queue when it finds it at
    // the head, and then, asleep on an empty queue, is done with it: it did
    // not run, and nothing is left that could run it.
    assert!(
        kit::eventually(ms(DELAY_MS + 5000), || timer.queued() == 0),
        "the cancelled task is still queued"
    );
    assert!(threads::asleep_within(&[&name], ms(5000)));
    assert_eq!(rec.count("ran"), 0, "a cancelled task ran\n{}", rec.log());
    assert_eq!(task.state(), TaskState::Cancelled);
    assert_eq!(timer.purge(), 0, "the thread dropped it already");
}

#[test]
fn i7_timer_api_cancel_the_timer() {
    let name = threads::unique_name("i7-cancel");
    let timer = Arc::new(Timer::new(&name).unwrap());
    let rec = Recorder::new();
    let r = rec.clone();
    let running = timer
        .schedule(Duration::ZERO, move || {
            r.record("long task started");
            std::thread::sleep(ms(100));
            r.record("long task ended");
        })
        .unwrap();
    let queued = timer.schedule(ms(FAR_MS), || {}).unwrap();
    rec.eventually("long task started", ms(5000)).unwrap();
    timer.cancel();
    timer.cancel(); // a second call does nothing
    assert!(timer.is_cancelled());
    assert_eq!(
        queued.state(),
        TaskState::Cancelled,
        "discarded, and it says so"
    );
    let refused = timer.schedule(Duration::ZERO, || {}).unwrap_err();
    assert_eq!(refused, ScheduleError::Cancelled);
    assert_eq!(refused.to_string(), "Timer already cancelled.");
    // The running task is not interfered with, and the thread then ends.
    rec.eventually("long task ended", ms(5000))
        .unwrap_or_else(|| panic!("the running task did not finish\n{}", rec.log()));
    assert_eq!(running.state(), TaskState::Executed);
    assert!(
        threads::gone_within(&name, ms(1000)),
        "the thread ends after cancel"
    );
}

#[test]
fn i7_timer_api_purge_counts_what_it_removes() {
    let timer = Timer::new(&threads::unique_name("i7-purge")).unwrap();
    let tasks: Vec<_> = (0..10)
        .map(|_| timer.schedule(ms(FAR_MS), || {}).unwrap())
        .collect();
    for task in tasks.iter().step_by(3) {
        assert!(task.cancel());
    }
    assert_eq!(timer.queued(), 10);
    assert_eq!(timer.purge(), 4);
    assert_eq!(timer.queued(), 6);
    assert_eq!(timer.purge(), 0);
}

#[test]
fn i7_timer_api_nothing_accepted_is_lost() {
    let name = threads::unique_name("i7-lost");
    let timer = Timer::new(&name).unwrap();
    let ran = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let mut handles = Vec::new();
    for i in 0..300u64 {
        let ran = Arc::clone(&ran);
        let at = start + ms(i * 7 % 20) + Duration::from_micros(i);
        handles.push(
            timer
                .schedule_at(at, move || {
                    ran.fetch_add(1, Ordering::SeqCst);
                })
                .unwrap(),
        );
    }
    let cancelled = handles
        .iter()
        .step_by(7)
        .filter(|handle| handle.cancel())
        .count();
    // A marker due after them all: once it ran, every earlier task ran or
    // was dropped.
    let (tx, rx) = std::sync::mpsc::channel();
    timer
        .schedule_at(start + ms(25), move || tx.send(()).unwrap())
        .unwrap();
    rx.recv_timeout(ms(5000)).expect("the marker ran");
    let executed = handles
        .iter()
        .filter(|h| h.state() == TaskState::Executed)
        .count();
    let cancelled_now = handles.iter().filter(|h| h.is_cancelled()).count();
    assert_eq!(cancelled_now, cancelled);
    assert_eq!(executed, ran.load(Ordering::SeqCst));
    assert_eq!(executed + cancelled, handles.len());
    drop(timer);
    threads::assert_gone(&name);
}

#[test]
fn i7_timer_api_tasks_may_use_the_timer() {
    let timer = Arc::new(Timer::new(&threads::unique_name("i7-self")).unwrap());
    let rec = Recorder::new();
    let (t, r) = (Arc::clone(&timer), rec.clone());
    timer
        .schedule(Duration::ZERO, move || {
            let r2 = r.clone();
            t.schedule(Duration::ZERO, move || {
                r2.record("scheduled by a task");
            })
            .unwrap();
            assert_eq!(t.purge(), 0);
            r.record("first task done");
        })
        .unwrap();
    rec.eventually("scheduled by a task", ms(5000))
        .unwrap_or_else(|| panic!("{}", rec.log()));
}
