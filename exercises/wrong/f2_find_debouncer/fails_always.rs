//! Wrong: it fails always. It forces the window well, then asserts more
//! than a debouncer does: that the action ran before its quiet time was
//! over.
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
    let _ = rec.eventually("poked", ms(300));
    pause.release();
    client.join().expect("the client thread");
    let poked = rec.at("poked").expect("recorded before the join");
    let fired = rec.eventually("fired", ms(350));
    assert!(
        fired.is_some_and(|at| at < poked + ms(20)),
        "F2 debouncer: the action had not run 20 ms after the poke: {fired:?}"
    );
}
