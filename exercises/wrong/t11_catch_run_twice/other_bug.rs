//! Wrong: it catches another bug. It holds the runner in the window and
//! cancels the task there, so that the job never starts and no second run
//! races; then it asserts what a cancel promises beside that: the job, and
//! whatever it captured, is dropped once no run holds it. The task that
//! keeps a second handle on its job (T14's kind: a cancelled task that
//! keeps all it holds) fails it; the one without the claim passes it.
// verdict: catches-another

use std::sync::Arc;
use std::thread;

use exercises::catch::t11::{FutureError, Pause, Task, WINDOW};
use kit::{ms, threads};

#[test]
fn t11_run_twice_caught() {
    let captured = Arc::new(());
    let task = Arc::new(Task::new({
        let captured = Arc::clone(&captured);
        move || {
            let _ = &captured;
            42
        }
    }));
    let first = threads::unique_name("catch-t11");
    let pause = Pause::arm(WINDOW, &first);
    let runner = thread::Builder::new()
        .name(first.clone())
        .spawn({
            let task = Arc::clone(&task);
            move || task.run()
        })
        .expect("spawn the runner");
    pause.wait_reached();
    let cancelled = task.cancel();
    pause.release();
    runner.join().expect("the runner");

    assert!(
        cancelled,
        "T11 run_twice: a task not started could not be cancelled"
    );
    assert_eq!(
        task.get_timeout(ms(1000)),
        Err(FutureError::Cancelled),
        "T11 run_twice: the cancelled task's outcome"
    );
    let holders = Arc::strong_count(&captured);
    assert!(
        holders == 1,
        "T11 run_twice: cancelled, its run over, and the job still holds what it captured \
         ({} handles on it besides the test's)",
        holders - 1
    );
}
