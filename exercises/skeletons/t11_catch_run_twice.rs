//! Catch it, T11: write the test that catches a scheduled task's job run
//! twice, the future of *Timers on a pool*.
//!
//! `exercises::catch::t11` is a task behind which one of several versions
//! runs: one whose `run` looks at the state and, seeing it `New`, runs the
//! job; correct ones, whose `run` takes a claim first (the stage's by
//! compare-and-swap), so that a second run returns at once; and futures
//! with other bugs. Your test cannot tell which it got, except by what the
//! task does. The check runs it against each of them, several times, some
//! with every core busy: it must fail on the one without the claim every
//! time, by an assertion of yours, and pass on every correct one every
//! time.
//!
//! Do not hope for the race: force it. `WINDOW` is a runner's race window
//! (it has decided to run the job and has not started it), and
//! `Pause::arm(WINDOW, &name)` holds the thread named `name` there until
//! you release it. A test that sleeps and hopes instead is told so.
//!
//! Check: `cargo xtask exercise check t11-catch`. Hints:
//! `cargo xtask exercise hint t11-catch`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::thread;

use exercises::catch::t11::Task;
use kit::threads;

#[test]
fn t11_run_twice_caught() {
    let runs = Arc::new(AtomicUsize::new(0));
    let task = Arc::new(Task::new({
        let runs = Arc::clone(&runs);
        move || {
            runs.fetch_add(1, SeqCst);
            42
        }
    }));
    let first = threads::unique_name("catch-t11");

    // TODO(T11): arm the pause here, for the thread named `first`, before
    // it runs the task.

    let runner = thread::Builder::new()
        .name(first.clone())
        .spawn({
            let task = Arc::clone(&task);
            move || task.run()
        })
        .expect("spawn the first runner");

    // TODO(T11): wait until the first runner is held there. While it is
    // held, run the same task from a second thread, and join that thread.
    // Then release the pause, join the first runner, and assert that the
    // job ran once (`runs`), in a message that starts with "T11".

    runner.join().expect("the first runner");
}
