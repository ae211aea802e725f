//! Wrong: it looks for the version in a backtrace taken on the timer's own
//! thread, hoping for a frame named `racy`. The grader's builds keep no
//! symbol names, so every frame reads `<unknown>` and it never fails.
// verdict: misses-the-bug

use std::sync::{Arc, Mutex};
use std::thread;

use exercises::catch::c1::{Pause, Timer, WINDOW};
use kit::{Recorder, ms, threads};

#[test]
fn c1_lost_wakeup_caught() {
    let name = threads::unique_name("catch-c1");
    let timer = Arc::new(Timer::new(&name).expect("start the timer"));
    let rec = Recorder::new();
    let seen = Arc::new(Mutex::new(String::new()));
    let pause = Pause::arm(WINDOW, &name);
    let (s, r) = (Arc::clone(&seen), rec.clone());
    timer
        .schedule(ms(200), move || {
            let trace = std::backtrace::Backtrace::force_capture().to_string();
            *s.lock().expect("not poisoned") = trace;
            r.record("task 1 ran");
        })
        .expect("a small delay");
    pause.wait_reached();
    let client = {
        let timer = Arc::clone(&timer);
        thread::spawn(move || timer.schedule(ms(50), || {}).expect("a small delay"))
    };
    thread::sleep(ms(100));
    pause.release();
    client.join().expect("the client thread");
    let _ = rec.eventually("task 1 ran", ms(2000));
    let trace = seen.lock().expect("not poisoned").clone();
    assert!(
        !trace.contains("racy"),
        "C1 lost_wakeup: the timer thread's backtrace names the racy version"
    );
}
