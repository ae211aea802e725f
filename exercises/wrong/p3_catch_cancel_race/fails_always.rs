//! Wrong: it fails always. It forces the race well, then asserts what no
//! correct timer does: that a cancelled timer still takes a task (every
//! one refuses it, as java.util.Timer does: P6).
// verdict: rejects-correct

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
    let again = timer.schedule(ms(10), || {});
    assert!(
        again.is_ok(),
        "P3 cancel_notify_race: the timer refused a task after the cancel: {again:?}"
    );
}
