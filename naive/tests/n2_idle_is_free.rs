//! N2 idle_is_free: with nothing queued, the naive timer thread blocks in
//! the channel's `recv` and costs no CPU.
#![cfg(not(loom))]

use naive::Timer;

#[test]
fn n2_idle_is_free() {
    let name = kit::threads::unique_name("n2");
    let timer = Timer::new(&name).unwrap();
    // As N1's window: long enough for a clear share, and no longer.
    let share = kit::cpu::measure(&name, kit::ms(150));
    drop(timer);
    kit::threads::assert_gone(&name);
    assert!(
        share.is_idle(),
        "an idle naive timer should cost nothing; it used {share}"
    );
}
