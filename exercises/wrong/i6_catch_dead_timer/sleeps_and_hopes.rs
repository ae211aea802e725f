//! Wrong: it sleeps and hopes. It does not wait for task 1 to panic: it
//! sleeps "long enough" and schedules task 2. But task 1 is due at 200 ms
//! and the sleep is 20 ms: task 2 is scheduled, due at 40 ms, and run,
//! while the timer is still alive. A sleep is a guess; wait for the event.
// verdict: misses-the-bug | luck

use exercises::catch::i6::Timer;
use kit::{Recorder, ms, threads};

#[test]
fn i6_panic_kills_timer_caught() {
    let name = threads::unique_name("catch-i6");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();
    timer
        .schedule(ms(200), || panic!("task 1 panics, on purpose"))
        .expect("a live timer takes task 1");
    std::thread::sleep(ms(20));
    let r = rec.clone();
    let accepted = timer.schedule(ms(20), move || {
        r.record("task 2 ran");
    });
    if accepted.is_ok() {
        assert!(
            rec.eventually("task 2 ran", ms(500)).is_some(),
            "I6 panic_kills_timer: task 2 accepted, never ran"
        );
    }
}
