//! F1 with another bug, S1 of *A timer that oversleeps*: it takes in and
//! plans in the mended order, but then sleeps until the task it planned
//! for (`thread::sleep`), deaf to its inbox. A task due sooner, sent while
//! it sleeps, runs only when it wakes. With nothing pending it blocks on
//! the inbox, so a task sent to an idle timer is on time.

use std::time::Instant;

use crossbeam_channel::Receiver;

use super::{Message, PLANNED_AT, Pending, RAN_AT, TOOK_IN_AT};

/// Run, take in, plan, then sleep until the plan, or block when idle.
pub(super) fn run(messages: &Receiver<Message>) {
    let mut pending = Pending::new();
    loop {
        super::run_due(&mut pending);
        kit::pause_point(RAN_AT);
        if super::take_in(messages, &mut pending).is_none() {
            return;
        }
        kit::pause_point(TOOK_IN_AT);
        let wake_at = super::earliest_due(&pending);
        kit::pause_point(PLANNED_AT);
        match wake_at {
            Some(at) => std::thread::sleep(at.saturating_duration_since(Instant::now())),
            None => {
                if !super::wait(messages, None, &mut pending) {
                    return;
                }
            }
        }
    }
}
