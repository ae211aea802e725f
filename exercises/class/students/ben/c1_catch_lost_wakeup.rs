//! Wrong: it tests how one correct timer is built, not the race. It holds
//! the thread in the window, calls `schedule` from another thread, and
//! asserts that the call cannot finish while the thread is held: true of
//! java.util.Timer's way (the window is inside its one lock), and of no
//! timer that closes the window another way. A timer that keeps the notify
//! in a semaphore takes the call at once and still runs task 2 on time.
// verdict: rejects-correct

use std::sync::Arc;
use std::thread;

use exercises::catch::c1::{Pause, Timer, WINDOW};
use kit::{Recorder, ms, threads};

#[test]
fn c1_lost_wakeup_caught() {
    let name = threads::unique_name("catch-c1");
    let timer = Arc::new(Timer::new(&name).expect("start the timer"));
    let rec = Recorder::new();
    let pause = Pause::arm(WINDOW, &name);
    timer.schedule(ms(1000), || {}).expect("a small delay");
    pause.wait_reached();
    let client = {
        let (timer, rec) = (Arc::clone(&timer), rec.clone());
        thread::spawn(move || {
            timer.schedule(ms(50), || {}).expect("a small delay");
            rec.record("task 2 scheduled");
        })
    };
    let returned = rec.eventually("task 2 scheduled", ms(100));
    pause.release();
    client.join().expect("the client thread");
    assert!(
        returned.is_none(),
        "C1 lost_wakeup: schedule returned while the timer thread was held: nothing \
         orders the two"
    );
}
