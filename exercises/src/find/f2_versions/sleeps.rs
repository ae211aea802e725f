//! F2 with another bug, P2 of *A timer that will not stop*: it looks and
//! sleeps in the mended order, but once a quiet time has begun it sleeps
//! it out (`thread::sleep`) instead of waiting on the semaphore. Pokes can
//! only push the quiet time later, so it misses none of them: it wakes,
//! finds a later poke, and sleeps again. But a drop's stop waits for the
//! sleep to end, however long the quiet time. Idle, it waits on the
//! semaphore, and a poke or a drop wakes it.

use std::time::Instant;

use super::scheduler::{Shared, quiet_enough};
use crate::find::f2::{AFTER_LOOK_AT, AFTER_WAKE_AT, BEFORE_WAIT_AT};

/// Look and sleep at once; sleep out the quiet time, or wait when idle;
/// decide; act.
pub(super) fn run(shared: &Shared, action: &mut dyn FnMut()) {
    loop {
        let fire_at = {
            let mut state = shared.state.lock();
            if state.stopping {
                return;
            }
            state.sleeping = true;
            state.last_poke.and_then(|at| at.checked_add(shared.quiet))
        };
        kit::pause_point(AFTER_LOOK_AT);
        kit::pause_point(BEFORE_WAIT_AT);
        match fire_at {
            Some(at) => std::thread::sleep(at.saturating_duration_since(Instant::now())),
            None => shared.permits.wait(),
        }
        let act = quiet_enough(shared);
        kit::pause_point(AFTER_WAKE_AT);
        if act {
            action();
        }
    }
}
