//! Wrong: it tests how one debouncer is built. It holds the thread in the
//! window and asserts that a poke made meanwhile waits until the release,
//! as it does on a debouncer that holds one lock from its look into its
//! wait. That debouncer is correct; so is one whose poke returns at once
//! and leaves a permit. Blocking is no property of a correct debouncer.
// verdict: rejects-correct

use std::sync::Arc;
use std::thread;

use exercises::find::f2::{AFTER_LOOK, Debouncer, Pause};
use kit::{Recorder, ms, threads};

#[test]
fn f2_debouncer_caught() {
    let name = threads::unique_name("find-f2");
    let rec = Recorder::new();
    let pause = Pause::arm(AFTER_LOOK, &name);
    let r = rec.clone();
    let debouncer = Arc::new(
        Debouncer::new(&name, ms(50), move || {
            r.record("fired");
        })
        .expect("start the debouncer"),
    );
    pause.wait_reached();
    let client = {
        let (debouncer, rec) = (Arc::clone(&debouncer), rec.clone());
        thread::spawn(move || {
            debouncer.poke();
            rec.record("poked");
        })
    };
    let returned = rec.eventually("poked", ms(200));
    pause.release();
    client.join().expect("the client thread");
    assert!(
        returned.is_none(),
        "F2 debouncer: a poke made while the thread was between its look and its sleep \
         returned at {returned:?}, without waiting for the thread"
    );
}
