//! Wrong: it sleeps and hopes. No pause point: it starts the debouncer,
//! sleeps a moment so that the thread is "surely" between its look and its
//! sleep, and pokes. The gap is a few instructions wide.
// verdict: never-held

use std::time::Duration;

use exercises::find::f2::Debouncer;
use kit::{Recorder, ms, threads};

#[test]
fn f2_debouncer_caught() {
    let name = threads::unique_name("find-f2");
    let rec = Recorder::new();
    let r = rec.clone();
    let debouncer = Debouncer::new(&name, ms(50), move || {
        r.record("fired");
    })
    .expect("start the debouncer");
    std::thread::sleep(Duration::from_micros(100));
    debouncer.poke();
    assert!(
        rec.eventually("fired", ms(350)).is_some(),
        "F2 debouncer: the action never ran"
    );
}
