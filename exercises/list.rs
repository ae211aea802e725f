// The exercises, one row each. This file is read by the build scripts of
// the `exercises` crate (which decides whose file each fix-it module is, and
// which version each catch-it's API wraps) and of `exercises/catch` (which
// decides whose tests its target holds), by the exercises crate itself (the
// record's prefix), and by the course runner, `exercises/runner` (which
// lists, starts, checks, resets and grades them).
//
// A fix-it exercise is a row here, a skeleton in `skeletons/<name>.rs`,
// hints in `hints/<name>.md` and a check in `tests/<name>.rs` (with its
// `[[test]]` in Cargo.toml). A catch-it exercise is a row, a skeleton
// test, hints, a reference test in `references/<name>.rs`, wrong tests in
// `wrong/<name>/`, right tests (if any beside the reference) in
// `right/<name>/`, and its versions behind one API in `src/catch/` (see
// `book/src/exercises.md`, "Adding a catch-it exercise"). A find-it is
// laid out the same way, but for the file a student reads, `find/<name>.rs`
// (the scheduler as written, its API and pause points), and its other
// versions, in `src/find/<key>_versions.rs`; hints in `hints/<name>.md` if
// it has any ("Adding a find-it"). A model-it exercise lives in the
// `exercise-models` crate (`exercise-models/`), and `cargo xtask
// model-check` grades it.

/// What the student writes, and how it is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// The build script reads no variant but `Fix`.
#[allow(dead_code)]
pub enum Kind {
    /// Fix it: the code, from a skeleton with the fix taken out; the
    /// stage's correctness check judges it.
    Fix,
    /// Catch it: a test that catches a named bug; it must fail on the buggy
    /// version and pass on the fixed one, every time.
    Catch,
    /// Model it: a loom model that finds the bug and passes the fix
    /// (`exercises/exercise-models/`, graded by `cargo xtask model-check`).
    Model,
    /// Find it: a test that catches a bug the exercise does not name;
    /// judged as a catch-it is.
    Find,
}

/// One exercise.
// Each of the two programs reads only some of the fields.
#[allow(dead_code)]
pub struct Exercise {
    /// What the student writes.
    pub kind: Kind,
    /// Its name: the module or test module, the skeleton's file name, a
    /// fix-it's check (`c4_one_lock`). It starts with the ID, and for any
    /// kind but fix it, the kind's word: `c1_catch_lost_wakeup`.
    pub name: &'static str,
    /// The catalogue ID the exercise is about (`C4`).
    pub id: &'static str,
    /// The ID the check names in red until the exercise is done: for a fix
    /// it, the bug the exercise removes (C4's check shows C1, the lost
    /// wake-up); for a catch it, the bug the test must catch.
    pub shows: &'static str,
    /// A short name for the task.
    pub title: &'static str,
    /// The chapter that teaches it, in `book/src/`.
    pub chapter: &'static str,
    /// Fix it: the stage's fixed version, as a module path (in solution
    /// mode the exercise's module re-exports it). Catch it, find it: the
    /// module the student's test uses, its versions behind one API
    /// (`exercises::catch::c1`, `exercises::find::f2`).
    pub solution: &'static str,
    /// The file `exercise solution` prints, from the workspace root: the
    /// stage's fixed version, or a catch-it's or find-it's reference test.
    pub solution_file: &'static str,
    /// Fix it: the solution's pause points where the check holds the timer
    /// thread, as the constants the skeleton declares (`WINDOW`, ...); none
    /// if the check holds no thread. Other kinds: none.
    pub solution_points: &'static [(&'static str, &'static str)],
    /// Catch it, find it: every version behind the exercise's API, each
    /// built into a binary of its own, the first the reference fixed one
    /// (the default build); among them the named bug's ([`Exercise::shows`])
    /// and at least two more correct and two more buggy ones. Model it: the
    /// buggy and the fixed version the model is of. Fix it: none.
    pub versions: &'static [Version],
    /// Mistakes students are known to make here, and what the check says
    /// when it finds one in a file that fails.
    pub mistakes: &'static [Mistake],
    /// Catch it, find it: whether the bug is a race, which a test must
    /// force by holding a thread at a pause point (the exercise's
    /// `WINDOW`). False for a bug with no race in it (N1's busy wait, I6's
    /// dead timer): a test catches it by measuring, or by waiting for what
    /// must happen, and the check asks for no thread held. Fix it: unread.
    pub forced: bool,
}

/// One version of a catch-it's or find-it's timer. The grader builds each
/// into a binary of its own, in which every name a test can reach is the
/// same: a test tells them apart by what the timer does, or not at all.
#[allow(dead_code)]
pub struct Version {
    /// Its name, the value of the exercise's `cfg` that picks it in the
    /// exercises crate (`timer_style`); nothing a test can read.
    pub name: &'static str,
    /// `None` for a correct version (a wheat); for a buggy one (a chaff),
    /// its bug's ID in the catalogue, or the exercise's own ID for a
    /// find-it's bug.
    pub bug: Option<&'static str>,
    /// Where a reader finds it, from the workspace root.
    pub file: &'static str,
}

impl Version {
    /// A correct version.
    pub const fn wheat(name: &'static str, file: &'static str) -> Version {
        Version {
            name,
            bug: None,
            file,
        }
    }

    /// A version with the bug `bug`.
    pub const fn chaff(name: &'static str, bug: &'static str, file: &'static str) -> Version {
        Version {
            name,
            bug: Some(bug),
            file,
        }
    }
}

/// How many versions one exercise may have: the grader builds one binary
/// per slot, and a build of slot k runs every exercise's k-th version
/// (features `slot-1` to `slot-7` of the exercises crate; slot 0, the
/// first version, is the default build).
pub const SLOTS: usize = 8;

/// What the exercises' API writes to standard error, straight to the file
/// descriptor (a test's capture does not take it), before each line of its
/// record for the grader: `held at WINDOW`, `call schedule while held at
/// WINDOW`.
pub const RECORD_PREFIX: &str = "\u{1}exercise-record: ";

/// A mistake a check recognises in a student's file.
#[allow(dead_code)]
pub struct Mistake {
    /// What one statement (or `use`) of the file holds, read as Rust: its
    /// tokens with no spaces, comments and the text of strings left out;
    /// every piece of it: `["let_=", "block_on("]` finds
    /// `let _ = token.block_on(waker)?;`.
    pub holds: &'static [&'static str],
    /// What the check says, naming the mistake.
    pub says: &'static str,
}

/// The fields a fix-it row leaves as they are.
const FIX: Exercise = Exercise {
    kind: Kind::Fix,
    name: "",
    id: "",
    shows: "",
    title: "",
    chapter: "",
    solution: "",
    solution_file: "",
    solution_points: &[],
    versions: &[],
    mistakes: &[],
    forced: true,
};

/// What every catch-it's check says when a student's test arms kit's own
/// pause instead of the exercise's.
const KIT_PAUSE: Mistake = Mistake {
    holds: &["kit::pause::"],
    says: "it reaches for `kit::pause`, which a catch-it's test cannot reach: kit's points are \
           named after one version's file, and would tell the versions apart. Arm the \
           exercise's `Pause` with `WINDOW` (both come from the exercise's module): it holds \
           the thread at the same place whichever version runs.",
};

/// What a find-it's check says when a student's test arms kit's own pause:
/// the check then cannot see the thread held.
const FIND_KIT_PAUSE: Mistake = Mistake {
    holds: &["kit::pause::"],
    says: "it reaches for `kit::pause`, which a find-it's test cannot reach. Arm the \
           exercise's `Pause` (from the scheduler's module, `exercises::find::<key>`) with one \
           of the scheduler's points (`AFTER_LOOK`, ...): it holds the thread at the same \
           place whichever version runs, and the check knows it was held.",
};

/// Every exercise, in teaching order.
pub const EXERCISES: &[Exercise] = &[
    Exercise {
        name: "n1_wait_dont_spin",
        id: "N1",
        shows: "N1",
        title: "make the busy loop wait instead of spin",
        chapter: "ch01-naive.md",
        solution: "sleep_based::sleep_until",
        solution_file: "sleep-based/src/sleep_until.rs",
        ..FIX
    },
    Exercise {
        kind: Kind::Catch,
        name: "n1_catch_busy_wait",
        id: "N1",
        shows: "N1",
        title: "a test that catches the timer burning a core",
        chapter: "ch01-naive.md",
        solution: "exercises::catch::n1",
        solution_file: "exercises/references/n1_catch_busy_wait.rs",
        versions: &[
            Version::wheat("timer_style", "condvar-timer/src/timer_style.rs"),
            Version::wheat("something_changed", "condvar-timer/src/something_changed.rs"),
            Version::wheat("poison_pill", "poison-pill/src/poison_pill.rs"),
            Version::chaff("busy_loop", "N1", "naive/src/busy_loop.rs"),
            Version::chaff("sleep_until", "S1", "sleep-based/src/sleep_until.rs"),
            Version::chaff("racy", "C1", "condvar-timer/src/racy.rs"),
        ],
        // A busy wait is no race: its test measures, and holds no thread.
        forced: false,
        ..FIX
    },
    Exercise {
        kind: Kind::Find,
        name: "f1_find_inbox_timer",
        id: "F1",
        shows: "F1",
        title: "find the bug in a timer that waits on its inbox",
        chapter: "ch01-naive.md",
        solution: "exercises::find::f1",
        solution_file: "exercises/references/f1_find_inbox_timer.rs",
        versions: &[
            Version::wheat("mended", "exercises/src/find/f1_versions/mended.rs"),
            Version::wheat("replan", "exercises/src/find/f1_versions/replan.rs"),
            Version::wheat("ticking", "exercises/src/find/f1_versions/ticking.rs"),
            Version::chaff("as_written", "F1", "exercises/find/f1_find_inbox_timer.rs"),
            Version::chaff("sleeps", "S1", "exercises/src/find/f1_versions/sleeps.rs"),
            Version::chaff("busy", "N1", "exercises/src/find/f1_versions/busy.rs"),
        ],
        mistakes: &[FIND_KIT_PAUSE],
        ..FIX
    },
    Exercise {
        name: "s1_notice_earlier_task",
        id: "S1",
        shows: "S1",
        title: "make the sleeping timer notice an earlier task",
        chapter: "ch02-sleep-based.md",
        solution: "condvar_timer::timer_style",
        solution_file: "condvar-timer/src/timer_style.rs",
        solution_points: &[(
            "WINDOW",
            "condvar-timer::timer_style: peeked the head, not yet waiting",
        )],
        ..FIX
    },
    Exercise {
        kind: Kind::Catch,
        name: "s1_catch_missed_task",
        id: "S1",
        shows: "S1",
        title: "a test that catches the sleeper missing an earlier task",
        chapter: "ch02-sleep-based.md",
        solution: "exercises::catch::s1",
        solution_file: "exercises/references/s1_catch_missed_task.rs",
        versions: &[
            Version::wheat("timer_style", "condvar-timer/src/timer_style.rs"),
            Version::wheat("something_changed", "condvar-timer/src/something_changed.rs"),
            Version::wheat("poison_pill", "poison-pill/src/poison_pill.rs"),
            Version::chaff("sleep_until", "S1", "sleep-based/src/sleep_until.rs"),
            Version::chaff("racy", "C1", "condvar-timer/src/racy.rs"),
            Version::chaff("busy_loop", "N1", "naive/src/busy_loop.rs"),
        ],
        mistakes: &[KIT_PAUSE],
        ..FIX
    },
    Exercise {
        name: "c4_one_lock",
        id: "C4",
        shows: "C1",
        title: "close the lost wake-up with one lock",
        chapter: "ch03-lost-wakeup.md",
        solution: "condvar_timer::timer_style",
        solution_file: "condvar-timer/src/timer_style.rs",
        solution_points: &[(
            "WINDOW",
            "condvar-timer::timer_style: peeked the head, not yet waiting",
        )],
        ..FIX
    },
    Exercise {
        kind: Kind::Catch,
        name: "c1_catch_lost_wakeup",
        id: "C1",
        shows: "C1",
        title: "a test that catches the lost wake-up",
        chapter: "ch03-lost-wakeup.md",
        solution: "exercises::catch::c1",
        solution_file: "exercises/references/c1_catch_lost_wakeup.rs",
        versions: &[
            Version::wheat("timer_style", "condvar-timer/src/timer_style.rs"),
            Version::wheat("something_changed", "condvar-timer/src/something_changed.rs"),
            Version::wheat("poison_pill", "poison-pill/src/poison_pill.rs"),
            Version::chaff("racy", "C1", "condvar-timer/src/racy.rs"),
            Version::chaff("sleep_until", "S1", "sleep-based/src/sleep_until.rs"),
            Version::chaff("busy_loop", "N1", "naive/src/busy_loop.rs"),
        ],
        mistakes: &[KIT_PAUSE],
        ..FIX
    },
    Exercise {
        kind: Kind::Model,
        name: "c1_model_lost_wakeup",
        id: "C1",
        shows: "C1",
        title: "a loom model that finds the lost wake-up",
        chapter: "ch03-lost-wakeup.md",
        solution: "exercise_models::c1",
        solution_file: "exercises/exercise-models/references/c1_model_lost_wakeup.rs",
        versions: &[
            Version::wheat("fixed", "condvar-timer/src/timer_style.rs"),
            Version::chaff("buggy", "C1", "condvar-timer/src/racy.rs"),
        ],
        ..FIX
    },
    Exercise {
        name: "c5_semaphore",
        id: "C5",
        shows: "C5",
        title: "a semaphore that remembers a notify",
        chapter: "ch03b-something-changed.md",
        solution: "condvar_timer::semaphore",
        solution_file: "condvar-timer/src/semaphore.rs",
        ..FIX
    },
    Exercise {
        kind: Kind::Find,
        name: "f2_find_debouncer",
        id: "F2",
        shows: "F2",
        title: "find the bug in a debouncer",
        chapter: "ch03b-something-changed.md",
        solution: "exercises::find::f2",
        solution_file: "exercises/references/f2_find_debouncer.rs",
        versions: &[
            Version::wheat("mended", "exercises/src/find/f2_versions/mended.rs"),
            Version::wheat("recheck", "exercises/src/find/f2_versions/recheck.rs"),
            Version::wheat("one_lock", "exercises/src/find/f2_versions/condvar.rs"),
            Version::chaff("as_written", "F2", "exercises/find/f2_find_debouncer.rs"),
            Version::chaff("lost_notify", "C1", "exercises/src/find/f2_versions/condvar.rs"),
            Version::chaff("sleeps", "P2", "exercises/src/find/f2_versions/sleeps.rs"),
        ],
        mistakes: &[FIND_KIT_PAUSE],
        ..FIX
    },
    Exercise {
        name: "p4_poison_pill",
        id: "P4",
        shows: "P1",
        title: "a cancel the thread cannot miss",
        chapter: "ch04-poison-pill.md",
        solution: "poison_pill::disconnect",
        solution_file: "poison-pill/src/disconnect.rs",
        solution_points: &[
            (
                "IDLE",
                "poison-pill::disconnect: heap empty, about to receive",
            ),
            (
                "WAIT",
                "poison-pill::disconnect: drained the channel, about to wait",
            ),
        ],
        ..FIX
    },
    Exercise {
        kind: Kind::Catch,
        name: "p3_catch_cancel_race",
        id: "P3",
        shows: "P3",
        title: "a test that catches the cancel nobody hears",
        chapter: "ch04-poison-pill.md",
        solution: "exercises::catch::p3",
        solution_file: "exercises/references/p3_catch_cancel_race.rs",
        versions: &[
            Version::wheat("poison_pill", "poison-pill/src/poison_pill.rs"),
            Version::wheat("timer_style", "poison-pill/src/timer_style.rs"),
            Version::wheat("disconnect", "poison-pill/src/disconnect.rs"),
            Version::wheat("refuses_when_dead", "interrupt-cancel/src/refuses_when_dead.rs"),
            Version::chaff("notify_on_cancel", "P3", "poison-pill/src/notify_on_cancel.rs"),
            Version::chaff("cancel_flag", "P2", "poison-pill/src/cancel_flag.rs"),
            Version::chaff("two_conditions", "P1", "exercises/src/catch/p3/two_conditions.rs"),
        ],
        mistakes: &[KIT_PAUSE],
        ..FIX
    },
    Exercise {
        kind: Kind::Model,
        name: "p3_model_cancel_notify_race",
        id: "P3",
        shows: "P3",
        title: "a loom model that finds the cancel nobody hears",
        chapter: "ch04-poison-pill.md",
        solution: "exercise_models::p3",
        solution_file: "exercises/exercise-models/references/p3_model_cancel_notify_race.rs",
        versions: &[
            Version::wheat("fixed", "poison-pill/src/poison_pill.rs"),
            Version::chaff("buggy", "P3", "poison-pill/src/notify_on_cancel.rs"),
        ],
        ..FIX
    },
    Exercise {
        name: "i1_interruptible_take",
        id: "I1",
        shows: "P1",
        title: "a take an interrupt can end",
        chapter: "ch05-interrupt-cancel.md",
        solution: "interrupt_cancel::interruptible_queue",
        solution_file: "interrupt-cancel/src/interruptible_queue.rs",
        solution_points: &[
            (
                "IDLE",
                "interrupt-cancel::interruptible_queue: queue empty, not yet waiting",
            ),
            (
                "WAIT",
                "interrupt-cancel::interruptible_queue: head not due, not yet waiting",
            ),
        ],
        mistakes: &[Mistake {
            holds: &["let_=", "block_on("],
            says: "`let _ = token.block_on(..)` drops what `block_on` returns at the end of \
                   that statement: `let _` binds nothing, so the `Blocked` guard goes at once, \
                   and the waker it registered goes with it. The interrupt then finds no waker \
                   to call, and `take` sleeps on as if nothing had been registered. Keep the \
                   guard until `take` returns: `let _blocked = token.block_on(..)?;`.",
        }],
        ..FIX
    },
    Exercise {
        kind: Kind::Catch,
        name: "i6_catch_dead_timer",
        id: "I6",
        shows: "I6",
        title: "a test that catches the dead timer that still takes work",
        chapter: "ch05-interrupt-cancel.md",
        solution: "exercises::catch::i6",
        solution_file: "exercises/references/i6_catch_dead_timer.rs",
        versions: &[
            Version::wheat("timer", "interrupt-cancel/src/timer.rs"),
            Version::wheat("scheduled_pool", "threadpool-executor/src/scheduled.rs"),
            Version::wheat("respawn", "exercises/src/catch/i6/respawn.rs"),
            Version::chaff("interrupted_only", "I6", "interrupt-cancel/src/interrupted_only.rs"),
            Version::chaff("cancel_flag", "P1", "poison-pill/src/cancel_flag.rs"),
            Version::chaff("notify_on_cancel", "P3", "poison-pill/src/notify_on_cancel.rs"),
        ],
        // A thread killed by a panic is no race: its test waits for what
        // must happen, and holds no thread.
        forced: false,
        ..FIX
    },
    Exercise {
        kind: Kind::Find,
        name: "f3_find_lease_renewer",
        id: "F3",
        shows: "F3",
        title: "find the bug in a lease renewer",
        chapter: "ch05-interrupt-cancel.md",
        solution: "exercises::find::f3",
        solution_file: "exercises/references/f3_find_lease_renewer.rs",
        versions: &[
            Version::wheat("mended", "exercises/src/find/f3_versions/condvar.rs"),
            Version::wheat(
                "token_sleep",
                "exercises/src/find/f3_versions/token_sleep.rs",
            ),
            Version::wheat("park", "exercises/src/find/f3_versions/park.rs"),
            Version::chaff(
                "as_written",
                "F3",
                "exercises/find/f3_find_lease_renewer.rs",
            ),
            Version::chaff(
                "asks_unlocked",
                "P3",
                "exercises/src/find/f3_versions/condvar.rs",
            ),
            Version::chaff(
                "no_waker",
                "P2",
                "exercises/src/find/f3_versions/condvar.rs",
            ),
        ],
        mistakes: &[FIND_KIT_PAUSE],
        ..FIX
    },
    Exercise {
        name: "t7_recheck",
        id: "T7",
        shows: "T7",
        title: "no task stranded by shutdown",
        chapter: "ch06-threadpool-executor.md",
        solution: "crate::solutions::t7_recheck",
        solution_file: "threadpool-executor/src/pool.rs",
        solution_points: &[(
            "WINDOW",
            "threadpool-executor::pool: saw the pool running, not yet queued",
        )],
        ..FIX
    },
    Exercise {
        kind: Kind::Catch,
        name: "t7_catch_shutdown_race",
        id: "T7",
        shows: "T7",
        title: "a test that catches the task stranded by shutdown",
        chapter: "ch06-threadpool-executor.md",
        solution: "exercises::catch::t7",
        solution_file: "exercises/references/t7_catch_shutdown_race.rs",
        // The ways of `Staged` (hand_off, one_at_a_time, the dropped queue)
        // are the stage's pool built or wrapped in t7.rs.
        versions: &[
            Version::wheat("fixed", "threadpool-executor/src/pool.rs"),
            Version::wheat("closing_queue", "exercises/src/catch/t7/closing_queue.rs"),
            Version::wheat("hand_off", "exercises/src/catch/t7.rs"),
            Version::wheat("one_at_a_time", "exercises/src/catch/t7.rs"),
            Version::chaff("no_recheck", "T7", "threadpool-executor/src/no_recheck.rs"),
            Version::chaff(
                "no_replacement",
                "T6",
                "threadpool-executor/src/no_replacement.rs",
            ),
            Version::chaff("shutdown_drops_queue", "T8", "exercises/src/catch/t7.rs"),
        ],
        mistakes: &[KIT_PAUSE],
        ..FIX
    },
    Exercise {
        kind: Kind::Model,
        name: "t7_model_execute_shutdown_race",
        id: "T7",
        shows: "T7",
        title: "a loom model that finds the stranded task",
        chapter: "ch06-threadpool-executor.md",
        solution: "exercise_models::t7",
        solution_file: "exercises/exercise-models/references/t7_model_execute_shutdown_race.rs",
        versions: &[
            Version::wheat("fixed", "threadpool-executor/src/pool.rs"),
            Version::chaff("buggy", "T7", "threadpool-executor/src/no_recheck.rs"),
        ],
        ..FIX
    },
    Exercise {
        name: "t10_leader_follower",
        id: "T10",
        shows: "T10",
        title: "one leader waits for the head, not the whole herd",
        chapter: "ch06b-scheduled-pool.md",
        solution: "crate::solutions::t10_leader_follower",
        solution_file: "threadpool-executor/src/delayed_queue.rs",
        solution_points: &[(
            "TOOK",
            "threadpool-executor::delayed_queue: took an item, leadership handed on",
        )],
        ..FIX
    },
    Exercise {
        kind: Kind::Catch,
        name: "t11_catch_run_twice",
        id: "T11",
        shows: "T11",
        title: "a test that catches a task's job run twice",
        chapter: "ch06b-scheduled-pool.md",
        solution: "exercises::catch::t11",
        solution_file: "exercises/references/t11_catch_run_twice.rs",
        // The stage has one future; the others are the exercise's own
        // (keeps_job wraps the stage's).
        versions: &[
            Version::wheat("fixed", "threadpool-executor/src/future.rs"),
            Version::wheat("job_lock", "exercises/src/catch/t11/job_lock.rs"),
            Version::wheat("one_lock", "exercises/src/catch/t11/one_lock.rs"),
            Version::chaff("unclaimed", "T11", "exercises/src/catch/t11/unclaimed.rs"),
            Version::chaff("keeps_job", "T14", "exercises/src/catch/t11/keeps_job.rs"),
            Version::chaff(
                "panic_escapes",
                "T12",
                "exercises/src/catch/t11/one_lock.rs",
            ),
        ],
        mistakes: &[KIT_PAUSE],
        ..FIX
    },
    Exercise {
        kind: Kind::Find,
        name: "f4_find_retry_timer",
        id: "F4",
        shows: "F4",
        title: "find the bug in a retry timer on a pool",
        chapter: "ch06b-scheduled-pool.md",
        solution: "exercises::find::f4",
        solution_file: "exercises/references/f4_find_retry_timer.rs",
        versions: &[
            Version::wheat("mended", "exercises/src/find/f4_versions/one_shot.rs"),
            Version::wheat("recheck", "exercises/src/find/f4_versions/one_shot.rs"),
            Version::wheat("asks_first", "exercises/src/find/f4_versions/one_shot.rs"),
            Version::wheat("periodic", "exercises/src/find/f4_versions/periodic.rs"),
            Version::chaff("as_written", "F4", "exercises/find/f4_find_retry_timer.rs"),
            Version::chaff(
                "flag_only",
                "P1",
                "exercises/src/find/f4_versions/one_shot.rs",
            ),
            Version::chaff(
                "periodic_wrapping",
                "T15",
                "exercises/src/find/f4_versions/periodic.rs",
            ),
        ],
        mistakes: &[FIND_KIT_PAUSE],
        ..FIX
    },
    Exercise {
        name: "w7_single_owner_wheel",
        id: "W7",
        shows: "W2",
        title: "a wheel whose ticker alone owns the slots",
        chapter: "ch07-wheel.md",
        solution: "crate::solutions::w7_single_owner_wheel",
        solution_file: "wheel/src/hashed.rs",
        solution_points: &[("WINDOW", "wheel::hashed: deadline computed, not yet sent")],
        ..FIX
    },
    Exercise {
        kind: Kind::Catch,
        name: "w2_catch_cursor_race",
        id: "W2",
        shows: "W2",
        title: "a test that catches the task that misses its slot",
        chapter: "ch07-wheel.md",
        solution: "exercises::catch::w2",
        solution_file: "exercises/references/w2_catch_cursor_race.rs",
        versions: &[
            Version::wheat("hashed", "wheel/src/hashed.rs"),
            Version::wheat("hierarchical", "wheel/src/hierarchical.rs"),
            Version::wheat("recheck", "exercises/src/catch/w2/slotted.rs"),
            Version::chaff("cursor_race", "W2", "exercises/src/catch/w2/slotted.rs"),
            Version::chaff("wraparound", "W3", "exercises/src/catch/w2/slotted.rs"),
            Version::chaff("slot_overflow", "W4", "exercises/src/catch/w2/slotted.rs"),
        ],
        mistakes: &[KIT_PAUSE],
        ..FIX
    },
    Exercise {
        kind: Kind::Model,
        name: "w5_model_publication_race",
        id: "W5",
        shows: "W5",
        title: "a loom model that finds the stale read",
        chapter: "ch07-wheel.md",
        solution: "exercise_models::w5",
        solution_file: "exercises/exercise-models/references/w5_model_publication_race.rs",
        versions: &[
            Version::wheat("fixed", "wheel/src/ring.rs"),
            Version::chaff("buggy", "W5", "wheel/src/ring.rs"),
        ],
        ..FIX
    },
    Exercise {
        kind: Kind::Catch,
        name: "a1_catch_lost_waker",
        id: "A1",
        shows: "A1",
        title: "a test that catches the waker lost as the driver fires",
        chapter: "ch09-async-timer.md",
        solution: "exercises::catch::a1",
        solution_file: "exercises/references/a1_catch_lost_waker.rs",
        versions: &[
            Version::wheat("fixed", "async-timer/src/entry.rs"),
            Version::wheat("register_first", "exercises/src/catch/a1/register_first.rs"),
            Version::wheat("spurious_wake", "exercises/src/catch/a1/spurious_wake.rs"),
            Version::chaff("racy_poll", "A1", "async-timer/src/racy_poll.rs"),
            Version::chaff("first_waker", "A2", "exercises/src/catch/a1/register_first.rs"),
            Version::chaff("leaky_drop", "A3", "async-timer/src/leaky_drop.rs"),
            Version::chaff("unparks_idle_only", "A5", "async-timer/src/unparks_idle_only.rs"),
        ],
        mistakes: &[KIT_PAUSE],
        ..FIX
    },
    Exercise {
        name: "d3_fencing_token",
        id: "D3",
        shows: "D3",
        title: "a completion a stalled node cannot write",
        chapter: "ch10-durable-timer.md",
        solution: "crate::solutions::d3_fencing_token",
        solution_file: "durable-timer/src/complete.rs",
        solution_points: &[("WINDOW", "durable-timer::node: delivered, not yet completed")],
        ..FIX
    },
    Exercise {
        kind: Kind::Catch,
        name: "d1_catch_double_fire",
        id: "D1",
        shows: "D1",
        title: "a test that catches two nodes firing one job",
        chapter: "ch10-durable-timer.md",
        solution: "exercises::catch::d1",
        solution_file: "exercises/references/d1_catch_double_fire.rs",
        // The fixed node and the three buggy ones are the stage's; the two
        // other correct claims are the exercise's own, in the chapter's
        // node round (round.rs).
        versions: &[
            Version::wheat("fixed", "durable-timer/src/claim.rs"),
            Version::wheat("transaction", "exercises/src/catch/d1/transaction.rs"),
            Version::wheat(
                "compare_and_set",
                "exercises/src/catch/d1/compare_and_set.rs",
            ),
            Version::chaff(
                "check_then_claim",
                "D1",
                "durable-timer/src/check_then_claim.rs",
            ),
            Version::chaff(
                "state_guard_claim",
                "D2",
                "durable-timer/src/state_guard_claim.rs",
            ),
            Version::chaff("unfenced_write", "D3", "durable-timer/src/unfenced_write.rs"),
        ],
        mistakes: &[KIT_PAUSE],
        ..FIX
    },
];
