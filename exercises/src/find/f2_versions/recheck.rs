//! F2 mended another way: the steps as written, look and then sleep, each
//! under the lock on its own; but when it says it sleeps, the thread looks
//! again at the last poke, and if one came since its look (and so added no
//! permit), it goes round the loop again instead of into the wait. A poke
//! made while the thread is held at `AFTER_LOOK` costs it one more turn.

use std::time::Instant;

use super::scheduler::{Shared, quiet_enough};
use crate::find::f2::{AFTER_LOOK_AT, AFTER_WAKE_AT, BEFORE_WAIT_AT};

/// Look; sleep, unless a poke came since the look; wait; decide; act.
pub(super) fn run(shared: &Shared, action: &mut dyn FnMut()) {
    loop {
        let (seen, fire_at): (Option<Instant>, _) = {
            let state = shared.state.lock();
            if state.stopping {
                return;
            }
            let seen = state.last_poke;
            (seen, seen.and_then(|at| at.checked_add(shared.quiet)))
        };
        kit::pause_point(AFTER_LOOK_AT);
        {
            let mut state = shared.state.lock();
            if state.last_poke != seen {
                // A poke since the look: it woke nobody, and the look is
                // stale. Look again.
                continue;
            }
            state.sleeping = true;
        }
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
