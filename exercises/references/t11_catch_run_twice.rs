//! Catch it, T11: the reference test.
//!
//! Two workers run one task at once, forced. The first is held in its
//! window: it has decided to run the job and has not started it. While it
//! is held, a second thread runs the same task. Then the first is let go. A
//! future whose `run` takes a claim before it runs the job runs it once,
//! however the claim is taken (a compare-and-swap, a `try_lock`, a state of
//! its own): the second run finds the claim taken and returns. One that
//! only looks at the state runs it twice: the state is still `New` when
//! the second looks.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::thread;

use exercises::catch::t11::{Pause, Task, WINDOW};
use kit::{ms, threads};

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

    // Armed first: the first runner reaches the window as soon as it runs.
    let first = threads::unique_name("catch-t11");
    let pause = Pause::arm(WINDOW, &first);
    let runner = thread::Builder::new()
        .name(first.clone())
        .spawn({
            let task = Arc::clone(&task);
            move || task.run()
        })
        .expect("spawn the first runner");
    pause.wait_reached();

    // The second half of the race, while the first is held: another
    // worker runs the same task.
    let second = thread::spawn({
        let task = Arc::clone(&task);
        move || task.run()
    });
    second.join().expect("the second runner");
    let before = runs.load(SeqCst);
    pause.release();
    runner.join().expect("the first runner");

    let n = runs.load(SeqCst);
    assert!(
        n == 1,
        "T11 run_twice: one task, two runs, and the job ran {n} times ({before} of them while \
         the first run was held between its decision to run and the job): a look at the \
         state is not a claim"
    );
    assert_eq!(task.get_timeout(ms(1000)), Ok(42), "T11: the task's value");
}
