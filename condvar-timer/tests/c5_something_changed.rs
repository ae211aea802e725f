//! C5 something_changed: the C++ TimerQueue post's queue. The C1 scenario (the
//! thread has computed a long wait and a client adds an earlier task before
//! the thread waits) runs the new task on time, because the semaphore keeps
//! the notify as a permit. Then the queue's promises, one test each.
#![cfg(not(loom))]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use condvar_timer::error::ScheduleError;
use condvar_timer::something_changed::TimerQueue;
use kit::Recorder;
use kit::pause::Pause;
use kit::threads::{assert_gone, unique_name};

const COMPUTED_THE_WAIT: &str =
    "condvar-timer::something_changed: computed the wait, not yet waiting";
const ABOUT_TO_RUN: &str = "condvar-timer::something_changed: about to run a handler";

/// A handler that records "<label> aborted=<aborted>".
fn handler(rec: &Recorder, label: &'static str) -> impl FnOnce(bool) + Send + 'static {
    let rec = rec.clone();
    move |aborted| {
        rec.record(format!("{label} aborted={aborted}"));
    }
}

fn far() -> Duration {
    kit::ms(2000)
}

fn near() -> Duration {
    kit::ms(50)
}

#[test]
fn c5_something_changed_c1_scenario_on_time() {
    let name = unique_name("c5");
    let rec = Recorder::new();
    // First drive the thread to a known place: the start of a handler. From
    // there, its next step is to compute the wait with whatever is queued.
    let handler_start = Pause::arm(ABOUT_TO_RUN, &name);
    let queue = TimerQueue::new(&name).unwrap();
    queue.add(Duration::ZERO, |_| {}).unwrap();
    handler_start.wait_reached();
    queue.add(far(), handler(&rec, "far")).unwrap();
    let window = Pause::arm(COMPUTED_THE_WAIT, &name);
    handler_start.release();
    // The thread has computed a wait of 2000 ms for the far task and is not
    // yet waiting: C1's window. A client adds a near task now.
    window.wait_reached();
    let added = rec.record("near added");
    queue.add(near(), handler(&rec, "near")).unwrap();
    window.release();

    let ran = rec
        .eventually("near aborted=false", kit::ms(5000))
        .expect("the near task never ran");
    let (due, ran) = (near(), ran - added);
    assert!(
        ran >= due,
        "the near task ran early: at {ran:?}, due at {due:?}"
    );
    assert!(
        ran < kit::ms(1000),
        "C5 something_changed: task due at {} ms, ran at {} ms",
        due.as_millis(),
        ran.as_millis()
    );
    assert_eq!(queue.shutdown(), Some(0));
    assert_eq!(rec.count("far aborted=true"), 1, "{}", rec.log());
    assert_gone(&name);
}

#[test]
fn c5_something_changed_handlers_run_on_the_timer_thread() {
    let name = unique_name("c5");
    let rec = Recorder::new();
    let queue = TimerQueue::new(&name).unwrap();
    queue.add(Duration::ZERO, handler(&rec, "due")).unwrap();
    let cancelled = queue.add(far(), handler(&rec, "cancelled")).unwrap();
    queue.add(far(), handler(&rec, "dropped")).unwrap();
    assert!(queue.cancel(cancelled));
    rec.eventually("due aborted=false", kit::ms(5000)).unwrap();
    rec.eventually("cancelled aborted=true", kit::ms(5000))
        .unwrap();
    drop(queue);
    let events = rec.events();
    assert_eq!(events.len(), 3, "{}", rec.log());
    for event in events {
        assert_eq!(
            event.who, name,
            "a handler ran off the timer thread: {event}"
        );
    }
}

#[test]
fn c5_something_changed_every_handler_runs_exactly_once() {
    let name = unique_name("c5");
    let rec = Recorder::new();
    let queue = TimerQueue::new(&name).unwrap();
    let labels = ["t0", "t1", "t2", "t3", "t4"];
    for (i, label) in (0..).zip(labels) {
        queue.add(kit::ms(10 * i), handler(&rec, label)).unwrap();
    }
    let cancelled = queue.add(far(), handler(&rec, "cancelled")).unwrap();
    assert!(queue.cancel(cancelled));
    assert!(!queue.cancel(cancelled), "a timer was cancelled twice");
    for label in labels {
        rec.eventually(&format!("{label} aborted=false"), kit::ms(5000))
            .unwrap_or_else(|| panic!("{label} never ran:\n{}", rec.log()));
    }
    assert_eq!(queue.shutdown(), Some(0));
    for label in labels {
        assert_eq!(
            rec.count(&format!("{label} aborted=false")),
            1,
            "{}",
            rec.log()
        );
    }
    assert_eq!(rec.count("cancelled aborted=true"), 1, "{}", rec.log());
    assert_eq!(rec.events().len(), labels.len() + 1, "{}", rec.log());
}

#[test]
fn c5_something_changed_cancel_runs_the_handler_aborted_at_once() {
    let name = unique_name("c5");
    let rec = Recorder::new();
    let queue = TimerQueue::new(&name).unwrap();
    let id = queue.add(far(), handler(&rec, "far")).unwrap();
    let cancelled_at = rec.record("cancel");
    assert!(queue.cancel(id));
    let ran = rec
        .eventually("far aborted=true", kit::ms(5000))
        .expect("the cancelled handler never ran");
    // Due now, not at its old deadline.
    assert!(ran - cancelled_at < kit::ms(1000), "{}", rec.log());
    assert_eq!(queue.shutdown(), Some(0));
}

#[test]
fn c5_something_changed_cancel_all_returns_the_count() {
    let name = unique_name("c5");
    let rec = Recorder::new();
    let queue = TimerQueue::new(&name).unwrap();
    let first = queue.add(far(), handler(&rec, "a")).unwrap();
    queue.add(far(), handler(&rec, "b")).unwrap();
    queue.add(far(), handler(&rec, "c")).unwrap();
    assert!(queue.cancel(first));
    // "a" was cancelled already: two left to cancel.
    assert_eq!(queue.cancel_all(), 2);
    assert_eq!(queue.cancel_all(), 0);
    for label in ["a", "b", "c"] {
        rec.eventually(&format!("{label} aborted=true"), kit::ms(5000))
            .unwrap_or_else(|| panic!("{label} never ran aborted:\n{}", rec.log()));
    }
    assert_eq!(queue.shutdown(), Some(0));
    assert_eq!(rec.events().len(), 3, "{}", rec.log());
}

#[test]
fn c5_something_changed_drop_cancels_pending_and_joins() {
    let name = unique_name("c5");
    let rec = Recorder::new();
    let queue = TimerQueue::new(&name).unwrap();
    queue.add(far(), handler(&rec, "a")).unwrap();
    queue.add(kit::ms(3000), handler(&rec, "b")).unwrap();
    let dropped = rec.record("drop");
    drop(queue);
    // Drop joined the thread, so the aborted handlers have already run.
    assert_eq!(rec.count("a aborted=true"), 1, "{}", rec.log());
    assert_eq!(rec.count("b aborted=true"), 1, "{}", rec.log());
    assert!(rec.elapsed() - dropped < kit::ms(1000), "{}", rec.log());
    assert_gone(&name);
}

#[test]
fn c5_something_changed_a_handler_may_call_back_into_the_queue() {
    // Handlers never run under the queue's lock: one that adds a timer
    // would otherwise deadlock.
    let name = unique_name("c5");
    let rec = Recorder::new();
    let queue = Arc::new(TimerQueue::new(&name).unwrap());
    let weak = Arc::downgrade(&queue);
    let inner = handler(&rec, "inner");
    queue
        .add(Duration::ZERO, move |_| {
            let queue = weak.upgrade().expect("the queue is alive");
            queue.add(Duration::ZERO, inner).unwrap();
        })
        .unwrap();
    rec.eventually("inner aborted=false", kit::ms(5000))
        .expect("the handler added from a handler never ran");
    let queue = Arc::into_inner(queue).expect("one owner left");
    assert_eq!(queue.shutdown(), Some(0));
}

#[test]
fn c5_something_changed_dropped_inside_a_handler_does_not_join_itself() {
    let name = unique_name("c5");
    let rec = Recorder::new();
    let queue = TimerQueue::new(&name).unwrap();
    queue.add(far(), handler(&rec, "pending")).unwrap();
    // The handler will own the queue: it takes it out of this slot.
    let slot = Arc::new(Mutex::new(Some(queue)));
    let (inner, rec2) = (Arc::clone(&slot), rec.clone());
    // Added through the slot's lock, so the handler cannot take the queue
    // before `add` has returned.
    let guard = slot.lock().unwrap();
    guard
        .as_ref()
        .unwrap()
        .add(Duration::ZERO, move |_| {
            let queue = inner
                .lock()
                .unwrap()
                .take()
                .expect("the queue is in the slot");
            // The last owner is this handler, on the timer thread itself.
            let left = queue.shutdown();
            rec2.record(format!("shutdown from a handler: {left:?}"));
        })
        .unwrap();
    drop(guard);
    rec.eventually("shutdown from a handler: None", kit::ms(5000))
        .expect("the handler did not shut the queue down");
    rec.eventually("pending aborted=true", kit::ms(5000))
        .expect("the pending handler was not cancelled");
    assert_gone(&name);
}

#[test]
fn c5_something_changed_overflowing_delay_is_an_error() {
    let queue = TimerQueue::new(&unique_name("c5")).unwrap();
    assert_eq!(
        queue.add(Duration::MAX, |_| {}),
        Err(ScheduleError::DelayOverflow(Duration::MAX))
    );
    assert_eq!(queue.shutdown(), Some(0));
}

#[test]
fn c5_something_changed_a_nul_in_the_name_is_an_error() {
    assert!(TimerQueue::new("c5\0bad").is_err());
}
