//! Wrong: it sleeps and hopes. No pause point: it starts `execute` and
//! `shutdown` on two threads at the same moment, and hopes the shutdown
//! lands between `execute`'s look at the state and its offer. That window
//! is a few instructions wide: the two calls nearly always pass it in one
//! order or the other.
// verdict: never-held

use std::sync::Barrier;
use std::thread;

use exercises::catch::t7::Pool;
use kit::{Recorder, ms, threads};

#[test]
fn t7_execute_shutdown_race_caught() {
    let prefix = threads::unique_name("catch-t7");
    let pool = Pool::new(&prefix);
    let rec = Recorder::new();
    let start = Barrier::new(2);
    let accepted = thread::scope(|s| {
        let execute = s.spawn(|| {
            start.wait();
            let r = rec.clone();
            pool.execute(move || {
                r.record("task ran");
            })
            .is_ok()
        });
        start.wait();
        pool.shutdown();
        execute.join().expect("the caller")
    });
    if accepted {
        assert!(
            rec.eventually("task ran", ms(300)).is_some(),
            "T7 execute_shutdown_race: accepted, never ran"
        );
    }
}
