//! The check of exercise C4: the lost wake-up of *A timer that loses a
//! wake-up*, forced. The timer thread is held between looking at a far task
//! and waiting for it while a client schedules a task due sooner; with one
//! lock for the queue and the wait, that task runs on time.
//!
//! `cargo xtask exercise check c4` runs it against your file.

mod support;

use exercises::c4_one_lock::{Timer, WINDOW};
use kit::scale::in_ms;
use kit::{ms, threads};
use support::{MARGIN_MS, TASK1_DUE_MS, Task};

#[test]
fn c4_one_lock_never_loses_the_wakeup() {
    let name = threads::unique_name("ex-c4");
    let timer = Timer::new(&name).expect("start the timer");
    let run = support::earlier_task_in_window(timer, &name, WINDOW, |t: &Timer, d, task: Task| {
        t.schedule(d, task).expect("a small delay");
    });
    assert!(
        run.task2_ran >= run.task2_due && run.task2_ran <= run.task2_due + ms(MARGIN_MS),
        "C1 lost_wakeup: task 2 due at {} ms, ran at {} ms (task 1 due at {TASK1_DUE_MS} ms)\n{}",
        in_ms(run.task2_due),
        in_ms(run.task2_ran),
        run.rec.log()
    );
}
