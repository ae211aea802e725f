//! C4 `timer_style`: java.util.Timer's way. One lock guards the queue and
//! the wait; a client notifies only when its task became the head; tasks
//! run in deadline order, outside the lock.
#![cfg(not(loom))]

use std::sync::Arc;

use condvar_timer::timer_style::{Stats, Timer};
use kit::pause::Pause;
use kit::{Recorder, ms, threads};

const WAITING: &str = "condvar-timer::timer_style: peeked the head, not yet waiting";

#[test]
fn c4_timer_style_notifies_only_for_a_new_head() {
    let name = threads::unique_name("c4-notify");
    let timer = Timer::new(&name).unwrap();
    let rec = Recorder::new();

    // The thread waits toward A (due at 2000 ms): held just before its
    // wait, then released; our next schedule needs the lock it holds until
    // it waits.
    let pause = Pause::arm(WAITING, &name);
    timer.schedule(ms(2000), || {}).unwrap();
    pause.wait_reached();
    pause.release();

    // B is due after A: not the head, no notify, the thread sleeps on.
    timer.schedule(ms(3000), || {}).unwrap();
    assert_eq!(timer.stats().notifies, 1, "only A's schedule notified");

    // C is due first: one notify. The thread wakes (1), finds C not due
    // yet, waits for it, times out (2) and runs it. Had B woken the thread,
    // we would count 3.
    let r = rec.clone();
    timer
        .schedule(ms(50), move || {
            r.record("C ran");
        })
        .unwrap();
    rec.eventually("C ran", ms(5000)).expect("C never ran");
    assert_eq!(
        timer.stats(),
        Stats {
            pushes: 3,
            pops: 1,
            notifies: 2,
            wakeups: 2
        },
        "C4: scheduling a later task must not wake the thread\n{}",
        rec.log()
    );
    drop(timer);
    threads::assert_gone(&name);
}

#[test]
fn c4_timer_style_runs_tasks_in_deadline_order() {
    let name = threads::unique_name("c4-order");
    let timer = Timer::new(&name).unwrap();
    let rec = Recorder::new();
    // Scheduled out of order, 30 ms apart: a client would need to stall
    // 30 ms between two calls to change the deadlines' order.
    for (task, delay) in [("d", 120), ("a", 30), ("c", 90), ("b", 60)] {
        let r = rec.clone();
        timer
            .schedule(ms(delay), move || {
                r.record(format!("{task} ran"));
            })
            .unwrap();
    }
    for task in ["a", "b", "c", "d"] {
        rec.eventually(&format!("{task} ran"), ms(5000))
            .unwrap_or_else(|| panic!("{task} never ran\n{}", rec.log()));
    }
    let order: Vec<String> = rec.events().into_iter().map(|e| e.what).collect();
    assert_eq!(
        order,
        ["a ran", "b ran", "c ran", "d ran"],
        "\n{}",
        rec.log()
    );
    drop(timer);
    threads::assert_gone(&name);
}

#[test]
fn c4_timer_style_runs_tasks_outside_the_lock() {
    let name = threads::unique_name("c4-outside");
    let timer = Arc::new(Timer::new(&name).unwrap());
    let rec = Recorder::new();
    // A task that schedules another task takes the timer's lock from the
    // timer thread. Were tasks run under the lock, that thread would lock a
    // mutex it already holds, which std's `Mutex::lock` says might panic or
    // deadlock: either way this test would fail.
    let (inner_timer, r) = (Arc::clone(&timer), rec.clone());
    timer
        .schedule(ms(0), move || {
            r.record("outer ran");
            let r2 = r.clone();
            inner_timer
                .schedule(ms(0), move || {
                    r2.record("inner ran");
                })
                .unwrap();
        })
        .unwrap();
    rec.eventually("inner ran", ms(5000))
        .unwrap_or_else(|| panic!("the inner task never ran\n{}", rec.log()));
    // The outer task (and its clone of the timer) is gone by now, so this
    // drop is the last one: it runs here and joins the thread.
    drop(timer);
    threads::assert_gone(&name);
}
