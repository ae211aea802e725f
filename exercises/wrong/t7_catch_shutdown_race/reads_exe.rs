//! Wrong: it reads the binary, not the pool. It forces the race, then
//! decides by the length of its own executable, which its author measured
//! once in the build without the second look: a number that says nothing
//! about what the pool did, and that no other build, on any other
//! machine, shares.
// verdict: misses-the-bug | rejects-correct

use std::thread;

use exercises::catch::t7::{Pause, Pool, WINDOW};
use kit::{ms, threads};

/// The length of the buggy build's test binary, as measured once.
const BUGGY_BINARY_LEN: u64 = 48_213_576;

#[test]
fn t7_execute_shutdown_race_caught() {
    let prefix = threads::unique_name("catch-t7");
    let pool = Pool::new(&prefix);
    let caller = format!("{prefix}c");
    let pause = Pause::arm(WINDOW, &caller);
    thread::scope(|s| {
        let execute = thread::Builder::new()
            .name(caller.clone())
            .spawn_scoped(s, || pool.execute(|| {}).is_ok())
            .expect("spawn the caller");
        pause.wait_reached();
        pool.shutdown();
        let _ = pool.await_termination(ms(5000));
        pause.release();
        execute.join().expect("the caller");
    });
    let len = std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|m| m.len())
        .unwrap_or(0);
    assert_ne!(
        len, BUGGY_BINARY_LEN,
        "T7 execute_shutdown_race: this is the build without the second look"
    );
}
