//! Wrong: it fails always. It forces the race well, then asserts more than
//! any timer does: that task 1, due at 1000 ms, has run too by the time
//! task 2 should have.
// verdict: rejects-correct

use std::sync::Arc;
use std::thread;

use exercises::catch::s1::{Pause, Timer, WINDOW};
use kit::{Recorder, ms, threads};

#[test]
fn s1_missed_earlier_task_caught() {
    let name = threads::unique_name("catch-s1");
    let timer = Arc::new(Timer::new(&name).expect("start the timer"));
    let rec = Recorder::new();
    let pause = Pause::arm(WINDOW, &name);
    let r = rec.clone();
    timer
        .schedule(ms(1000), move || {
            r.record("task 1 ran");
        })
        .expect("a small delay");
    pause.wait_reached();
    let client = {
        let (timer, rec) = (Arc::clone(&timer), rec.clone());
        thread::spawn(move || {
            let r = rec.clone();
            timer
                .schedule(ms(50), move || {
                    r.record("task 2 ran");
                })
                .expect("a small delay");
            rec.record("task 2 scheduled");
        })
    };
    let _ = rec.eventually("task 2 scheduled", ms(100));
    pause.release();
    client.join().expect("the client thread");
    let task2 = rec.eventually("task 2 ran", ms(350));
    let task1 = rec.at("task 1 ran");
    assert!(
        task2.is_some() && task1.is_some(),
        "S1 missed_earlier_task: not every task ran on time (task 1: {task1:?}, task 2: {task2:?})"
    );
}
