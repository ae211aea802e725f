//! Wrong: it asserts nothing. It forces the race well, waits for task 2,
//! and never says what it expected.
// verdict: misses-the-bug

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
    let ran = rec.eventually("task 2 ran", ms(350));
    println!("task 2 ran at {ran:?}");
}
