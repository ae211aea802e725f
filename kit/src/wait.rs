//! Waiting for a condition that no [`Recorder`](crate::Recorder) event
//! marks: a pool's size, a queue's length, a flag. Polls every
//! millisecond, up to a deadline, so a test waits only as long as it must
//! and never hangs.

use std::time::{Duration, Instant};

/// Polls `condition` every millisecond until it holds or `within` has
/// passed; returns whether it held.
///
/// ```
/// let start = std::time::Instant::now();
/// assert!(kit::eventually(kit::ms(1000), || start.elapsed() >= kit::ms(5)));
/// assert!(!kit::eventually(kit::ms(5), || false));
/// ```
pub fn eventually(within: Duration, mut condition: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + within;
    loop {
        if condition() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
