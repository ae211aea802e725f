//! N1 busy_wait: with one task pending but not due, the naive timer thread
//! takes it, finds it early and puts it back, again and again: it burns a
//! core while it "waits". The fix is stage 2's sleep (`sleep-based`, S2).
#![cfg(not(loom))]

use kit::cpu::CpuShare;
use naive::Timer;

/// The window the timer thread is measured over: long enough for a clear
/// share (a busy loop wants a core all of it, a blocked thread none of it),
/// and no longer.
const WINDOW_MS: u64 = 150;

/// Schedules one task far out on a fresh naive timer and measures the timer
/// thread's own CPU share over a window, while the task waits.
fn cpu_while_one_task_waits() -> CpuShare {
    let name = kit::threads::unique_name("n1");
    let timer = Timer::new(&name).unwrap();
    timer.schedule(kit::ms(10_000), || {}).unwrap();
    let share = kit::cpu::measure(&name, kit::ms(WINDOW_MS));
    drop(timer);
    kit::threads::assert_gone(&name);
    share
}

#[test]
fn n1_busy_wait_reproduces() {
    let share = cpu_while_one_task_waits();
    // Judged by demand (running or ready to run), so a crowded machine that
    // gives the loop only part of a core still shows it never waits.
    assert!(
        share.is_busy(),
        "expected the naive timer to want a whole core while one task waits; \
         it used {share}"
    );
}

#[test]
#[ignore = "N1 busy_wait: shows the bug in busy_loop.rs"]
fn n1_busy_wait_on_busy_loop() {
    let share = cpu_while_one_task_waits();
    assert!(
        share.is_idle(),
        "N1 busy_wait: the timer thread used {share} while one task waited"
    );
}
