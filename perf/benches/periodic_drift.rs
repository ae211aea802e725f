//! `periodic_drift`: a task every millisecond for ten seconds (one in quick
//! mode). At a fixed rate the count of runs should be the count of periods,
//! 10 000 ± 1, however late single runs are; at a fixed delay every run's
//! lateness pushes all later ones back, and the shortfall is the drift.
//! Ours (stage 5's `Timer`, stage 6's scheduled pool) and the peer,
//! `scheduled-thread-pool`, all six at once.
//!
//! ```text
//! cargo bench -p perf --bench periodic_drift
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::thread;
use std::time::{Duration, Instant};

use interrupt_cancel::timer::Timer;
use perf::report::Report;
use threadpool_executor::scheduled::ScheduledThreadPool;

const PERIOD: Duration = Duration::from_millis(1);

type Counter = Arc<AtomicU64>;

/// Starts a periodic task that counts its runs; returns what keeps it
/// running (dropped to stop it).
type Start = fn(Counter) -> Box<dyn Send>;

fn counting(count: Counter) -> impl FnMut() + Send + 'static {
    move || {
        count.fetch_add(1, Relaxed);
    }
}

fn main() {
    perf::require_shipped_build();
    let mut report = Report::new("periodic_drift");
    let window = perf::size(Duration::from_secs(10), Duration::from_secs(1));
    let subjects: [(&str, &str, Start); 6] = [
        ("fixed rate", "Timer (stage 5)", |c| {
            let t = Timer::new("pd-timer-r").expect("a timer");
            let h = t
                .schedule_at_fixed_rate(PERIOD, PERIOD, counting(c))
                .expect("ok");
            Box::new((t, h))
        }),
        ("fixed delay", "Timer (stage 5)", |c| {
            let t = Timer::new("pd-timer-d").expect("a timer");
            let h = t
                .schedule_with_fixed_delay(PERIOD, PERIOD, counting(c))
                .expect("ok");
            Box::new((t, h))
        }),
        ("fixed rate", "ScheduledThreadPool (stage 6)", |c| {
            let p = ScheduledThreadPool::new(1).expect("a pool");
            let f = p
                .schedule_at_fixed_rate(PERIOD, PERIOD, counting(c))
                .expect("ok");
            Box::new((p, f))
        }),
        ("fixed delay", "ScheduledThreadPool (stage 6)", |c| {
            let p = ScheduledThreadPool::new(1).expect("a pool");
            let f = p
                .schedule_with_fixed_delay(PERIOD, PERIOD, counting(c))
                .expect("ok");
            Box::new((p, f))
        }),
        ("fixed rate", "scheduled-thread-pool", |c| {
            let p = scheduled_thread_pool::ScheduledThreadPool::new(1);
            let h = p.execute_at_fixed_rate(PERIOD, PERIOD, counting(c));
            Box::new((p, h))
        }),
        ("fixed delay", "scheduled-thread-pool", |c| {
            let p = scheduled_thread_pool::ScheduledThreadPool::new(1);
            let h = p.execute_with_fixed_delay(PERIOD, PERIOD, counting(c));
            Box::new((p, h))
        }),
    ];
    let counters: Vec<Counter> = subjects.iter().map(|_| Counter::default()).collect();
    let start = Instant::now();
    let running: Vec<Box<dyn Send>> = subjects
        .iter()
        .zip(&counters)
        .map(|((_, _, run), c)| run(Arc::clone(c)))
        .collect();
    // Every first run is due one period after its start, all within a few
    // microseconds of `start`: read the counts one window later.
    // Half a period past the window: the run due at its very end has had
    // time to start, the next is not due yet.
    thread::sleep((window + PERIOD / 2).saturating_sub(start.elapsed()));
    let counts: Vec<u64> = counters.iter().map(|c| c.load(Relaxed)).collect();
    drop(running);
    let periods = (window.as_micros() / PERIOD.as_micros()) as f64;
    for ((kind, name, _), count) in subjects.iter().zip(counts) {
        report.add(kind, name, "runs", count as f64, "");
        let behind = (periods - count as f64) * PERIOD.as_secs_f64() * 1e3;
        report.add(kind, name, "behind", behind, "ms");
    }
    report.add("expected", "every period", "runs", periods, "");
    report.write();
}
