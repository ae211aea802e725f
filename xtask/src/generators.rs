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
];
