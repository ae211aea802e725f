//! Wrong: it catches another bug. It cancels a timer whose thread waits for
//! work and asserts that the thread ends: P1 `cancel_hangs_idle`, the bug of
//! the flag timers of *A timer that will not stop*. The interruptible timer
//! has no P1 (its interrupt ends a thread waiting on an empty queue), so
//! this passes on it: it never makes a task panic.
// verdict: catches-another

use exercises::catch::i6::Timer;
use kit::{Recorder, ms, threads};

#[test]
fn i6_panic_kills_timer_caught() {
    let name = threads::unique_name("catch-i6");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();
    // One task run, so that the thread is there and then waits for work.
    let r = rec.clone();
    timer
        .schedule(ms(0), move || {
            r.record("task ran");
        })
        .expect("a live timer takes a task");
    rec.eventually("task ran", ms(5000)).expect("the task ran");
    assert!(
        threads::asleep_within(&[&name], ms(2000)),
        "the timer's thread never went to sleep"
    );
    timer.cancel();
    assert!(
        threads::gone_within(&name, ms(500)),
        "I6 panic_kills_timer: the cancelled timer's thread is still running"
    );
}
