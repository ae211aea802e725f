//! Many tasks at once: how late each one runs.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::thread;
use std::time::{Duration, Instant};

use crate::subjects::OneShot;

/// Schedules `tasks` tasks from this thread, due `after` from now and then
/// evenly over `over` (zero: all at the same instant), waits until every
/// one has run, and returns how late each ran.
///
/// # Panics
/// If they have not all run 30 s after the last was due.
pub fn lateness(
    timer: &dyn OneShot,
    tasks: usize,
    after: Duration,
    over: Duration,
) -> Vec<Duration> {
    let late: Arc<Vec<AtomicU64>> = Arc::new((0..tasks).map(|_| AtomicU64::new(0)).collect());
    let done = Arc::new(AtomicUsize::new(0));
    let start = Instant::now() + after;
    for i in 0..tasks {
        let due = start + over.mul_f64(i as f64 / tasks as f64);
        let (late, done) = (Arc::clone(&late), Arc::clone(&done));
        timer.schedule(
            due.saturating_duration_since(Instant::now()),
            Box::new(move || {
                let by = Instant::now().saturating_duration_since(due);
                late[i].store(u64::try_from(by.as_nanos()).unwrap_or(u64::MAX), Relaxed);
                done.fetch_add(1, Relaxed);
            }),
        );
    }
    let deadline = start + over + Duration::from_secs(30);
    while done.load(Relaxed) < tasks && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(done.load(Relaxed), tasks, "every task ran");
    late.iter()
        .map(|l| Duration::from_nanos(l.load(Relaxed)))
        .collect()
}
