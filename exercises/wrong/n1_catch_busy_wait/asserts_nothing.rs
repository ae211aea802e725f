//! Wrong: it asserts nothing. It measures the thread well, prints what it
//! used, and never says what it expected.
// verdict: misses-the-bug

use exercises::catch::n1::Timer;
use kit::{ms, threads};

#[test]
fn n1_busy_wait_caught() {
    let name = threads::unique_name("catch-n1");
    let timer = Timer::new(&name).expect("start the timer");
    timer.schedule(ms(1000), || {}).expect("a small delay");
    let share = kit::cpu::measure(&name, ms(500));
    drop(timer);
    println!("the timer thread used {share}");
}
