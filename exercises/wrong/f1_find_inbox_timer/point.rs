//! Wrong: it holds the thread at the wrong point. It schedules while the
//! thread is held just before its wait, where a C1 test would hold it; but
//! there the inbox has been taken in, and the message stays in it until
//! the wait returns with it. It passes on every version.
// verdict: misses-the-bug

use exercises::find::f1::{Pause, TOOK_IN, Timer};
use kit::{Recorder, ms, threads};

#[test]
fn f1_inbox_timer_caught() {
    let name = threads::unique_name("find-f1");
    let rec = Recorder::new();
    let pause = Pause::arm(TOOK_IN, &name);
    let timer = Timer::new(&name).expect("start the timer");
    pause.wait_reached();
    let due = rec.record("schedule the task") + ms(50);
    let r = rec.clone();
    timer
        .schedule(ms(50), move || {
            r.record("task ran");
        })
        .expect("a small delay");
    pause.release();
    let ran = rec.eventually("task ran", ms(350));
    assert!(
        ran.is_some_and(|at| at <= due + ms(300)),
        "F1 inbox timer: a task due at {due:?} ran at {ran:?}"
    );
}
