//! Wrong: it asserts another bug away. What it asserts is that a task due
//! while another runs is not delayed by it: I4 `delayed_tasks`, which every
//! timer here has, correct or not (one thread runs every task, one after
//! another; the pool here has one worker). It fails on the correct ones
//! too.
// verdict: rejects-correct

use exercises::catch::i6::Timer;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn i6_panic_kills_timer_caught() {
    let name = threads::unique_name("catch-i6");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();
    timer
        .schedule(ms(0), || std::thread::sleep(ms(300)))
        .expect("a live timer takes the long task");
    let r = rec.clone();
    let due = rec.record("schedule task 2") + ms(50);
    timer
        .schedule(ms(50), move || {
            r.record("task 2 ran");
        })
        .expect("a live timer takes task 2");
    let ran = rec.eventually("task 2 ran", ms(1000));
    assert!(
        ran.is_some_and(|ran| ran <= due + ms(100)),
        "I6 panic_kills_timer: task 2 due at {} ms ran at {ran:?}",
        in_ms(due)
    );
}
