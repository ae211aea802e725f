//! Wrong: it catches another bug. It lets the timer's thread block on
//! its empty queue, cancels, and asserts that the thread ends: P1
//! `cancel_hangs_idle`, which fix 1 still has, as do other timers with no
//! P3 at all; every correct timer ends its thread (nearly every time here:
//! the sleep is a bet too). So it fails on fix 1, but never goes near the
//! window P3 is about. By what fix 1 does, the check cannot tell it from a
//! test of P3; it can tell that no thread was ever held there.
// verdict: never-held

use exercises::catch::p3::Timer;
use kit::{ms, threads};

#[test]
fn p3_cancel_notify_race_caught() {
    let name = threads::unique_name("catch-p3");
    let timer = Timer::new(&name).expect("start the timer");
    std::thread::sleep(ms(50)); // "surely" blocked on its empty queue by now
    timer.cancel();
    assert!(
        threads::gone_within(&name, ms(300)),
        "P3 cancel_notify_race: the cancelled timer's thread is still running"
    );
}
