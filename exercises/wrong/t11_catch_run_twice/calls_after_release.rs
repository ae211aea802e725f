//! Wrong: it holds the first runner, but starts the second run only after
//! the release. Whether the second looks at the state before the first has
//! finished the job is then up to the scheduler: it catches the bug when
//! the second run wins, and misses it when the first does.
// verdict: luck | misses-the-bug

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
    pause.release();
    task.run();
    runner.join().expect("the first runner");
    let n = runs.load(SeqCst);
    assert!(n == 1, "T11 run_twice: the job ran {n} times");
}
