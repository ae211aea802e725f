//! Wrong: it tests how one renewer is built, not the race. It holds the
//! thread where it has asked about the interrupt, stops from another
//! thread, and asserts that the stop waits for the release. That is true of
//! a renewer whose `wake` takes the lock the held thread has; but a correct
//! renewer need not take it (one that waits with the interrupt's own sleep,
//! or parks), and there the stop returns at once.
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
            renewer.stop();
            rec.record("stop returned");
        })
    };
    let early = rec.eventually("stop returned", ms(100));
    pause.release();
    stopper.join().expect("the stopper thread");
    assert!(
        early.is_none(),
        "F3 lease renewer: stop returned while the thread was held, without waiting for \
         it: the wake-up cannot have reached a waiting thread\n{}",
        rec.log()
    );
    drop(renewer);
}
