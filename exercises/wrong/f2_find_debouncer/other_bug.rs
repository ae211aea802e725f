//! Wrong: it catches another bug. It holds the thread, but what it asserts
//! is that dropping the debouncer in the middle of a long quiet time stops
//! its thread at once: P2 of *A timer that will not stop*, a thread that
//! sleeps out its deadline deaf to a stop. A debouncer that sleeps out its
//! quiet time fails it; the scheduler as written passes it, its drop's
//! permit waking the thread.
// verdict: catches-another

use std::time::Instant;

use exercises::find::f2::{AFTER_WAKE, BEFORE_WAIT, Debouncer, Pause};
use kit::{Recorder, ms, threads};

#[test]
fn f2_debouncer_caught() {
    let name = threads::unique_name("find-f2");
    let rec = Recorder::new();
    let idle = Pause::arm(BEFORE_WAIT, &name);
    let r = rec.clone();
    let debouncer = Debouncer::new(&name, ms(2000), move || {
        r.record("fired");
    })
    .expect("start the debouncer");
    // Held on its first pass, idle, about to wait.
    idle.wait_reached();
    // Then the poke wakes it; hold it there, and let it begin the quiet
    // time.
    let woke = Pause::arm(AFTER_WAKE, &name);
    idle.release();
    debouncer.poke();
    woke.wait_reached();
    woke.release();
    std::thread::sleep(ms(100));
    let dropping = Instant::now();
    drop(debouncer);
    let took = dropping.elapsed();
    assert!(
        took < ms(1000),
        "F2 debouncer: dropping it took {} ms: its thread slept out the quiet time",
        took.as_millis()
    );
}
