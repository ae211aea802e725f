//! Wrong: it sleeps and hopes. No pause point: two threads wait at a
//! barrier and run the task at the same moment, hoping the second looks at
//! the state while the first is between its look and its job. That window
//! is a few instructions wide: the two runs nearly always pass it one after
//! the other.
// verdict: never-held

use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Barrier};
use std::thread;

use exercises::catch::t11::Task;

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
    let start = Arc::new(Barrier::new(2));
    let runners: Vec<_> = (0..2)
        .map(|_| {
            let (task, start) = (Arc::clone(&task), Arc::clone(&start));
            thread::spawn(move || {
                start.wait();
                task.run();
            })
        })
        .collect();
    for runner in runners {
        runner.join().expect("a runner");
    }
    let n = runs.load(SeqCst);
    assert!(n == 1, "T11 run_twice: the job ran {n} times");
}
