//! Filing a timer that wakes the driver only when it has nothing to do
//! (A5 `driver_oversleeps`): stage 2's S1 again, a sleeper that cannot
//! see an earlier task.
//!
//! The reasoning behind it sounds right: a driver with no timer sleeps
//! for ever and must be woken; a driver with a timer will wake for it
//! anyway. But it wakes for *its* timer, the next deadline it knew. A
//! `Sleep` due sooner, filed from another thread meanwhile, waits in the
//! wheel until then. The fix (`handle.rs`, `register`) compares the new
//! tick with the plan the driver published, and unparks it whenever the
//! new one is sooner: tokio's `reregister` does the same with its
//! `next_wake` (tokio 1.53.1, runtime/time/mod.rs).

use std::sync::Arc;
use std::time::Instant;

use wheel::levels::Key;

use crate::entry::{Entry, Status};
use crate::handle::{Filing, Handle, IDLE};

// ANCHOR: register
/// `register`, waking an idle driver only.
pub(crate) fn register(handle: &Handle, deadline: Instant, entry: &Arc<Entry>) -> Option<Key> {
    let mut state = handle.shared.state.lock();
    let status = match handle.filing(&state, deadline) {
        Filing::Wheel(tick) => {
            let key = state.wheel.insert(tick, Arc::clone(entry));
            // BUG (A5): a driver asleep until a later tick is not woken.
            if state.plan == IDLE
                && let Some(driver) = &state.driver
            {
                driver.unpark();
            }
            return Some(key);
        }
        Filing::Due => Status::Fired,
        Filing::Refused(error) => Status::Failed(error),
    };
    drop(state);
    if let Some(waker) = entry.complete(status) {
        waker.wake();
    }
    None
}
// ANCHOR_END: register
