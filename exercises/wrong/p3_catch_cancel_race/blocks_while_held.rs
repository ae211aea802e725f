//! Wrong: it tests how one timer is built. In the poison-pill timer the
//! thread holds the queue's lock in the window, so a cancel made while it
//! is held waits for the release; this test asserts that it does, and calls
//! a cancel that returns at once "a cancel nobody heard". But a correct
//! timer need hold no lock there: the channel timer's `cancel` drops the
//! last sender and returns at once, and its thread, let go, finds the
//! channel closed and stops at once. Whether the call blocks says how the
//! timer is built, not whether the cancel is lost: time what the thread
//! does after the release.
// verdict: rejects-correct

use std::sync::Arc;
use std::thread;

use exercises::catch::p3::{Pause, Timer, WINDOW};
use kit::scale::in_ms;
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
    let returned = rec.eventually("cancel returned", ms(100));
    pause.release();
    client.join().expect("the client thread");
    assert!(
        returned.is_none(),
        "P3 cancel_notify_race: the cancel returned at {} ms, while the timer's thread was \
         held in the window: nothing waited for it, so nothing heard it",
        in_ms(returned.unwrap_or_default())
    );
}
