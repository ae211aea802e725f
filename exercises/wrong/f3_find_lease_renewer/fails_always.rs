//! Wrong: it fails always. It forces the window well, then asserts more
//! than a renewer can do: that its thread has ended by the time the
//! stopper has called `stop`, though the thread is held in the window then.
// verdict: rejects-correct

use std::sync::Arc;
use std::thread;

use exercises::find::f3::{ASKED, Pause, Renewer};
use kit::{Recorder, ms, threads};

#[test]
fn f3_lease_renewer_caught() {
    let name = threads::unique_name("find-f3");
    let rec = Recorder::new();
    let pause = Pause::arm(ASKED, &name);
    let r = rec.clone();
    let renewer = Arc::new(
        Renewer::new(&name, ms(1000), move || {
            r.record("renewed");
        })
        .expect("start the renewer"),
    );
    pause.wait_reached();
    let stopper = {
        let (renewer, rec) = (Arc::clone(&renewer), rec.clone());
        thread::spawn(move || {
            rec.record("stop called");
            renewer.stop();
        })
    };
    let stopped = rec
        .eventually("stop called", ms(100))
        .expect("the stopper runs");
    std::thread::sleep(ms(100));
    pause.release();
    stopper.join().expect("the stopper thread");
    drop(renewer);
    let ended = rec.record("the thread ended");
    assert!(
        ended <= stopped + ms(1),
        "F3 lease renewer: stopped at {stopped:?}, the thread ended at {ended:?}"
    );
}
