//! Wrong: it holds the thread at the wrong point. It pokes while the thread
//! is held just before its wait, where a C1 test would hold it; but there
//! the thread already says it sleeps, and the poke leaves a permit. It
//! passes on the scheduler as written.
// verdict: misses-the-bug

use std::sync::Arc;
use std::thread;

use exercises::find::f2::{BEFORE_WAIT, Debouncer, Pause};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

#[test]
fn f2_debouncer_caught() {
    let name = threads::unique_name("find-f2");
    let rec = Recorder::new();
    let pause = Pause::arm(BEFORE_WAIT, &name);
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
    let by = poked + ms(350);
    let fired = rec.eventually("fired", by.saturating_sub(rec.elapsed()));
    assert!(
        fired.is_some(),
        "F2 debouncer: poked by {} ms, not fired by {} ms",
        in_ms(poked),
        in_ms(by)
    );
}
