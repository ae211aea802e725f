//! Wrong: it catches another bug. It holds the thread, but where the plan
//! already counts every task it holds: once it has planned for task 1, due
//! far out, and taken in its inbox. There it schedules task 2, due sooner,
//! and asserts that task 2 runs on time. That is S1 of *A timer that
//! oversleeps*, a thread asleep until a later task: a timer that sleeps
//! until its plan fails it. The scheduler as written does not: the message
//! stays in the inbox, and its wait returns with it.
// verdict: catches-another

use exercises::find::f1::{Pause, TOOK_IN, Timer};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn f1_inbox_timer_caught() {
    let name = threads::unique_name("find-f1");
    let rec = Recorder::new();
    // The first pass, idle: let it go by.
    let first = Pause::arm(TOOK_IN, &name);
    let timer = Timer::new(&name).expect("start the timer");
    first.wait_reached();
    first.release();
    // The pass that has taken task 1 in (and planned for it).
    let pause = Pause::arm(TOOK_IN, &name);
    let r = rec.clone();
    timer
        .schedule(ms(1000), move || {
            r.record("task 1 ran");
        })
        .expect("a small delay");
    pause.wait_reached();
    let due = rec.record("schedule task 2") + ms(50);
    let r = rec.clone();
    timer
        .schedule(ms(50), move || {
            r.record("task 2 ran");
        })
        .expect("a small delay");
    pause.release();
    let by = due + ms(300);
    let ran = rec.eventually("task 2 ran", by.saturating_sub(rec.elapsed()));
    assert!(
        ran.is_some_and(|at| at <= by),
        "F1 inbox timer: task 2, due at {} ms, sooner than task 1, had not run by {} ms",
        in_ms(due),
        in_ms(by)
    );
}
