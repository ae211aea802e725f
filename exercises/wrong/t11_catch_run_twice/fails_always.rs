//! Wrong: it fails always. It forces the race well, then asserts what no
//! future does: that a task can still be cancelled once it has run. A done
//! task stays done; `cancel` returns false.
// verdict: rejects-correct

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::thread;

use exercises::catch::t11::{Pause, Task, WINDOW};
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
    let pause = Pause::arm(WINDOW, &first);
    let runner = thread::Builder::new()
        .name(first.clone())
        .spawn({
            let task = Arc::clone(&task);
            move || task.run()
        })
        .expect("spawn the first runner");
    pause.wait_reached();
    let second = thread::spawn({
        let task = Arc::clone(&task);
        move || task.run()
    });
    second.join().expect("the second runner");
    pause.release();
    runner.join().expect("the first runner");
    assert!(
        task.cancel(),
        "T11 run_twice: the task could not be cancelled after {} runs",
        runs.load(SeqCst)
    );
}
