//! Wrong: it tests how it imagines a correct future is built, not the
//! race. It holds the first runner in the window, runs the task from a
//! second thread, and asserts that the second run waits until the first
//! is let go, as if the claim were a lock every run queues for. It is
//! not: a run that finds the task claimed returns at once, in every
//! correct future, even the one whose claim is a lock that the held runner
//! holds. It fails on every correct future.
// verdict: rejects-correct

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::thread;

use exercises::catch::t11::{Pause, Task, WINDOW};
use kit::{Recorder, ms, threads};

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
    let rec = Recorder::new();
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
    let held = rec.record("first held");
    let second = thread::spawn({
        let (task, rec) = (Arc::clone(&task), rec.clone());
        move || {
            task.run();
            rec.record("second returned");
        }
    });
    let waited = rec.still_absent("second returned", held + ms(200));
    pause.release();
    second.join().expect("the second runner");
    runner.join().expect("the first runner");
    assert!(
        waited.is_ok(),
        "T11 run_twice: the second run returned while the first was held, after {} runs: \
         nothing makes it wait for the first\n{}",
        runs.load(SeqCst),
        rec.log()
    );
}
