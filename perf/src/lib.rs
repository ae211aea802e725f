//! How fast is it, and why: the benchmarks that measure the finished
//! versions (stage 5's `Timer`, stage 6's pools, stage 7's wheels, stage
//! 8's timer, stage 9's claim) beside their peers and the machine's
//! floors, in the same run.
//!
//! Each bench in `benches/` is named for what it measures: one call
//! (`timer_schedule`, `scheduled_pool`, `cancel_cost`, `wheel_schedule`),
//! a pool's throughput (`pool_throughput`), the floors (`physics`), how
//! late tasks run (`fire_latency`, `mass_expiry`, `periodic_drift`),
//! wake-ups (`preempt_wakeup`, `herd`, `idle_cost`, `syscalls`),
//! instruction counts (`instructions`), and stage 9's nodes claiming jobs
//! from a database (`durable`, whose PostgreSQL half needs the feature
//! `postgres`). Each writes what it measured to
//! `target/bench-results/<bench>.json` for `cargo xtask bench-report`;
//! `physics` uses criterion.
//!
//! They are fair by construction:
//!
//! - **The build a user gets.** Every bench refuses to run when `kit` was
//!   built with its pause points ([`require_shipped_build`]), which a
//!   command that also builds a stage's tests or benches turns on.
//! - **The same work on every side.** A fresh structure filled to the same
//!   count, timed operations that grow no container, realistic inputs
//!   beside the best case ([`workload`]).
//! - **Side by side in time.** Ours, the peer and the floor take turns in
//!   interleaved rounds in one process, and each reports the median and
//!   the range over the rounds ([`rounds`]).
//!
//! ```text
//! cargo bench -p perf                       # everything, several minutes
//! cargo bench -p perf --features postgres   # and `durable` on PostgreSQL
//! PERF_QUICK=1 cargo bench -p perf          # a smoke run, small (CI)
//! cargo xtask bench-report                  # the targets and their verdicts
//! ```

pub mod load;
pub mod peer;
pub mod report;
pub mod rounds;
pub mod sides;
pub mod slack;
pub mod stats;
pub mod subjects;
pub mod threads;
pub mod under;
pub mod workload;

/// Exits with status 2, naming the cause, if `kit` was built with its
/// `pause-points` feature: every stage would then carry its pause points
/// into what the bench times, which is not what a user's build runs.
/// Every bench calls it first.
///
/// `perf` turns the feature on nowhere, but the stages' dev-dependencies
/// do, and cargo unifies a package's features over everything one command
/// builds: `cargo bench --workspace`, or `cargo bench -p perf -p
/// <stage>`, builds the stages' benches and tests too, and turns it on
/// for `perf`'s build as well. `cargo bench -p perf` alone does not.
/// CI builds one bench with the feature on and checks that it refuses
/// (`perf-report`'s `refuses_pause_points`).
pub fn require_shipped_build() {
    if kit::PAUSE_POINTS_COMPILED {
        eprintln!(
            "error: kit was built with its `pause-points` feature, so every stage this bench \
             times carries its pause points, as no user's build does.\n\
             cause: cargo turns a feature on for everything one command builds. A stage's \
             dev-dependency on kit asks for `pause-points`, so a command that also builds a \
             stage's tests or benches (`cargo bench --workspace`, `cargo bench -p perf -p \
             <stage>`) turns it on here too; or it was asked for (`--features \
             kit/pause-points`).\n\
             fix: run the benches on their own: cargo bench -p perf"
        );
        std::process::exit(2);
    }
}

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
