//! Wrong: it holds the thread at the wrong point. It stops while the thread
//! is held right after its plan, before it asks: there the interrupt is
//! raised before the question, and the thread sees it. It passes on every
//! version.
// verdict: misses-the-bug

use std::sync::Arc;
use std::thread;

use exercises::find::f3::{PLANNED, Pause, Renewer};
use kit::{Recorder, ms, threads};

#[test]
fn f3_lease_renewer_caught() {
    let name = threads::unique_name("find-f3");
    let rec = Recorder::new();
    let pause = Pause::arm(PLANNED, &name);
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
    let _ = rec.eventually("stop called", ms(100));
    std::thread::sleep(ms(20));
    pause.release();
    stopper.join().expect("the stopper thread");
    let stopped = rec.at("stop called").expect("recorded");
    let gone = threads::gone_within(&name, (stopped + ms(300)).saturating_sub(rec.elapsed()));
    assert!(
        gone,
        "F3 lease renewer: stopped at {stopped:?}, its thread still there 300 ms later"
    );
    drop(renewer);
}
