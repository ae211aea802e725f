//! Catch it, N1 `busy_wait`: write the test that catches the timer that
//! burns a core, of *A timer that burns a core*.
//!
//! `exercises::catch::n1` is a timer behind which one of several versions
//! runs: the busy loop, whose thread takes a task that is not due, puts it
//! back and takes it again; correct timers, whose threads block until the
//! task is due; and timers with other bugs. Your test cannot tell which it
//! got, except by what the timer does. The check runs it against every
//! one, part of the runs with every core busy: it must fail on the busy
//! loop every time, by an assertion of yours, and pass on every correct
//! timer every time.
//!
//! This bug is no race: nothing to hold still. What the busy loop costs is
//! a core, so measure it. `kit::cpu::measure(&name, window)` measures the
//! thread named `name` by its own CPU clock over `window`, and says whether
//! it was busy.
//!
//! Check: `cargo xtask exercise check n1-catch`. Hints:
//! `cargo xtask exercise hint n1-catch`.

use exercises::catch::n1::Timer;
use kit::{ms, threads};

#[test]
fn n1_busy_wait_caught() {
    let name = threads::unique_name("catch-n1");
    let timer = Timer::new(&name).expect("start the timer");
    timer.schedule(ms(1000), || {}).expect("a small delay");

    // TODO(N1): while the task waits to be due, measure the timer thread
    // for 500 ms (`kit::cpu::measure`), then drop the timer, and assert
    // that the thread was idle, in a message that starts with "N1".

    drop(timer);
}
