//! Wrong: it asserts nothing. It forces the race well, drops the timer,
//! and never says how soon it expected the thread to end.
// verdict: misses-the-bug

use std::sync::Arc;
use std::thread;

use exercises::catch::p3::{Pause, Timer, WINDOW};
use kit::{Recorder, ms, threads};

#[test]
fn p3_cancel_notify_race_caught() {
    let name = threads::unique_name("catch-p3");
    let timer = Arc::new(Timer::new(&name).expect("start the timer"));
    let rec = Recorder::new();
    let pause = Pause::arm(WINDOW, &name);
    timer.schedule(ms(800), || {}).expect("a small delay");
    pause.wait_reached();
    let client = {
        let (timer, rec) = (Arc::clone(&timer), rec.clone());
        thread::spawn(move || {
            timer.cancel();
            rec.record("cancel returned");
        })
    };
    let _ = rec.eventually("cancel returned", ms(100));
    pause.release();
    client.join().expect("the client thread");
    drop(timer);
    println!("the thread ended at {:?}", rec.elapsed());
}
