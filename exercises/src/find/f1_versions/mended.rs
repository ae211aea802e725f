//! F1 mended: the thread takes in what is waiting first, and plans after,
//! so the plan counts every task it holds. What arrives after the take-in
//! stays in the inbox, and the wait returns with it.

use crossbeam_channel::Receiver;

use super::{Message, PLANNED_AT, Pending, RAN_AT, TOOK_IN_AT};

/// Run, take in, plan, wait.
pub(super) fn run(messages: &Receiver<Message>) {
    let mut pending = Pending::new();
    loop {
        super::run_due(&mut pending);
        kit::pause_point(RAN_AT);
        // Take in first...
        if super::take_in(messages, &mut pending).is_none() {
            return;
        }
        kit::pause_point(TOOK_IN_AT);
        // ...then plan, with everything taken in.
        let wake_at = super::earliest_due(&pending);
        kit::pause_point(PLANNED_AT);
        if !super::wait(messages, wake_at, &mut pending) {
            return;
        }
    }
}
