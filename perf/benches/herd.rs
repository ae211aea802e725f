//! `herd`: the scheduled pool with 4 and 8 workers and a task due every
//! millisecond: how many times do the workers wake (voluntary context
//! switches, from `/proc`) per task fired? Ours (leader and successor), the
//! JDK's leader-follower, the herd (T10's bug: every idle worker waits
//! timed on the head), and `scheduled-thread-pool`.
//!
//! ```text
//! cargo bench -p perf --bench herd
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::thread;
use std::time::{Duration, Instant};

use perf::report::Report;
use perf::subjects::OneShot;
use perf::threads;
use threadpool_executor::delayed_queue::Wait;
use threadpool_executor::factory::NamedThreads;

fn main() {
    perf::require_shipped_build();
    let mut report = Report::new("herd");
    let tasks = perf::size(1000, 200);
    let variants: [(&str, Option<Wait>); 4] = [
        ("ours: leader and successor", Some(Wait::LeaderSuccessor)),
        ("the JDK's leader-follower", Some(Wait::LeaderFollower)),
        ("herd (T10's bug)", Some(Wait::Herd)),
        ("scheduled-thread-pool", None),
    ];
    for workers in [4, 8] {
        for (v, (name, wait)) in variants.into_iter().enumerate() {
            // Each pool's own prefix: a previous pool's threads may still
            // be on their way out.
            let prefix = &format!("hd{workers}{v}");
            let pool: Box<dyn OneShot> = match wait {
                Some(wait) => Box::new(
                    threadpool_executor::presets::scheduled(workers)
                        .queue_wait(wait)
                        .thread_factory(NamedThreads::with_prefix(format!("{prefix}-")))
                        .build()
                        .expect("a scheduled pool"),
                ),
                None => Box::new(
                    scheduled_thread_pool::ScheduledThreadPool::builder()
                        .num_threads(workers)
                        .thread_name_pattern(&format!("{prefix}-{{}}"))
                        .build(),
                ),
            };
            let per_task = wakeups_per_task(&*pool, prefix, workers, tasks);
            report.add(
                &format!("{workers} workers"),
                name,
                "wakeups/task",
                per_task,
                "",
            );
            drop(pool);
        }
    }
    report.write();
}

/// Starts every worker (a task each, at once), lets them settle, then
/// schedules `tasks` tasks due 1 ms apart and counts the workers' wake-ups
/// until the last has run.
fn wakeups_per_task(pool: &dyn OneShot, prefix: &str, workers: usize, tasks: usize) -> f64 {
    let ran = Arc::new(AtomicUsize::new(0));
    for _ in 0..workers {
        pool.schedule(Duration::ZERO, Box::new(|| ()));
    }
    thread::sleep(Duration::from_millis(50));
    let threads = threads::with_prefix(prefix);
    let (_, before) = threads::totals(&threads);
    let start = Instant::now();
    for i in 0..tasks {
        let ran = Arc::clone(&ran);
        let due = start + Duration::from_millis(i as u64 + 1);
        pool.schedule(
            due.saturating_duration_since(Instant::now()),
            Box::new(move || {
                ran.fetch_add(1, Relaxed);
            }),
        );
    }
    let deadline = Instant::now() + Duration::from_millis(tasks as u64) + Duration::from_secs(10);
    while ran.load(Relaxed) < tasks && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(ran.load(Relaxed), tasks, "every task ran");
    let (_, after) = threads::totals(&threads);
    (after - before) as f64 / tasks as f64
}
