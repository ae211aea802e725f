//! Find it, F2: the reference test.
//!
//! The window: between step 1 (the thread has looked, and found nothing
//! poked) and step 2 (it says it sleeps). A poke there finds the thread
//! not asleep and adds no permit; the thread then waits for a permit that
//! never comes, and the action never runs.
//!
//! The thread is held at `AFTER_LOOK` on its first pass, when its look has
//! found nothing poked; a client pokes while it is held; then it is let
//! go. A correct debouncer fires a quiet time after the poke. The poke
//! comes from a thread of its own: a debouncer that holds its lock from
//! its look into its wait (a correct way) makes it wait until the release.

use std::sync::Arc;
use std::thread;

use exercises::find::f2::{AFTER_LOOK, Debouncer, Pause};
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

/// The quiet time.
const QUIET_MS: u64 = 50;
/// How late after its quiet time the action may run.
const MARGIN_MS: u64 = 300;
/// How long the client may try to get its poke in while the thread is
/// held.
const HOLD_MS: u64 = 300;

#[test]
fn f2_debouncer_caught() {
    let name = threads::unique_name("find-f2");
    let rec = Recorder::new();
    // Armed before the thread starts: its first look finds no poke.
    let pause = Pause::arm(AFTER_LOOK, &name);
    let r = rec.clone();
    let debouncer = Arc::new(
        Debouncer::new(&name, ms(QUIET_MS), move || {
            r.record("fired");
        })
        .expect("start the debouncer"),
    );
    pause.wait_reached();
    // The poke, while the thread is between its look and its sleep.
    let client = {
        let (debouncer, rec) = (Arc::clone(&debouncer), rec.clone());
        thread::spawn(move || {
            debouncer.poke();
            rec.record("poked");
        })
    };
    let _ = rec.eventually("poked", ms(HOLD_MS));
    pause.release();
    client.join().expect("the client thread");

    // The poke was made by the time it returned.
    let poked = rec.at("poked").expect("recorded before the join");
    let by = poked + ms(QUIET_MS + MARGIN_MS);
    let fired = rec.eventually("fired", by.saturating_sub(rec.elapsed()));
    assert!(
        fired.is_some_and(|at| at <= by),
        "F2 debouncer: poked by {} ms with a quiet time of {QUIET_MS} ms, and the action \
         had not run by {} ms: the poke woke nobody\n{}",
        in_ms(poked),
        in_ms(by),
        rec.log()
    );
}
