//! How fast is it, and why: the benchmarks that measure the finished
//! versions (stage 5's `Timer`, stage 6's pools, stage 7's wheels) beside
//! their peers and the machine's floors, in the same run.
//!
//! Each bench in `benches/` is named for what it measures (`physics`,
//! `fire_latency`, `preempt_wakeup`, `herd`, `cancel_cost`,
//! `periodic_drift`, `idle_cost`, `mass_expiry`). The nanosecond-scale ones
//! use criterion; the ones that measure a distribution, a count or a
//! kernel counter over a workload have a small harness of their own (this
//! crate), and write what they measured to `target/bench-results/<bench>.json`
//! for `cargo xtask bench-report`.
//!
//! ```text
//! cargo bench -p perf                       # everything, a few minutes
//! PERF_QUICK=1 cargo bench -p perf          # each workload once, small (CI)
//! cargo xtask bench-report                  # the table of ratios and verdicts
//! ```

pub mod load;
pub mod report;
pub mod slack;
pub mod stats;
pub mod subjects;
pub mod threads;
pub mod under;

/// Whether to run small (`PERF_QUICK=1`): each workload once, at a fraction
/// of its size, for CI.
pub fn quick() -> bool {
    std::env::var("PERF_QUICK").is_ok_and(|v| v == "1")
}

/// `full` normally, `quick` in quick mode.
pub fn size<T>(full: T, quick: T) -> T {
    if crate::quick() { quick } else { full }
}

/// Criterion's sample size, warm-up and measurement times for the quick
/// mode, shared by the criterion benches; `None` for a full run.
pub fn quick_criterion() -> Option<(usize, std::time::Duration, std::time::Duration)> {
    quick().then_some((
        10,
        std::time::Duration::from_millis(100),
        std::time::Duration::from_millis(300),
    ))
}
