//! Wrong: it catches another bug. It holds the thread in the window only to
//! know the task is in hand, lets it go, waits until the thread sleeps in
//! its wait for the task's deadline, and only then cancels: P2
//! `cancel_waits_for_deadline`, the first try's bug (a flag, and no notify
//! at all). Fix 1 wakes a thread that is already waiting, so this passes on
//! it: the cancel P3 loses is the one made in the window, before the wait.
// verdict: catches-another

use exercises::catch::p3::{Pause, Timer, WINDOW};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn p3_cancel_notify_race_caught() {
    let name = threads::unique_name("catch-p3");
    let timer = Timer::new(&name).expect("start the timer");
    let rec = Recorder::new();
    let pause = Pause::arm(WINDOW, &name);
    timer.schedule(ms(800), || {}).expect("a small delay");
    pause.wait_reached();
    pause.release();
    // Let it get into its wait for the deadline, and see that it sleeps.
    std::thread::sleep(ms(100));
    assert!(
        threads::asleep_within(&[&name], ms(2000)),
        "the timer's thread never went to sleep"
    );
    let cancelled = rec.record("cancel");
    timer.cancel();
    drop(timer);
    let ended = rec.record("ended");
    assert!(
        ended <= cancelled + ms(300),
        "P3 cancel_notify_race: cancelled at {} ms while the thread waited, it ended at {} ms",
        in_ms(cancelled),
        in_ms(ended)
    );
}
