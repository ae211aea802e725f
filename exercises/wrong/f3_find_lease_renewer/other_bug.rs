//! Wrong: it catches another bug. It holds the thread once, after its first
//! renewal, lets it go, and stops the renewer while it waits for its next
//! renewal, far from the window. What it asserts, that the thread ends soon
//! after a stop, catches a renewer that registers no waker and sleeps
//! until its next renewal is due (P2, as *A timer that will not stop* has
//! it); the renewer as written wakes there, and passes.
// verdict: catches-another

use exercises::find::f3::{Pause, RENEWED, Renewer};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn f3_lease_renewer_caught() {
    let name = threads::unique_name("find-f3");
    let rec = Recorder::new();
    let pause = Pause::arm(RENEWED, &name);
    let r = rec.clone();
    let renewer = Renewer::new(&name, ms(1000), move || {
        r.record("renewed");
    })
    .expect("start the renewer");
    pause.wait_reached();
    pause.release();
    // Long enough for the thread to be waiting for its next renewal.
    std::thread::sleep(ms(200));
    let stopped = rec.record("stop");
    renewer.stop();
    assert!(
        threads::gone_within(&name, ms(300)),
        "F3 lease renewer: stopped at {} ms while it waited, and its thread still there \
         300 ms later\n{}",
        in_ms(stopped),
        rec.log()
    );
}
