//! Wrong: it tests how one timer is built. It asserts that the timer's
//! thread is still there after task 1's panic. The chapter's finished timer
//! keeps its thread; but a correct timer may let that thread die and go on
//! with another, as a pool replaces a worker that a task killed. What a
//! caller is owed is that a task accepted is run, not that one thread
//! lives: ask the timer that.
// verdict: rejects-correct

use exercises::catch::i6::Timer;
use kit::{Recorder, ms, threads};

#[test]
fn i6_panic_kills_timer_caught() {
    let name = threads::unique_name("catch-i6");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();
    let r = rec.clone();
    timer
        .schedule(ms(0), move || {
            r.record("task 1 panics");
            panic!("task 1 panics, on purpose");
        })
        .expect("a live timer takes task 1");
    rec.eventually("task 1 panics", ms(5000))
        .expect("task 1 ran");
    // A dying thread first reports its panic, which can take a while.
    assert!(
        !threads::gone_within(&name, ms(4000)),
        "I6 panic_kills_timer: the timer's thread died with task 1"
    );
}
