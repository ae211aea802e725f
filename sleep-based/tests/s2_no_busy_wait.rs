//! S2 no_busy_wait: stage 1's N1 measurement, on the sleep-based timer. With
//! one task pending, the thread sleeps until it is due and costs nothing: the
//! correctness check that fails on `naive/src/busy_loop.rs`
//! (`n1_busy_wait_on_busy_loop`) passes here, so this is N1's `_fixed` test.
#![cfg(not(loom))]

use kit::pause::Pause;
use sleep_based::Timer;

#[test]
fn n1_busy_wait_fixed() {
    let name = kit::threads::unique_name("s2");
    let timer = Timer::new(&name).unwrap();
    // "Far out", but near enough that the drop, which waits out the sleep
    // (P2, of *A timer that will not stop*), stays short.
    let pause = Pause::arm(
        "sleep-based::sleep_until: took the head, going to sleep",
        &name,
    );
    timer.schedule(kit::ms(600), || {}).unwrap();
    pause.wait_reached();
    pause.release();
    let share = kit::cpu::measure(&name, kit::ms(300));
    drop(timer);
    kit::threads::assert_gone(&name);
    assert!(
        share.is_idle(),
        "N1 busy_wait: the sleep-based timer thread used {share} while one task waited"
    );
}
