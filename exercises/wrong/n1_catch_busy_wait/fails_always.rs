//! Wrong: it fails always. It measures the timer thread while a task of its
//! own computes on it, and asserts the thread idle. A thread that runs a
//! task is busy, in any version: what N1 is about is the time *between*
//! tasks.
// verdict: rejects-correct

use std::time::Instant;

use exercises::catch::n1::Timer;
use kit::{ms, threads};

#[test]
fn n1_busy_wait_caught() {
    let name = threads::unique_name("catch-n1");
    let timer = Timer::new(&name).expect("start the timer");
    let work = ms(500);
    timer
        .schedule(ms(0), move || {
            let start = Instant::now();
            while start.elapsed() < work {
                std::hint::spin_loop();
            }
        })
        .expect("a small delay");
    let share = kit::cpu::measure(&name, ms(300));
    drop(timer);
    assert!(
        share.is_idle(),
        "N1 busy_wait: the timer thread used {share}"
    );
}
