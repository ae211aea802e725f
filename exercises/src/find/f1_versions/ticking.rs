//! F1 without a plan to go stale: the thread wakes at every tick, whatever
//! it holds, as a hashed wheel's ticker does (*A wheel of slots*), and a
//! task runs at the first tick at or after its due time: up to one tick
//! late, well within what a timer promises. A message wakes it early; it
//! takes the message in, and waits for the same tick again.

use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;

use super::{Message, PLANNED_AT, Pending, RAN_AT, TOOK_IN_AT};

/// The tick.
const TICK: Duration = Duration::from_millis(10);

/// Run, plan the next tick, take in, wait for the tick.
pub(super) fn run(messages: &Receiver<Message>) {
    let start = Instant::now();
    let mut pending = Pending::new();
    loop {
        // Only tasks due by the last tick: a task runs on a tick.
        let ticks = start.elapsed().as_nanos() / TICK.as_nanos();
        let last_tick = start + TICK * u32::try_from(ticks).unwrap_or(u32::MAX);
        run_due_by(&mut pending, last_tick);
        kit::pause_point(RAN_AT);
        let wake_at = last_tick + TICK;
        kit::pause_point(PLANNED_AT);
        if super::take_in(messages, &mut pending).is_none() {
            return;
        }
        kit::pause_point(TOOK_IN_AT);
        if !super::wait(messages, Some(wake_at), &mut pending) {
            return;
        }
    }
}

/// Runs every pending task due by `by`, earliest first.
fn run_due_by(pending: &mut Pending, by: Instant) {
    while let Some(i) = super::scheduler::earliest(pending).filter(|&i| pending[i].due <= by) {
        (pending.swap_remove(i).task)();
    }
}
