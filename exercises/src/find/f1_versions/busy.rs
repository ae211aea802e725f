//! F1 with another bug, N1 of *A timer that burns a core*: while a task is
//! pending it never waits, but goes round its loop again at once, looking
//! at the clock and the inbox as fast as it can until the task is due. Its
//! tasks run on time; it burns a core meanwhile. With nothing pending it
//! blocks on the inbox (N2: idle is free).

use crossbeam_channel::Receiver;

use super::{Message, PLANNED_AT, Pending, RAN_AT, TOOK_IN_AT};

/// Run, plan, take in; block only when idle.
pub(super) fn run(messages: &Receiver<Message>) {
    let mut pending = Pending::new();
    loop {
        super::run_due(&mut pending);
        kit::pause_point(RAN_AT);
        // 2. Plan: with a task pending, look again at once.
        kit::pause_point(PLANNED_AT);
        if super::take_in(messages, &mut pending).is_none() {
            return;
        }
        kit::pause_point(TOOK_IN_AT);
        // Idle: wait for a message. Otherwise: look again, at once.
        if pending.is_empty() && !super::wait(messages, None, &mut pending) {
            return;
        }
    }
}
