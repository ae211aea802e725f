//! Wrong: it catches a bug the correct timers have too. It holds the
//! thread, but what it asserts is that a long task does not make the next
//! one late: I4 `delayed_tasks`, which every timer with one thread has
//! (*A timer you can interrupt*), every correct one of this exercise too.
// verdict: rejects-correct

use exercises::find::f1::{Pause, RAN, Timer};
use kit::{Recorder, ms, threads};

#[test]
fn f1_inbox_timer_caught() {
    let name = threads::unique_name("find-f1");
    let rec = Recorder::new();
    let pause = Pause::arm(RAN, &name);
    let timer = Timer::new(&name).expect("start the timer");
    pause.wait_reached();
    pause.release();
    timer
        .schedule(ms(10), || std::thread::sleep(ms(300)))
        .expect("a small delay");
    let due = rec.record("schedule task 2") + ms(50);
    let r = rec.clone();
    timer
        .schedule(ms(50), move || {
            r.record("task 2 ran");
        })
        .expect("a small delay");
    let ran = rec.eventually("task 2 ran", ms(600));
    assert!(
        ran.is_some_and(|at| at <= due + ms(100)),
        "F1 inbox timer: task 2 due at {due:?} ran at {ran:?}"
    );
}
