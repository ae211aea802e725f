//! F2 mended: the thread says it sleeps before it looks, under the same
//! lock, so a poke that comes after the look adds a permit, and the
//! semaphore keeps it until the wait.

use super::scheduler::{Shared, quiet_enough};
use crate::find::f2::{AFTER_LOOK_AT, AFTER_WAKE_AT, BEFORE_WAIT_AT};

/// Look and sleep at once; wait; decide; act.
pub(super) fn run(shared: &Shared, action: &mut dyn FnMut()) {
    loop {
        // 1 and 2 at once: asleep as far as pokes can tell, then look.
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
            Some(at) => {
                shared.permits.wait_until(at);
            }
            None => shared.permits.wait(),
        }
        let act = quiet_enough(shared);
        kit::pause_point(AFTER_WAKE_AT);
        if act {
            action();
        }
    }
}
