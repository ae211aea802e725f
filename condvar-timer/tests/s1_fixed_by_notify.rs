//! S1 `missed_earlier_task`, fixed by wait/notify: the thread is waiting
//! toward a task due at 1000 ms when a task due at 50 ms comes in. The
//! sleep-based timer could not see it until 1000 ms; here the insert
//! notifies the waiting thread, which recomputes its wait.
#![cfg(not(loom))]

use condvar_timer::timer_style::Timer;
use kit::pause::Pause;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

const WAITING: &str = "condvar-timer::timer_style: peeked the head, not yet waiting";

#[test]
fn s1_missed_earlier_task_fixed() {
    let name = threads::unique_name("s1-tstyle");
    let timer = Timer::new(&name).unwrap();
    let rec = Recorder::new();

    // Make sure the thread is waiting toward task 1 before task 2 comes:
    // hold it just before its wait, under the lock, then let it go. Our
    // `schedule` below needs that lock, so it lands after the wait began.
    let pause = Pause::arm(WAITING, &name);
    rec.record_as("test", "schedule task 1, due in 1000 ms");
    let r = rec.clone();
    timer
        .schedule(ms(1000), move || {
            r.record("task 1 ran");
        })
        .unwrap();
    pause.wait_reached();
    pause.release();

    let task2_due = rec.record_as("test", "schedule task 2, due in 50 ms") + ms(50);
    let r = rec.clone();
    timer
        .schedule(ms(50), move || {
            r.record("task 2 ran");
        })
        .unwrap();

    let ran = rec
        .eventually("task 2 ran", ms(5000))
        .expect("task 2 never ran");
    assert!(
        ran >= task2_due && ran <= task2_due + ms(300),
        "S1 missed_earlier_task: task 2 due at {} ms, ran at {} ms (task 1 due at 1000 ms)\n{}",
        in_ms(task2_due),
        in_ms(ran),
        rec.log()
    );
    assert_eq!(rec.count("task 1 ran"), 0, "task 1 is not due yet");
    drop(timer);
    threads::assert_gone(&name);
}
