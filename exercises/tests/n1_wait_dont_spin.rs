//! The check of exercise N1: the timer thread waits (no CPU to speak of)
//! while a task is pending, and still runs tasks on time.
//!
//! `cargo xtask exercise check n1` runs it against your file.

use exercises::n1_wait_dont_spin::Timer;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn n1_wait_dont_spin_is_idle_while_a_task_waits() {
    // A window the machine gave no core says nothing: the scenario is set
    // up again, since a second window could run past the task's deadline.
    let (share, _) = kit::cpu::until_judged(kit::cpu::MEASURE_TRIES, || {
        let name = threads::unique_name("ex-n1");
        let timer = Timer::new(&name).expect("start the timer");
        // Due after the measurement ends, and soon enough that a timer
        // which sleeps toward it (and can only stop after it) drops
        // quickly.
        timer.schedule(ms(1000), || {}).expect("a small delay");
        let share = kit::cpu::measure_once(&name, ms(300));
        drop(timer);
        threads::assert_gone(&name);
        share
    });
    assert!(
        share.is_idle(),
        "N1 busy_wait: the timer thread used {share} while one task waited"
    );
}

#[test]
fn n1_wait_dont_spin_runs_tasks_on_time() {
    let name = threads::unique_name("ex-n1-time");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();
    for (label, delay) in [("a", 50), ("b", 120)] {
        let r = rec.clone();
        rec.record_as("check", format!("schedule {label}, due in {delay} ms"));
        timer
            .schedule(ms(delay), move || {
                r.record(label);
            })
            .expect("a small delay");
    }
    for (label, delay) in [("a", 50), ("b", 120)] {
        let ran = rec
            .eventually(label, ms(5000))
            .unwrap_or_else(|| panic!("N1: task {label} never ran:\n{}", rec.log()));
        assert!(
            ran >= ms(delay) && ran <= ms(delay + 300),
            "N1: task {label} due at {delay} ms ran at {} ms\n{}",
            in_ms(ran),
            rec.log()
        );
    }
    drop(timer);
    threads::assert_gone(&name);
}
