//! Wrong: it catches another bug. It lets the timer's thread block on
//! its empty queue, cancels, and asserts that the thread ends: P1
//! `cancel_hangs_idle`, which fix 1 still has and the pill fixes too. So it
//! fails on the one version and passes on the other (nearly every time: the
//! sleep is a bet too), but it never goes near the window P3 is about. By
//! what the versions do, the check cannot tell it from a test of P3; it can
//! tell that no thread was ever held there.
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
