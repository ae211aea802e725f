//! Catch it, N1 `busy_wait`: the reference test.
//!
//! The scenario of *A timer that burns a core*. One task is pending, due
//! after the measurement ends; the timer thread is measured meanwhile, by
//! its own CPU clock. A thread that sleeps until the task is due wants no
//! core; the busy loop wants one the whole time. Judged by demand (running,
//! or ready to run and waiting for a core), which a loaded machine does not
//! hide: there a busy loop gets only a slice of a core, but it never stops
//! asking for one.

use exercises::catch::n1::Timer;
use kit::{ms, threads};

/// When the task is due: after the measurement ends, and soon enough that
/// a timer which sleeps toward it drops quickly.
const TASK_MS: u64 = 1000;
/// How long the thread is measured.
const MEASURE_MS: u64 = 500;

#[test]
fn n1_busy_wait_caught() {
    let name = threads::unique_name("catch-n1");
    let timer = Timer::new(&name).expect("start the timer");
    timer.schedule(ms(TASK_MS), || {}).expect("a small delay");

    // The thread's own CPU time, not the process's: the test's threads,
    // and other tests' timers, run in the same process.
    let share = kit::cpu::measure(&name, ms(MEASURE_MS));
    drop(timer);

    assert!(
        share.is_idle(),
        "N1 busy_wait: with one task pending (due at {TASK_MS} ms), the timer thread used \
         {share} over {MEASURE_MS} ms: it spins instead of waiting"
    );
}
