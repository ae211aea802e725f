//! "Is that thread gone?", asked many times at once.
//!
//! `kit::threads::gone_within` looks through every thread of the process
//! each millisecond it waits. The matrix runs a wave of columns at once,
//! several hundred threads, with dozens of scenarios waiting for a thread
//! to end: each of those looks would read every other thread's name, and
//! together they would keep a core busy. This looks once for the threads
//! of that name, then watches only them: each is gone when its `/proc`
//! entry is, or carries another name (its id given to a new thread).

use std::time::{Duration, Instant};

use kit::threads::{MAX_NAME, tids_named};

/// Whether no thread named `name` is left, waiting at most `within` for
/// the ones there now to end (a thread that starts with that name later
/// is not looked for: every caller asks after the thread has started).
pub fn gone_within(name: &str, within: Duration) -> bool {
    let Ok(tids) = tids_named(name) else {
        return kit::threads::gone_within(name, within);
    };
    let wanted = &name.as_bytes()[..name.len().min(MAX_NAME)];
    let named = |tid: i32| {
        std::fs::read(format!("/proc/self/task/{tid}/comm"))
            .is_ok_and(|comm| comm.strip_suffix(b"\n").unwrap_or(&comm) == wanted)
    };
    let deadline = Instant::now() + within;
    loop {
        if !tids.iter().any(|&tid| named(tid)) {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
