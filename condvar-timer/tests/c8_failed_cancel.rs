//! C8 failed_cancel: a cancel that fails does not mean the handler has run.
//!
//! The thread takes a due item out of the queue, lets go of the lock and
//! only then calls the handler. A cancel in between finds nothing to cancel
//! and returns `false`, yet the handler has not started. Whoever cancels
//! must be ready for the handler to run after a failed cancel.
#![cfg(not(loom))]

use std::time::Duration;

use condvar_timer::something_changed::TimerQueue;
use kit::Recorder;
use kit::pause::Pause;
use kit::threads::unique_name;

const ABOUT_TO_RUN: &str = "condvar-timer::something_changed: about to run a handler";

#[test]
fn c8_failed_cancel_does_not_mean_ran() {
    let name = unique_name("c8");
    let rec = Recorder::new();
    let pause = Pause::arm(ABOUT_TO_RUN, &name);
    let queue = TimerQueue::new(&name).unwrap();
    let id = {
        let rec = rec.clone();
        queue
            .add(Duration::ZERO, move |aborted| {
                rec.record(format!("ran aborted={aborted}"));
            })
            .unwrap()
    };
    // The thread has taken the item out and is about to call the handler.
    pause.wait_reached();
    assert!(
        !queue.cancel(id),
        "cancel succeeded on an item already taken"
    );
    assert_eq!(rec.events(), [], "the handler ran while held");
    pause.release();
    let ran = rec.eventually("ran aborted=false", kit::ms(5000));
    assert!(
        ran.is_some(),
        "C8 failed_cancel: the handler never ran after the failed cancel\n{}",
        rec.log()
    );
    assert_eq!(queue.shutdown(), Some(0));
    assert_eq!(rec.events().len(), 1, "{}", rec.log());
}
