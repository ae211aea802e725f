//! The book's generated assets: one line per file (or pair of files) under
//! `book/src/generated/`, each made by a real run. Adding a stage's pictures
//! or captured outputs is one more line here; `cargo xtask timelines` runs
//! them all.

use crate::timelines::Generator;

/// Every generator, in the book's order. `{out}` is the output directory
/// (`book/src/generated` unless `--out` says otherwise).
pub const GENERATORS: &[Generator] = &[
    // Stages 1 and 2: thread-state timelines of the busy loop and the sleeper.
    Generator::writes(
        "progression",
        "naive_vs_sleep",
        &[
            "--svg",
            "{out}/naive-vs-sleep.svg",
            "--text",
            "{out}/naive-vs-sleep.txt",
        ],
    ),
    // Stage 1: the naive timer waits for free on an empty queue (N2), then
    // burns a core while a task is pending (N1).
    Generator::chart("naive", "sleeps_when_idle", "naive-sleeps-when-idle.txt"),
    // Stage 2: a task due sooner, submitted while the thread sleeps (S1).
    Generator::chart(
        "sleep-based",
        "task_due_sooner",
        "sleep-task-due-sooner.txt",
    ),
    // Stage 3: the lost wake-up, then the timer that cannot lose one.
    Generator::output("condvar-timer", "lost_wakeup", "c1-lost-wakeup.txt"),
    Generator::output(
        "condvar-timer",
        "something_changed",
        "c5-something-changed.txt",
    ),
    // Stage 3: what changed from the racy loop to java.util.Timer's.
    Generator::anchor_diff(
        "condvar-timer",
        "main_loop",
        "src/racy.rs",
        "src/timer_style.rs",
        "racy-to-timer-style.diff",
    ),
    // Stage 3: loom's report on the racy timer.
    Generator::loom_failure("condvar-timer", "loom_racy", "loom-c1-racy.txt"),
    // Stage 4: what each version does when cancelled, in the Java Timer
    // article's four situations: a Markdown table the example prints (a
    // chart's kind, so that the file is the output as is, for an include).
    Generator::chart("poison-pill", "situations", "p-situations.md"),
    // Stage 4: P1, P2 and P3 as timelines of forced runs, every version.
    Generator::writes(
        "poison-pill",
        "cancel_timeline",
        &[
            "p1",
            "--text",
            "{out}/p1-cancel-hangs-idle.txt",
            "--svg",
            "{out}/p1-cancel-hangs-idle.svg",
        ],
    ),
    Generator::writes(
        "poison-pill",
        "cancel_timeline",
        &[
            "p2",
            "--text",
            "{out}/p2-cancel-waits-for-deadline.txt",
            "--svg",
            "{out}/p2-cancel-waits-for-deadline.svg",
        ],
    ),
    Generator::writes(
        "poison-pill",
        "cancel_timeline",
        &[
            "p3",
            "--text",
            "{out}/p3-cancel-notify-race.txt",
            "--svg",
            "{out}/p3-cancel-notify-race.svg",
        ],
    ),
    // Stage 4: fix 1 changes `cancel` and nothing else.
    Generator::anchor_diff(
        "poison-pill",
        "cancel",
        "src/cancel_flag.rs",
        "src/notify_on_cancel.rs",
        "p-cancel-flag-to-notify-on-cancel.diff",
    ),
    // Stage 4: loom's report on notify_on_cancel (P3).
    Generator::loom_failure(
        "poison-pill",
        "loom_notify_on_cancel",
        "p3-loom-notify-on-cancel.txt",
    ),
    // Stage 5: I1, an interrupt raised at every pause point of the take/wait
    // cycle: a Markdown table of forced runs (a chart's kind, for an include).
    Generator::chart(
        "interrupt-cancel",
        "interrupt_every_point",
        "i1-every-point.md",
    ),
    // Stage 5: the check that I2's fix adds to `schedule`.
    Generator::anchor_diff(
        "interrupt-cancel",
        "schedule",
        "src/interrupted_only.rs",
        "src/interrupted_or_dead.rs",
        "i2-interrupted-only-to-or-dead.diff",
    ),
    // Stage 5: I4, the Java Timer article's 70 s task on the one thread.
    Generator::writes(
        "interrupt-cancel",
        "delayed_task",
        &[
            "--text",
            "{out}/i4-delayed-tasks.txt",
            "--svg",
            "{out}/i4-delayed-tasks.svg",
        ],
    ),
    // Stage 5: I5, a periodic task stalled by a long one, both policies.
    Generator::writes(
        "interrupt-cancel",
        "fixed_delay_vs_fixed_rate",
        &[
            "--text",
            "{out}/i5-fixed-delay-vs-fixed-rate.txt",
            "--svg",
            "{out}/i5-fixed-delay-vs-fixed-rate.svg",
        ],
    ),
    // Stage 5: I2 and I6, a panicking task on each of the four timers.
    Generator::writes(
        "interrupt-cancel",
        "panic_timeline",
        &[
            "--text",
            "{out}/i6-panic-kills-timer.txt",
            "--svg",
            "{out}/i6-panic-kills-timer.svg",
        ],
    ),
    // Stage 5: java.util.Timer's way out for a dying thread: close the queue.
    Generator::anchor_diff(
        "interrupt-cancel",
        "main_loop",
        "src/interrupted_only.rs",
        "src/refuses_when_dead.rs",
        "i6-interrupted-only-to-refuses-when-dead.diff",
    ),
    // Stage 5: and `schedule` asks the closed queue instead of the thread.
    Generator::anchor_diff(
        "interrupt-cancel",
        "schedule",
        "src/interrupted_only.rs",
        "src/refuses_when_dead.rs",
        "i6-schedule-interrupted-only-to-refuses-when-dead.diff",
    ),
    // Stage 5: the Java Timer article's closing table, our column measured.
    Generator::chart(
        "interrupt-cancel",
        "java_timer_table",
        "i-java-timer-table.md",
    ),
    // Stage 6: T6, the guard that lets a dead worker go unreplaced.
    Generator::anchor_diff(
        "threadpool-executor",
        "replacement",
        "src/no_replacement.rs",
        "src/worker.rs",
        "t6-no-replacement-to-replacement.diff",
    ),
    // Stage 6: T17, the hooks around a task, caught as one or apart.
    Generator::anchor_diff(
        "threadpool-executor",
        "run_task",
        "src/after_hook_always.rs",
        "src/worker.rs",
        "t17-after-hook-always-to-run-task.diff",
    ),
    // Stage 6: T7, what `execute` does once the task is queued.
    Generator::anchor_diff(
        "threadpool-executor",
        "queued",
        "src/no_recheck.rs",
        "src/pool.rs",
        "t7-no-recheck-to-recheck.diff",
    ),
    // Stage 6: T5, a pool of core 2 and maximum 4 grows in a burst and
    // shrinks back to exactly 2, each worker a lane.
    Generator::writes(
        "threadpool-executor",
        "burst_and_shrink",
        &[
            "--text",
            "{out}/t5-burst-and-shrink.txt",
            "--svg",
            "{out}/t5-burst-and-shrink.svg",
        ],
    ),
    // Stage 6: T10, who wakes at each deadline: the herd, then leader-follower.
    Generator::writes(
        "threadpool-executor",
        "herd_vs_leader",
        &[
            "--text",
            "{out}/t10-herd-vs-leader.txt",
            "--svg",
            "{out}/t10-herd-vs-leader.svg",
        ],
    ),
    // Stage 6: T10 in numbers, wake-ups per deadline for 1, 2, 4, 8 takers.
    Generator::output(
        "threadpool-executor",
        "wakeups_per_deadline",
        "t10-wakeups-per-deadline.txt",
    ),
    // Stage 6: the Java Timer article's closing table, for java.util.Timer
    // and ScheduledThreadPoolExecutor, our two columns measured.
    Generator::chart(
        "threadpool-executor",
        "timer_vs_scheduled_pool",
        "t-timer-vs-scheduled-pool.md",
    ),
    // Stage 7: the wheels drawn from real state (a hashed wheel's buckets
    // and rounds, the hierarchical wheel's levels), and the work of one
    // schedule counted from 2^10 to 2^20 pending (W8).
    Generator::writes(
        "wheel",
        "pictures",
        &[
            "--hashed",
            "{out}/w-hashed-wheel.svg",
            "--levels",
            "{out}/w-levels.svg",
            "--cost",
            "{out}/w-schedule-cost.svg",
            "--text",
            "{out}/w-pictures.txt",
        ],
    ),
    // Stage 7: W2 and W9 forced on the lock-free wheel, each beside the
    // single-owner hashed wheel held at the same moment.
    Generator::output("wheel", "wheel_races", "w-races.txt"),
    // Stage 7: loom's report on the ring publishing with Relaxed (W5).
    Generator::loom_failure(
        "wheel",
        "w5_publication_race",
        "loom-w5-publication-race.txt",
    ),
    // Stage 8: A1, A4, A5 and A6 forced as the tests force them, each
    // beside the fixed timer held at the same moment: their event logs.
    Generator::writes(
        "async-timer",
        "async_races",
        &[
            "--a1",
            "{out}/a1-lost-waker.txt",
            "--a4",
            "{out}/a4-blocking-in-async.txt",
            "--a5",
            "{out}/a5-driver-oversleeps.txt",
            "--a6",
            "{out}/a6-reset-to-past.txt",
        ],
    ),
    // Stage 8: each bug's fix, as what changed from the buggy file.
    Generator::anchor_diff(
        "async-timer",
        "poll",
        "src/racy_poll.rs",
        "src/entry.rs",
        "a1-racy-poll-to-entry.diff",
    ),
    Generator::anchor_diff(
        "async-timer",
        "poll",
        "src/first_waker_only.rs",
        "src/entry.rs",
        "a2-first-waker-only-to-entry.diff",
    ),
    Generator::anchor_diff(
        "async-timer",
        "drop",
        "src/leaky_drop.rs",
        "src/sleep.rs",
        "a3-leaky-drop-to-sleep.diff",
    ),
    Generator::anchor_diff(
        "async-timer",
        "register",
        "src/unparks_idle_only.rs",
        "src/handle.rs",
        "a5-unparks-idle-only-to-handle.diff",
    ),
    Generator::anchor_diff(
        "async-timer",
        "reset",
        "src/reset_without_wake.rs",
        "src/sleep.rs",
        "a6-reset-without-wake-to-sleep.diff",
    ),
    Generator::anchor_diff(
        "async-timer",
        "fire_due",
        "src/wake_under_lock.rs",
        "src/driver.rs",
        "a7-wake-under-lock-to-driver.diff",
    ),
    // Stage 8: loom's reports on the lost waker (A1), the stale waker (A2)
    // and the driver that oversleeps (A5).
    Generator::loom_failure("async-timer", "loom_racy_poll", "loom-a1-racy-poll.txt"),
    Generator::loom_failure(
        "async-timer",
        "loom_first_waker_only",
        "loom-a2-first-waker-only.txt",
    ),
    Generator::loom_failure(
        "async-timer",
        "loom_unparks_idle_only",
        "loom-a5-unparks-idle-only.txt",
    ),
    // Stage 9: D1 to D9 forced as the tests force them, each beside the
    // fixed node held at the same moment: what each node did, on the
    // world's clock, and the rows of `deliveries` and `effects`.
    Generator::writes(
        "durable-timer",
        "durable_races",
        &[
            "--d1",
            "{out}/d1-check-then-claim.txt",
            "--d2",
            "{out}/d2-recurring-aba.txt",
            "--d3",
            "{out}/d3-stale-lease-write.txt",
            "--d4",
            "{out}/d4-renewal-steals-lease.txt",
            "--d5",
            "{out}/d5-clock-skew.txt",
            "--d6",
            "{out}/d6-done-before-run.txt",
            "--d7",
            "{out}/d7-cursor-skips-late-job.txt",
            "--d8",
            "{out}/d8-catch-up-storm.txt",
            "--d9",
            "{out}/d9-duplicate-occurrence.txt",
        ],
    ),
    // Stage 9: each bug's fix, as what changed from the buggy file.
    Generator::anchor_diff(
        "durable-timer",
        "claim",
        "src/check_then_claim.rs",
        "src/claim.rs",
        "d1-check-then-claim-to-claim.diff",
    ),
    Generator::anchor_diff(
        "durable-timer",
        "complete",
        "src/unfenced_write.rs",
        "src/complete.rs",
        "d3-unfenced-write-to-complete.diff",
    ),
    Generator::anchor_diff(
        "durable-timer",
        "renew",
        "src/renew_by_name.rs",
        "src/lease.rs",
        "d4-renew-by-name-to-lease.diff",
    ),
    Generator::anchor_diff(
        "durable-timer",
        "claim",
        "src/node_clock.rs",
        "src/claim.rs",
        "d5-node-clock-to-claim.diff",
    ),
    Generator::anchor_diff(
        "durable-timer",
        "claim",
        "src/cursor_poll.rs",
        "src/claim.rs",
        "d7-cursor-poll-to-claim.diff",
    ),
    Generator::anchor_diff(
        "durable-timer",
        "set",
        "src/every_missed_period.rs",
        "src/claim.rs",
        "d8-every-missed-period-to-claim.diff",
    ),
    Generator::anchor_diff(
        "durable-timer",
        "plan",
        "src/check_then_insert.rs",
        "src/cron.rs",
        "d9-check-then-insert-to-cron.diff",
    ),
];
