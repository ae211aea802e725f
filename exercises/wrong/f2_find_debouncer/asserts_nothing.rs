//! Wrong: it asserts nothing. It forces the window well, waits for the
//! action, and never says what it expected.
// verdict: misses-the-bug

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
    let fired = rec.eventually("fired", ms(350));
    println!("fired at {fired:?}");
}
