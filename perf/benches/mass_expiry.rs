//! `mass_expiry`: a million tasks due in the same millisecond, then a
//! million spread over one second (a tenth of that in quick mode), on two
//! worker threads: how late the tasks run (p50, p99, and the last), for
//! the heap `Timer`, the scheduled pool, both wheels, and the peer.
//!
//! ```text
//! cargo bench -p perf --bench mass_expiry
//! ```

use std::time::Duration;

use perf::report::Report;
use perf::{stats, subjects};

fn main() {
    perf::require_shipped_build();
    let mut report = Report::new("mass_expiry");
    let tasks = perf::size(1_000_000, 100_000);
    // Time to schedule them all before the first is due.
    let after = perf::size(Duration::from_secs(2), Duration::from_millis(500));
    let shapes = [
        ("same millisecond", Duration::ZERO),
        ("over one second", Duration::from_secs(1)),
    ];
    for subject in subjects::all().iter().filter(|s| s.pooled) {
        for (group, over) in shapes {
            let timer = (subject.start)("me", 2);
            let sample = perf::load::lateness(&*timer, tasks, after, over);
            drop(timer);
            for (stat, value) in stats::summary(&sample) {
                report.add(group, subject.name, stat, value / 1e3, "ms");
            }
        }
    }
    report.write();
}
