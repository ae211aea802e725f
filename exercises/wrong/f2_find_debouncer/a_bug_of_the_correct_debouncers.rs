//! Wrong: it catches a bug the correct debouncers have too. It holds the
//! thread, but what it asserts is that an action that panics leaves the
//! debouncer working, as a panicking task leaves a timer working once *A
//! timer you can interrupt* has cured I6. No debouncer of this exercise
//! survives its action's panic, the correct ones included.
// verdict: rejects-correct

use exercises::find::f2::{AFTER_WAKE, Debouncer, Pause};
use kit::{Recorder, ms, threads};

#[test]
fn f2_debouncer_caught() {
    let name = threads::unique_name("find-f2");
    let rec = Recorder::new();
    let r = rec.clone();
    let debouncer = Debouncer::new(&name, ms(20), move || {
        if r.count("fired") == 0 {
            r.record("fired");
            panic!("the first action panics, on purpose");
        }
        r.record("fired");
    })
    .expect("start the debouncer");
    let pause = Pause::arm(AFTER_WAKE, &name);
    debouncer.poke();
    pause.wait_reached();
    pause.release();
    assert!(rec.eventually("fired", ms(300)).is_some());
    debouncer.poke();
    assert!(
        rec.wait_until_count("fired", 2, ms(300)).is_some(),
        "F2 debouncer: a poke after a panicking action was never answered"
    );
}
