//! Wrong: it hopes for an idle machine. It measures well, then judges by
//! the share of a core the thread *got* (`fraction`): "a busy loop uses
//! nearly a whole core". On an idle machine it does. With every core busy,
//! or beside other tests' busy loops, it gets a slice of one, and the test
//! passes it. A busy loop never stops *asking* for a core: `is_idle` judges
//! by that demand too, which the load does not hide.
// verdict: luck | misses-the-bug

use exercises::catch::n1::Timer;
use kit::{ms, threads};

#[test]
fn n1_busy_wait_caught() {
    let name = threads::unique_name("catch-n1");
    let timer = Timer::new(&name).expect("start the timer");
    timer.schedule(ms(1000), || {}).expect("a small delay");
    let share = kit::cpu::measure(&name, ms(500));
    drop(timer);
    assert!(
        share.fraction() < 0.9,
        "N1 busy_wait: the timer thread used {share}"
    );
}
