//! Find it, F3: the reference test.
//!
//! The window: in step 3, after the thread has asked about the interrupt
//! (and found none) and before it waits. An interrupt there is raised, and
//! its wake notifies the condition variable without taking the lock the
//! thread holds: nobody waits yet, so the notify is lost, and the thread
//! waits for its next renewal, renews once more, and only then sees the
//! interrupt.

use std::sync::Arc;
use std::thread;

use exercises::find::f3::{ASKED, Pause, Renewer};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

/// How often it renews: far enough that waiting for it is unmistakable.
const EVERY_MS: u64 = 1000;
/// How soon after the stop its thread must have ended.
const MARGIN_MS: u64 = 300;
/// How long the stopper may try to get in while the thread is held.
const HOLD_MS: u64 = 100;

#[test]
fn f3_lease_renewer_caught() {
    let name = threads::unique_name("find-f3");
    let rec = Recorder::new();
    // Armed first: the thread reaches it after its first renewal.
    let pause = Pause::arm(ASKED, &name);
    let r = rec.clone();
    let renewer = Arc::new(
        Renewer::new(&name, ms(EVERY_MS), move || {
            r.record("renewed");
        })
        .expect("start the renewer"),
    );
    pause.wait_reached();

    // The stop, from another thread: where `wake` takes the lock the held
    // thread has, it waits for the release.
    let stopper = {
        let (renewer, rec) = (Arc::clone(&renewer), rec.clone());
        thread::spawn(move || {
            rec.record("stop called");
            renewer.stop();
            rec.record("stop returned");
        })
    };
    let _ = rec.eventually("stop returned", ms(HOLD_MS));
    pause.release();
    stopper.join().expect("the stopper thread");
    let stopped = rec.at("stop called").expect("recorded by the stopper");

    // Not by dropping it: a drop stops it again, and would wake it.
    let gone = threads::gone_within(
        &name,
        (stopped + ms(MARGIN_MS)).saturating_sub(rec.elapsed()),
    );
    let looked = rec.record("looked for the thread");
    assert!(
        gone,
        "F3 lease renewer: stopped at {} ms, and at {} ms its thread was still there, \
         waiting for its next renewal (one is due every {EVERY_MS} ms): the stop woke \
         nobody\n{}",
        in_ms(stopped),
        in_ms(looked),
        rec.log()
    );
    drop(renewer);
}
