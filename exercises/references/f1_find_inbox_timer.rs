//! Find it, F1: the reference test.
//!
//! The window: from the moment the thread has planned its wake-up (step 2,
//! and already from step 1 on) until it takes in its inbox (step 3). A
//! task sent then is taken in, but the plan was made without it: the
//! thread waits for the task it planned for, or, with none, for ever.
//!
//! The thread is held at `PLANNED` on its first pass, when it has planned
//! to wait for nothing; the task is scheduled while it is held; then it is
//! let go. A correct timer runs the task on time, whatever order its steps
//! take: one that takes in before it plans finds the message still in the
//! inbox when it waits, one that plans again finds it in its take-in.

use exercises::find::f1::{PLANNED, Pause, Timer};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

/// When the task is due, from when it is scheduled.
const TASK_MS: u64 = 50;
/// How late it may run.
const MARGIN_MS: u64 = 300;

#[test]
fn f1_inbox_timer_caught() {
    let name = threads::unique_name("find-f1");
    let rec = Recorder::new();
    // Armed before the thread starts: its first plan is "nothing to wait
    // for".
    let pause = Pause::arm(PLANNED, &name);
    let timer = Timer::new(&name).expect("start the timer");
    pause.wait_reached();
    // The task, while the thread has planned and not yet taken in.
    // `schedule` never blocks, so this thread may make the call.
    let due = rec.record("schedule the task") + ms(TASK_MS);
    let r = rec.clone();
    timer
        .schedule(ms(TASK_MS), move || {
            r.record("task ran");
        })
        .expect("a small delay");
    pause.release();

    let by = due + ms(MARGIN_MS);
    let ran = rec.eventually("task ran", by.saturating_sub(rec.elapsed()));
    assert!(
        ran.is_some_and(|at| at <= by),
        "F1 inbox timer: a task due at {} ms had not run by {} ms: it was taken in after \
         the thread planned its wait\n{}",
        in_ms(due),
        in_ms(by),
        rec.log()
    );
}
