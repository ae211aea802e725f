//! C6 exactly_once: a cancelled handler runs once, told it was aborted, and
//! never again at its old deadline.
//!
//! The C++ TimerQueue post's `cancel` first moved the handler into a new
//! item and relied on the move to leave the old `std::function` empty. The
//! standard does not promise that; on a reader's library the old item still
//! held the handler and fired it at its deadline. Here `cancel` moves the handler out with `Option::take`,
//! which always leaves `None` behind, and a `Box<dyn FnOnce>` cannot be
//! called twice: the bug cannot be written.
#![cfg(not(loom))]

use std::time::Duration;

use condvar_timer::something_changed::TimerQueue;
use kit::Recorder;
use kit::threads::unique_name;

fn deadline() -> Duration {
    kit::ms(50)
}

#[test]
fn c6_cancelled_handler_runs_once() {
    let queue = TimerQueue::new(&unique_name("c6")).unwrap();
    let rec = Recorder::new();
    let id = {
        let rec = rec.clone();
        queue
            .add(deadline(), move |aborted| {
                rec.record(format!("ran aborted={aborted}"));
            })
            .unwrap()
    };
    // A sentinel due just after the old deadline: the queue's one thread
    // handles its items in deadline order, so once the sentinel has run,
    // the husk left at the old deadline has been handled too.
    let sentinel = rec.clone();
    queue
        .add(deadline() + kit::ms(10), move |aborted| {
            sentinel.record(format!("sentinel ran aborted={aborted}"));
        })
        .unwrap();
    assert!(queue.cancel(id));
    rec.eventually("ran aborted=true", kit::ms(5000))
        .expect("the cancelled handler never ran");
    let past = rec
        .eventually("sentinel ran aborted=false", kit::ms(5000))
        .expect("the sentinel never ran");
    assert!(past >= deadline(), "the sentinel ran early\n{}", rec.log());
    if let Some(again) = rec.at("ran aborted=false") {
        panic!(
            "C6 exactly_once: the cancelled handler ran again at {} ms (its old deadline was {} ms)",
            again.as_millis(),
            deadline().as_millis()
        );
    }
    assert_eq!(rec.count("ran aborted=true"), 1, "{}", rec.log());
    assert_eq!(queue.shutdown(), Some(0));
    assert_eq!(rec.events().len(), 2, "{}", rec.log());
}
