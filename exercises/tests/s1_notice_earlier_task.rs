//! The check of exercise S1: a task due sooner, scheduled while the timer
//! thread is about to wait for a later one, runs on time.
//!
//! `cargo xtask exercise check s1` runs it against your file.

mod support;

use exercises::s1_notice_earlier_task::{Timer, WINDOW};
use kit::scale::in_ms;
use kit::{ms, threads};
use support::{MARGIN_MS, TASK1_DUE_MS, Task};

#[test]
fn s1_notice_earlier_task_runs_it_on_time() {
    let name = threads::unique_name("ex-s1");
    let timer = Timer::new(&name).expect("start the timer");
    let run = support::earlier_task_in_window(timer, &name, WINDOW, |t: &Timer, d, task: Task| {
        t.schedule(d, task).expect("a small delay");
    });
    assert!(
        run.task2_ran >= run.task2_due && run.task2_ran <= run.task2_due + ms(MARGIN_MS),
        "S1 missed_earlier_task: task 2 due at {} ms, ran at {} ms (task 1 due at {TASK1_DUE_MS} ms)\n{}",
        in_ms(run.task2_due),
        in_ms(run.task2_ran),
        run.rec.log()
    );
}
