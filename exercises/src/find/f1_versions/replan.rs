//! F1 mended another way: the steps in the order as written, plan before
//! take-in, but a take-in that brought a task sends the thread round the
//! loop again instead of into the wait, so it never waits on a plan made
//! without a task it holds. A task sent while the thread is held at
//! `PLANNED` costs it one more turn.

use crossbeam_channel::Receiver;

use super::{Message, PLANNED_AT, Pending, RAN_AT, TOOK_IN_AT};

/// Run, plan, take in; wait only if the take-in brought nothing.
pub(super) fn run(messages: &Receiver<Message>) {
    let mut pending = Pending::new();
    loop {
        super::run_due(&mut pending);
        kit::pause_point(RAN_AT);
        let wake_at = super::earliest_due(&pending);
        kit::pause_point(PLANNED_AT);
        let Some(took) = super::take_in(messages, &mut pending) else {
            return;
        };
        kit::pause_point(TOOK_IN_AT);
        if took > 0 {
            // The plan is stale: make it again.
            continue;
        }
        if !super::wait(messages, wake_at, &mut pending) {
            return;
        }
    }
}
