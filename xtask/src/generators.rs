//! The book's generated assets: one line per file (or pair of files) under
//! `book/src/generated/`, each made by a real run. Adding a stage's pictures
//! or captured outputs is one more line here; `cargo xtask timelines` runs
//! them all.

use crate::timelines::Generator;

/// Every generator, in the book's order. `{out}` is the output directory
/// (`book/src/generated` unless `--out` says otherwise).
pub const GENERATORS: &[Generator] = &[
    // Stage 1 vs 2: thread-state timelines of the busy loop and the sleeper.
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
    // Stage 3: the lost wake-up, then the timer that cannot lose one.
    Generator::stdout("condvar-timer", "lost_wakeup", "c1-lost-wakeup.txt"),
    Generator::stdout(
        "condvar-timer",
        "something_changed",
        "c5-something-changed.txt",
    ),
    // Stage 3: loom's report on the racy timer.
    Generator::loom_failure("condvar-timer", "loom_racy", "loom-c1-racy.txt"),
];
