//! `cargo xtask model-check`: the grader of the model-it exercises.
//!
//! The student writes a loom model (threads and a check) of a race the book
//! names, in a copy of `exercises/exercise-models/skeletons/<name>.rs`. The
//! grader builds it as the test target `student` of the `exercise-models`
//! crate (release, `--cfg loom`, `target/loom`, as `cargo xtask loom` does),
//! then runs its `model` test twice, each run in its own process (a failing
//! loom model aborts the process):
//!
//! - with `EXERCISE_MODEL_SUBJECT=racy`: loom must find an execution that
//!   fails (the model's assertion, or a deadlock), and it must be the named
//!   race's failure, not another bug's;
//! - with `EXERCISE_MODEL_SUBJECT=fixed`: every execution must pass with
//!   the chapter's `LOOM_MAX_PREEMPTIONS`.
//!
//! `LOOM_LOCATION=1` makes loom's deadlock report say where each thread is
//! blocked; the grader reads those lines of source to tell the student
//! which thread waited for what, and to tell one bug's deadlock from
//! another's.
//!
//! [`verify`] proves the grader both ways: every exercise's reference
//! model is accepted, and its skeleton and wrong models are each rejected
//! for the reason the table below expects.

use crate::cargo::{self, TestExe};
use crate::cmd::{Cmd, Result, banner, root, secs};
use crate::exercise::source::model_facts;
use crate::ftf::red;
use crate::loom;
use devkit::markdown::md_table;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The usage of `cargo xtask model-check`.
pub const USAGE: &str = "\
cargo xtask model-check <name> [--file F]
cargo xtask model-check --verify

  <name>      a model-it exercise (or its ID: c1, p3, w5, t7); checks
              exercises/mine/<name>.rs, or the skeleton if you have no copy yet
  --file F    check the model in F instead
  --verify    CI: every reference model accepted, every wrong model rejected for its reason
";

/// How long one side of a check may run.
const LIMIT: Duration = Duration::from_secs(180);

/// The package that holds the subjects and the models.
pub const PACKAGE: &str = "exercise-models";

/// The variable the subjects read to pick their version.
const SUBJECT: &str = "EXERCISE_MODEL_SUBJECT";

/// The variable the package's build script reads: the student's file.
const MODEL_FILE: &str = "EXERCISE_MODEL_FILE";

/// loom settings that cut the exploration short: a model checked under any
/// of them proves less than the check says.
const LOOM_LIMITS: &[&str] = &[
    "LOOM_MAX_DURATION",
    "LOOM_MAX_PERMUTATIONS",
    "LOOM_MAX_BRANCHES",
    "LOOM_CHECKPOINT_FILE",
];

/// A place in the source where a thread can be blocked, as loom's deadlock
/// report names it: a file (the end of its path) and what its line holds.
#[derive(Debug, Clone, Copy)]
pub struct Place {
    /// The end of the file's path: `poison-pill/src/cancel_flag.rs`.
    pub file: &'static str,
    /// A piece of the line's code: `.wait(`.
    pub line_has: &'static str,
}

/// loom's `Condvar::wait_timeout`, which never times out and calls `wait`
/// without `#[track_caller]`: a thread blocked in any timed wait is
/// reported at this line of loom's own source.
const TIMED_WAIT: Place = Place {
    file: "/src/sync/condvar.rs",
    line_has: "self.wait(guard)",
};

/// What a wrong model gets wrong: the reason the grader rejects it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mistake {
    /// The file has no `#[test] fn model` calling `loom::model`.
    NoModel,
    /// The file reads the environment: it could tell the versions apart
    /// other than by how they behave.
    ReadsSubject,
    /// The file sets loom's limits itself (a `loom::model::Builder`).
    OwnBound,
    /// The file cuts executions short (`loom::stop_exploring`,
    /// `loom::skip_branch`): a failing one may never be looked at.
    CutsShort,
    /// Every execution passes on the racy version, and the model checks
    /// nothing.
    AssertsNothing,
    /// Every execution passes on the racy version: the model does not
    /// reach the race.
    MissesRace,
    /// It fails on the racy version, but with another bug's failure.
    OtherBug,
    /// It fails on the fixed version (an assertion, or loom's own check).
    FailsOnFixed,
    /// It deadlocks on the fixed version.
    DeadlocksOnFixed,
    /// One side ran out of time.
    TooSlow,
}

impl Mistake {
    /// The mistake in a few words, for a one-line verdict.
    pub fn word(self) -> &'static str {
        match self {
            Mistake::NoModel => "no model to run",
            Mistake::ReadsSubject => "it reads the grader's choice",
            Mistake::OwnBound => "it sets loom's bound itself",
            Mistake::CutsShort => "it cuts executions short",
            Mistake::AssertsNothing => "it checks nothing",
            Mistake::MissesRace => "it does not reach the race",
            Mistake::OtherBug => "it finds another bug",
            Mistake::FailsOnFixed => "it fails on the fixed version",
            Mistake::DeadlocksOnFixed => "it deadlocks on the fixed version",
            Mistake::TooSlow => "it is too big for loom",
        }
    }
}

/// One model-it exercise.
pub struct ModelExercise {
    /// Its name, the skeleton's file name: `c1_model_lost_wakeup`.
    pub name: &'static str,
    /// The catalogue ID of the race: `C1`.
    pub id: &'static str,
    /// The bug's name in the catalogue: `lost_wakeup`.
    pub bug: &'static str,
    /// The chapter's page in `book/src/`.
    pub chapter: &'static str,
    /// The chapter's title (checked against the page by [`verify`]).
    pub chapter_title: &'static str,
    /// The racy version, from the workspace root.
    pub racy: &'static str,
    /// The fixed version.
    pub fixed: &'static str,
    /// `LOOM_MAX_PREEMPTIONS` for both runs: the chapter's bound.
    pub preemptions: &'static str,
    /// Where the racy version's window is, said to a student whose model
    /// passes there.
    pub window: &'static str,
    /// The race shows as a deadlock with a thread blocked at each of these
    /// places; empty: any failure on the racy version is the race's.
    pub deadlock_at: &'static [Place],
    /// What the race's deadlock is, said when the racy version fails
    /// another way.
    pub deadlock_is: &'static str,
    /// Other bugs of the racy version, each known by a place its deadlock
    /// blocks a thread at, and what the grader says of it.
    pub other_bugs: &'static [(Place, &'static str)],
    /// The proof: every module of the exercise's test binary but the
    /// reference, with the reason the grader must reject it.
    pub wrong: &'static [(&'static str, Mistake)],
}

/// The model-it exercises, in teaching order.
pub const EXERCISES: &[ModelExercise] = &[
    ModelExercise {
        name: "c1_model_lost_wakeup",
        id: "C1",
        bug: "lost_wakeup",
        chapter: "ch03-lost-wakeup.md",
        chapter_title: "A timer that loses a wake-up",
        racy: "condvar-timer/src/racy.rs",
        fixed: "condvar-timer/src/timer_style.rs",
        preemptions: "3",
        window: "The window is in the timer's thread: after it takes the head out of the \
                 queue, before it waits for it on the monitor. A notify sent then reaches \
                 nobody. Your model needs the thread to be waiting for a task that is not \
                 due, a client whose new task must wake it, and a check that the new task \
                 runs.",
        deadlock_at: &[],
        deadlock_is: "",
        other_bugs: &[],
        wrong: &[
            ("skeleton", Mistake::AssertsNothing),
            ("asserts_nothing", Mistake::AssertsNothing),
            ("fails_always", Mistake::FailsOnFixed),
            ("no_waiting_task", Mistake::MissesRace),
            ("reads_subject", Mistake::ReadsSubject),
            ("reads_subject_aliased", Mistake::ReadsSubject),
            ("cuts_executions_short", Mistake::CutsShort),
            ("sets_its_own_bound", Mistake::OwnBound),
            ("waits_for_far", Mistake::DeadlocksOnFixed),
        ],
    },
    ModelExercise {
        name: "p3_model_cancel_notify_race",
        id: "P3",
        bug: "cancel_notify_race",
        chapter: "ch04-poison-pill.md",
        chapter_title: "A timer that will not stop",
        racy: "poison-pill/src/notify_on_cancel.rs",
        fixed: "poison-pill/src/poison_pill.rs",
        preemptions: "3",
        window: "The window is in the timer's thread: after it reads the cancelled flag at \
                 the top of its loop, before it waits on the monitor for the head's \
                 deadline. A cancel that lands then notifies nobody. Your model needs the \
                 thread to be on its way to wait for a task that is not due, and a cancel.",
        deadlock_at: &[
            Place {
                file: "poison-pill/src/notify_on_cancel.rs",
                line_has: "join()",
            },
            TIMED_WAIT,
        ],
        deadlock_is: "P3 shows as a deadlock: the timer's drop (after the cancel) waits \
                      for ever to join a thread that waits for ever for a deadline",
        other_bugs: &[(
            Place {
                file: "poison-pill/src/cancel_flag.rs",
                line_has: ".wait(",
            },
            "loom found P1 cancel_hangs_idle, not P3: the timer's thread is blocked in \
             `take` on an empty queue, which the cancel's notify (sent to the monitor) \
             never reaches. That is a bug of this version too, but not the one this \
             exercise is about: P3 is the thread that has read the flag and is on its way \
             to wait for a deadline. Give it a task to wait for before you cancel.",
        )],
        wrong: &[
            ("skeleton", Mistake::OtherBug),
            ("cancels_idle", Mistake::OtherBug),
            ("fails_always", Mistake::FailsOnFixed),
            ("waits_for_far", Mistake::DeadlocksOnFixed),
        ],
    },
    ModelExercise {
        name: "t7_model_execute_shutdown_race",
        id: "T7",
        bug: "execute_shutdown_race",
        chapter: "ch06-threadpool-executor.md",
        chapter_title: "A pool of workers",
        racy: "threadpool-executor/src/no_recheck.rs",
        fixed: "threadpool-executor/src/pool.rs",
        preemptions: "3",
        window: "The window is in `execute`: after it saw the pool running, before its \
                 task is in the queue. A shutdown that ends the pool then leaves a task \
                 taken and never run. Your model needs a worker already running (so the \
                 task goes to the queue), a client executing while the pool shuts down, \
                 and a check, once every worker is joined, that a task taken has run.",
        deadlock_at: &[],
        deadlock_is: "",
        other_bugs: &[],
        wrong: &[
            ("skeleton", Mistake::AssertsNothing),
            ("asserts_nothing", Mistake::AssertsNothing),
            ("fails_always", Mistake::FailsOnFixed),
            ("no_worker_yet", Mistake::MissesRace),
            ("waits_for_timeout", Mistake::DeadlocksOnFixed),
        ],
    },
    ModelExercise {
        name: "w5_model_publication_race",
        id: "W5",
        bug: "publication_race",
        chapter: "ch07-wheel.md",
        chapter_title: "A wheel of slots",
        racy: "wheel/src/ring.rs (Publish::Relaxed)",
        fixed: "wheel/src/ring.rs (Publish::ReleaseAcquire)",
        preemptions: "3",
        window: "The race is between an adder's writes and a drain's reads: the drain must \
                 run while the adder inserts (not after a join, which orders everything), \
                 and the check must look at what the drain read for the task.",
        deadlock_at: &[],
        deadlock_is: "",
        other_bugs: &[],
        wrong: &[
            ("skeleton", Mistake::AssertsNothing),
            ("asserts_nothing", Mistake::AssertsNothing),
            ("drains_after_join", Mistake::MissesRace),
            ("fails_always", Mistake::FailsOnFixed),
        ],
    },
];

/// Finds an exercise by name or by ID (`c1`, `P3`).
pub fn find(name: &str) -> Result<&'static ModelExercise> {
    EXERCISES
        .iter()
        .find(|e| e.name == name || e.id.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            let names: Vec<&str> = EXERCISES.iter().map(|e| e.name).collect();
            format!(
                "no model-it exercise `{name}`; there are: {}",
                names.join(", ")
            )
        })
}

/// The package's directory.
fn dir() -> PathBuf {
    root().join("exercises").join("exercise-models")
}

/// The skeleton of `e`.
pub fn skeleton(e: &ModelExercise) -> PathBuf {
    dir().join("skeletons").join(format!("{}.rs", e.name))
}

/// The reference model of `e`: the solution.
pub fn reference(e: &ModelExercise) -> PathBuf {
    dir().join("references").join(format!("{}.rs", e.name))
}

/// The hints of `e`.
pub fn hints_file(e: &ModelExercise) -> PathBuf {
    dir().join("hints").join(format!("{}.md", e.name))
}

/// The student's copy of `e`.
pub fn mine(e: &ModelExercise) -> PathBuf {
    root()
        .join("exercises")
        .join("mine")
        .join(format!("{}.rs", e.name))
}

/// The source file of a module of `e`'s proof binary.
fn module_file(e: &ModelExercise, module: &str) -> PathBuf {
    match module {
        "skeleton" => skeleton(e),
        "reference" => reference(e),
        wrong => dir().join("wrong").join(e.name).join(format!("{wrong}.rs")),
    }
}

/// A path as a student would type it, from the workspace root.
fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Runs `cargo xtask model-check <args>`.
pub fn run(args: &[String]) -> Result {
    let mut flags = pico_args::Arguments::from_vec(args.iter().map(Into::into).collect());
    if flags.contains("--verify") {
        let left = flags.finish();
        if !left.is_empty() {
            return Err(format!("--verify takes no other argument\n\n{USAGE}"));
        }
        return verify().map(|note| println!("{note}"));
    }
    let file: Option<String> = flags
        .opt_value_from_str("--file")
        .map_err(|e| format!("{e}\n\n{USAGE}"))?;
    let Some(name) = flags
        .opt_free_from_str::<String>()
        .map_err(|e| e.to_string())?
    else {
        print!("{USAGE}\nThe model-it exercises:\n");
        for e in EXERCISES {
            println!("  {:<32} {} {}, {}", e.name, e.id, e.bug, e.chapter_title);
        }
        return Ok(());
    };
    let left = flags.finish();
    if !left.is_empty() {
        return Err(format!("unexpected argument(s): {left:?}\n\n{USAGE}"));
    }
    let e = find(&name)?;
    let file = match file {
        Some(f) => {
            let path = PathBuf::from(&f);
            if path.is_absolute() {
                path
            } else {
                std::env::current_dir()
                    .map_err(|err| err.to_string())?
                    .join(path)
            }
        }
        None if mine(e).exists() => mine(e),
        None => {
            println!(
                "(no copy of yours at {}: checking the skeleton, {})",
                shown(&mine(e)),
                shown(&skeleton(e))
            );
            skeleton(e)
        }
    };
    let verdict = check(e, &file)?;
    print!("{}", verdict.report(e));
    match verdict.mistake {
        None => Ok(()),
        Some(m) => Err(format!("{} not done yet ({m:?})", e.name)),
    }
}

/// Checks the model in `file` for `e`: builds it, runs it on both
/// versions, and judges.
pub fn check(e: &ModelExercise, file: &Path) -> Result<Verdict> {
    limits_unset()?;
    let text = std::fs::read_to_string(file).map_err(|err| format!("{}: {err}", file.display()))?;
    let file = file
        .canonicalize()
        .map_err(|err| format!("{}: {err}", file.display()))?;
    banner(&format!(
        "model-check {} ({}, {})",
        e.name,
        shown(&file),
        e.chapter_title
    ));
    if let Some(verdict) = static_verdict(&text) {
        return Ok(verdict);
    }
    let started = Instant::now();
    let exes = build(&["student"], Some(&file))?;
    let exe = exes
        .iter()
        .find(|x| x.target == "student")
        .ok_or("cargo built no `student` test target")?;
    println!("built in {}", secs(started.elapsed()));
    let test = "student::model";
    if !cargo::default_tests(exe)?.iter().any(|t| t == test) {
        return Ok(Verdict::rejected(
            Mistake::NoModel,
            "your file has no test `model`: keep `#[test] fn model()` as the skeleton has it"
                .to_string(),
        ));
    }
    let racy = run_side(e, exe, test, "racy")?;
    let fixed = run_side(e, exe, test, "fixed")?;
    Ok(judge(e, &file, &text, &racy, &fixed))
}

/// Fails if loom is told to cut its exploration short.
fn limits_unset() -> Result {
    let set: Vec<&str> = LOOM_LIMITS
        .iter()
        .copied()
        .filter(|v| std::env::var_os(v).is_some())
        .collect();
    if set.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "unset {}: a model whose exploration is cut short proves less than the check \
             would say",
            set.join(", ")
        ))
    }
}

/// Builds `targets` of the models' package under loom; `model` is the
/// student's file for the target `student` (none: that target is empty).
fn build(targets: &[&str], model: Option<&Path>) -> Result<Vec<TestExe>> {
    let packages = cargo::workspace()?;
    let mut cmd = Cmd::cargo(&[
        "test",
        "--release",
        "--target-dir",
        &loom::target_dir(),
        "-p",
        PACKAGE,
    ]);
    for t in targets {
        cmd = cmd.args(["--test", t]);
    }
    let model = model.map(|m| m.display().to_string()).unwrap_or_default();
    let cmd = cmd
        .args(["--no-run", "--message-format=json"])
        .env("RUSTFLAGS", &loom::rustflags())
        .env(MODEL_FILE, &model);
    cargo::test_executables(cmd, &packages).map_err(|err| {
        format!("{err}\n(the compiler's messages are above: the model must compile under loom)")
    })
}

/// What one run of a model did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Every execution passed.
    Passed,
    /// An execution panicked: the first lines of the message.
    Panicked(Vec<String>),
    /// loom found an execution where every thread waits.
    Deadlock(Vec<Thread>),
    /// The run ran out of time.
    TimedOut,
    /// The process ended some other way: its last lines.
    Crashed(String),
}

/// One thread of loom's deadlock report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thread {
    /// loom's number for it (0 is the model's own thread).
    pub id: usize,
    /// Where it is blocked, if it is: (file as compiled, line).
    pub blocked_at: Option<(String, usize)>,
    /// Its state as loom printed it (`Blocked`, `Terminated`, ...).
    pub state: String,
}

/// One side's run, with how long it took.
pub struct Side {
    /// What happened.
    pub outcome: Outcome,
    /// How long it took.
    pub took: Duration,
}

/// Runs `test` of `exe` on one version, in its own process.
fn run_side(e: &ModelExercise, exe: &TestExe, test: &str, subject: &str) -> Result<Side> {
    let cmd = exe
        .cmd(&["--exact", test, "--nocapture", "--test-threads=1"])
        .env(SUBJECT, subject)
        .env("LOOM_MAX_PREEMPTIONS", e.preemptions)
        .env("LOOM_LOCATION", "1")
        .env("RUST_BACKTRACE", "0");
    let run = cmd.capture(LIMIT)?;
    let outcome = if run.status.is_none() {
        Outcome::TimedOut
    } else {
        outcome_of(run.passed(), &run.output)
    };
    println!(
        "  {subject:<5} ({}): {} ({})",
        if subject == "racy" { e.racy } else { e.fixed },
        outcome.headline(),
        secs(run.took)
    );
    Ok(Side {
        outcome,
        took: run.took,
    })
}

/// Reads a finished run's output.
pub fn outcome_of(passed: bool, output: &str) -> Outcome {
    if passed {
        return if output.contains("1 passed") {
            Outcome::Passed
        } else {
            Outcome::Crashed("the test did not run (0 passed)".to_string())
        };
    }
    if let Some(line) = output
        .lines()
        .find(|l| l.starts_with("deadlock; threads = "))
    {
        return Outcome::Deadlock(parse_deadlock(line));
    }
    let lines = first_panic(output);
    if lines.is_empty() {
        Outcome::Crashed(crate::ftf::last_lines(output, 6))
    } else {
        Outcome::Panicked(lines)
    }
}

/// The lines of the first panic message in `output`, up to four.
fn first_panic(output: &str) -> Vec<String> {
    let mut lines = output.lines();
    if lines.by_ref().any(|l| l.contains(" panicked at ")) {
        lines
            .take_while(|l| {
                !l.trim().is_empty()
                    && !l.starts_with("note: ")
                    && !l.starts_with("stack backtrace:")
                    && !l.starts_with("thread '")
            })
            .take(4)
            .map(|l| l.to_string())
            .collect()
    } else {
        Vec::new()
    }
}

/// Parses loom's `deadlock; threads = [(Id(0), Blocked(Location(Some(
/// Location { file: "...", line: 178, column: 28 })))), (Id(2),
/// Terminated)]`.
pub fn parse_deadlock(line: &str) -> Vec<Thread> {
    line.split("(Id(")
        .skip(1)
        .filter_map(|chunk| {
            let (id, rest) = chunk.split_once(')')?;
            let id = id.parse().ok()?;
            let rest = rest.trim_start_matches([',', ' ']);
            let state = rest
                .split(|c: char| !c.is_ascii_alphanumeric())
                .next()
                .unwrap_or_default()
                .to_string();
            let blocked_at = rest.split_once("file: \"").and_then(|(_, f)| {
                let (file, after) = f.split_once('"')?;
                let (_, after) = after.split_once("line: ")?;
                let line: String = after.chars().take_while(char::is_ascii_digit).collect();
                Some((file.to_string(), line.parse().ok()?))
            });
            Some(Thread {
                id,
                blocked_at,
                state,
            })
        })
        .collect()
}

impl Outcome {
    /// One line for the progress log.
    fn headline(&self) -> String {
        match self {
            Outcome::Passed => "every execution passed".to_string(),
            Outcome::Panicked(lines) => format!(
                "failed: {}",
                lines.first().map(String::as_str).unwrap_or_default()
            ),
            Outcome::Deadlock(_) => "deadlock".to_string(),
            Outcome::TimedOut => format!("still running after {}", secs(LIMIT)),
            Outcome::Crashed(how) => format!("ended abnormally: {how}"),
        }
    }
}

/// The grader's verdict on a model.
#[derive(Debug)]
pub struct Verdict {
    /// `None`: accepted.
    pub mistake: Option<Mistake>,
    /// What to tell the student, a paragraph per item.
    pub says: Vec<String>,
}

impl Verdict {
    fn rejected(mistake: Mistake, says: String) -> Verdict {
        Verdict {
            mistake: Some(mistake),
            says: vec![says],
        }
    }

    /// The verdict as the student reads it.
    pub fn report(&self, e: &ModelExercise) -> String {
        let mut out = String::new();
        match self.mistake {
            None => out.push_str(&format!("\ndone: {} {}\n", e.id, e.bug)),
            Some(_) => out.push_str(&format!("\n{}\n", red("not yet"))),
        }
        for s in &self.says {
            out.push_str(&format!("{s}\n"));
        }
        out
    }
}

/// The verdicts that need no run: a file that is not a model, or that
/// could tell the versions apart, or weaken loom, without running them.
/// Read as Rust (`exercise::source`): a word in a comment or a string never
/// counts.
pub fn static_verdict(text: &str) -> Option<Verdict> {
    let facts = match model_facts(text) {
        Ok(facts) => facts,
        Err(e) => {
            return Some(Verdict::rejected(
                Mistake::NoModel,
                format!("your file: {e}"),
            ));
        }
    };
    if facts.reads_env {
        return Some(Verdict::rejected(
            Mistake::ReadsSubject,
            "your model reads the environment (`std::env`, under whatever name, or `env!`). \
             The grader picks the version through it, and a model must tell the versions \
             apart only by how they behave: take it out."
                .to_string(),
        ));
    }
    if facts.own_settings {
        return Some(Verdict::rejected(
            Mistake::OwnBound,
            "your model sets loom's settings itself (`loom::model::Builder`, or a setting's \
             name such as `preemption_bound` or `max_branches`). The grader owns them: it runs \
             every model with the chapter's preemption bound and no other limit. Use \
             `loom::model(|| ..)`."
                .to_string(),
        ));
    }
    if facts.skips {
        return Some(Verdict::rejected(
            Mistake::CutsShort,
            "your model cuts executions short (`loom::stop_exploring` or `loom::skip_branch`): \
             an execution loom stops exploring is never checked, so a failing assertion behind \
             it proves nothing. The grader needs every execution: take it out."
                .to_string(),
        ));
    }
    if !facts.model_fn || !facts.loom_model {
        return Some(Verdict::rejected(
            Mistake::NoModel,
            "your file needs `#[test] fn model()` calling `loom::model(|| ..)`, as the \
             skeleton has it: the grader runs that test"
                .to_string(),
        ));
    }
    None
}

/// A source line, for a message: `file:line`, resolved from the workspace
/// root when relative, read and trimmed; `None` if it cannot be read.
fn source_line(file: &str, line: usize) -> Option<String> {
    let path = if Path::new(file).is_absolute() {
        PathBuf::from(file)
    } else {
        root().join(file)
    };
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .nth(line.checked_sub(1)?)
        .map(|l| l.trim().to_string())
}

/// True if `(file, line)` is at `place`.
fn at(place: &Place, file: &str, line: usize) -> bool {
    file.ends_with(place.file)
        && source_line(file, line).is_some_and(|code| code.contains(place.line_has))
}

/// True if `file` (as compiled) is the model's file.
fn is_model_file(file: &str, model: &Path) -> bool {
    let path = if Path::new(file).is_absolute() {
        PathBuf::from(file)
    } else {
        root().join(file)
    };
    path.canonicalize().is_ok_and(|p| p == model)
}

/// Each thread of a deadlock in words: where it waits.
fn describe_deadlock(threads: &[Thread], model: &Path) -> Vec<String> {
    threads
        .iter()
        .map(|t| {
            let who = if t.id == 0 {
                "thread 0 (your model's)".to_string()
            } else {
                format!("thread {}", t.id)
            };
            match &t.blocked_at {
                None => format!("{who}: {}", t.state.to_lowercase()),
                Some((file, line)) if is_model_file(file, model) => format!(
                    "{who}: waits at your model's line {line}: `{}`",
                    source_line(file, *line).unwrap_or_default()
                ),
                Some((file, line)) if at(&TIMED_WAIT, file, *line) => format!(
                    "{who}: waits in a timed wait (`Condvar::wait_timeout`), which under \
                     loom never times out: it ends only when something notifies it"
                ),
                Some((file, line)) => {
                    let file_shown = file
                        .strip_prefix(&format!("{}/", root().display()))
                        .unwrap_or(file);
                    format!(
                        "{who}: waits at {file_shown}:{line}: `{}`",
                        source_line(file, *line).unwrap_or_default()
                    )
                }
            }
        })
        .collect()
}

/// The grader: what the two runs mean for this model.
pub fn judge(e: &ModelExercise, model: &Path, text: &str, racy: &Side, fixed: &Side) -> Verdict {
    let checks = model_facts(text).is_ok_and(|f| f.checks);
    let mut says = Vec::new();
    let mut mistake = None;
    let mut reject = |m: Mistake, s: String, mistake: &mut Option<Mistake>| {
        mistake.get_or_insert(m);
        says.push(s);
    };
    // The fixed version first: a model that fails there is wrong whatever
    // it does on the racy one.
    match &fixed.outcome {
        Outcome::Passed => {}
        Outcome::Panicked(lines) => reject(
            Mistake::FailsOnFixed,
            format!(
                "fails on the fixed version ({}): it fails for another reason. loom's first \
                 lines:\n    {}\nA check that fails on the fixed version too checks something \
                 neither version promises.",
                e.fixed,
                lines.join("\n    ")
            ),
            &mut mistake,
        ),
        Outcome::Deadlock(threads) => reject(
            Mistake::DeadlocksOnFixed,
            format!(
                "fails on the fixed version ({}): loom reports a deadlock, every thread \
                 waiting:\n    {}\nloom has no clock: the stages' clock is frozen, so a task \
                 with a delay (`FAR`) never comes due, and a timed wait ends only when \
                 something notifies it. A model that waits for a deadline waits for ever, on \
                 the fixed version too: wait for tasks due now (`Duration::ZERO`), or for \
                 what another thread does.",
                e.fixed,
                describe_deadlock(threads, model).join("\n    ")
            ),
            &mut mistake,
        ),
        Outcome::TimedOut => reject(
            Mistake::TooSlow,
            format!(
                "on the fixed version loom was still exploring after {}: the model is too big \
                 for it. Fewer threads (two or three) and fewer operations each: loom's work \
                 grows exponentially with both.",
                secs(LIMIT)
            ),
            &mut mistake,
        ),
        Outcome::Crashed(how) => reject(
            Mistake::FailsOnFixed,
            format!("fails on the fixed version ({}): {how}", e.fixed),
            &mut mistake,
        ),
    }
    // The racy version: loom must find the race.
    match &racy.outcome {
        Outcome::Passed if checks => reject(
            Mistake::MissesRace,
            format!(
                "passes on the racy version ({}): your model does not reach the race (more \
                 threads? the right assertion?). {}",
                e.racy, e.window
            ),
            &mut mistake,
        ),
        Outcome::Passed => reject(
            Mistake::AssertsNothing,
            format!(
                "passes on the racy version ({}), and your model checks nothing: no \
                 `assert!`, no wait for a task. loom reports only a panic or a deadlock, so a \
                 model with neither passes every execution, racy or not. {}",
                e.racy, e.window
            ),
            &mut mistake,
        ),
        Outcome::TimedOut => reject(
            Mistake::TooSlow,
            format!(
                "on the racy version loom was still exploring after {}: the model is too big \
                 for it. Fewer threads (two or three) and fewer operations each.",
                secs(LIMIT)
            ),
            &mut mistake,
        ),
        Outcome::Deadlock(threads) => {
            let blocked: Vec<(&str, usize)> = threads
                .iter()
                .filter_map(|t| t.blocked_at.as_ref().map(|(f, l)| (f.as_str(), *l)))
                .collect();
            let other = e
                .other_bugs
                .iter()
                .find(|(place, _)| blocked.iter().any(|(f, l)| at(place, f, *l)));
            let named = e
                .deadlock_at
                .iter()
                .all(|place| blocked.iter().any(|(f, l)| at(place, f, *l)));
            if let Some((_, says)) = other {
                reject(
                    Mistake::OtherBug,
                    format!(
                        "{says}\n    {}",
                        describe_deadlock(threads, model).join("\n    ")
                    ),
                    &mut mistake,
                );
            } else if !named {
                reject(
                    Mistake::OtherBug,
                    format!(
                        "loom found a deadlock on the racy version ({}), but not {}'s. {}. \
                         Here:\n    {}",
                        e.racy,
                        e.id,
                        e.deadlock_is,
                        describe_deadlock(threads, model).join("\n    ")
                    ),
                    &mut mistake,
                );
            }
        }
        Outcome::Panicked(lines) if !e.deadlock_at.is_empty() => reject(
            Mistake::OtherBug,
            format!(
                "fails on the racy version ({}), but not as {} does: {}. loom's first \
                 lines:\n    {}",
                e.racy,
                e.id,
                e.deadlock_is,
                lines.join("\n    ")
            ),
            &mut mistake,
        ),
        Outcome::Crashed(how) => reject(
            Mistake::OtherBug,
            format!(
                "on the racy version ({}) the model's process ended without a panic or a \
                 deadlock report, so nothing says loom found the race: {how}",
                e.racy
            ),
            &mut mistake,
        ),
        Outcome::Panicked(_) => {}
    }
    if mistake.is_none() {
        let found = match &racy.outcome {
            Outcome::Panicked(lines) => lines.join(" "),
            Outcome::Deadlock(threads) => format!(
                "a deadlock:\n    {}",
                describe_deadlock(threads, model).join("\n    ")
            ),
            other => other.headline(),
        };
        says.push(format!(
            "On the racy version ({}) loom found {} {}: {found}",
            e.racy, e.id, e.bug
        ));
        says.push(format!(
            "On the fixed version ({}) every execution passed with up to {} preemptions ({}).",
            e.fixed,
            e.preemptions,
            secs(fixed.took)
        ));
        says.push(
            "What that proves: every interleaving of your threads with up to that many \
             preemptions, and nothing beyond them or beyond the threads your model has."
                .to_string(),
        );
    }
    Verdict { mistake, says }
}

/// One row of the proof's table.
struct Row {
    exercise: &'static str,
    module: String,
    expected: Option<Mistake>,
    got: Option<Mistake>,
    took: Duration,
}

/// CI's proof that the grader is honest, both ways: every exercise's
/// reference model is accepted, its skeleton and each wrong model rejected
/// for the reason the table expects; each exercise's skeleton has its TODO,
/// its hints at least two hints, its chapter the title the table says.
/// Returns the table and the times.
pub fn verify() -> Result<String> {
    limits_unset()?;
    banner("model-check --verify: the model-it exercises' grader, both ways");
    let mut problems = Vec::new();
    for e in EXERCISES {
        problems.extend(files_problems(e));
    }
    let started = Instant::now();
    let targets: Vec<&str> = EXERCISES.iter().map(|e| e.name).collect();
    let exes = build(&targets, None)?;
    let built = started.elapsed();
    let mut rows = Vec::new();
    let mut runs = 0;
    for e in EXERCISES {
        let exe = exes
            .iter()
            .find(|x| x.target == e.name)
            .ok_or_else(|| format!("cargo built no `{}` test target", e.name))?;
        let listed = cargo::default_tests(exe)?;
        let mut modules = vec![("reference", None)];
        modules.extend(e.wrong.iter().map(|(m, mistake)| (*m, Some(*mistake))));
        for listed_test in &listed {
            let module = listed_test.trim_end_matches("::model");
            if !modules.iter().any(|(m, _)| *m == module) {
                problems.push(format!(
                    "{}: `{listed_test}` is in the proof binary but not in the table",
                    e.name
                ));
            }
        }
        for (module, expected) in modules {
            let test = format!("{module}::model");
            if !listed.contains(&test) {
                problems.push(format!("{}: the proof binary has no `{test}`", e.name));
                continue;
            }
            let file = module_file(e, module);
            let text = std::fs::read_to_string(&file)
                .map_err(|err| format!("{}: {err}", file.display()))?;
            let file = file.canonicalize().map_err(|err| err.to_string())?;
            let t0 = Instant::now();
            println!("{} {module}:", e.name);
            let verdict = match static_verdict(&text) {
                Some(v) => v,
                None => {
                    runs += 2;
                    let racy = run_side(e, exe, &test, "racy")?;
                    let fixed = run_side(e, exe, &test, "fixed")?;
                    judge(e, &file, &text, &racy, &fixed)
                }
            };
            let took = t0.elapsed();
            if verdict.mistake != expected {
                problems.push(format!(
                    "{} {module}: the grader said {} where it must say {}:\n      {}",
                    e.name,
                    label(verdict.mistake),
                    label(expected),
                    verdict.says.join("\n      ")
                ));
            } else if let Some(first) = verdict.says.first() {
                let first: String = first.chars().take(110).collect();
                println!("    {}: {first}...", label(verdict.mistake));
            }
            rows.push(Row {
                exercise: e.name,
                module: module.to_string(),
                expected,
                got: verdict.mistake,
                took,
            });
        }
    }
    let total = started.elapsed();
    let table = table(&rows);
    println!("\n{table}");
    println!(
        "model-check --verify: build {} (release, --cfg loom); {} models judged in {} runs, \
         {}; total {}",
        secs(built),
        rows.len(),
        runs,
        secs(total - built),
        secs(total)
    );
    if problems.is_empty() {
        Ok(format!(
            "{} model-it exercises, {} models judged as expected in {}",
            EXERCISES.len(),
            rows.len(),
            secs(total)
        ))
    } else {
        Err(format!(
            "the model-it grader is not honest ({} problem(s)):\n  {}",
            problems.len(),
            problems.join("\n  ")
        ))
    }
}

/// A verdict in a word.
fn label(m: Option<Mistake>) -> String {
    match m {
        None => "accepted".to_string(),
        Some(m) => format!("rejected: {m:?}"),
    }
}

/// The proof's table in markdown.
fn table(rows: &[Row]) -> String {
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.exercise.to_string(),
                r.module.to_string(),
                label(r.expected),
                if r.got == r.expected {
                    label(r.got)
                } else {
                    format!("**{}**", label(r.got))
                },
                secs(r.took),
            ]
        })
        .collect();
    md_table(&["exercise", "model", "expected", "verdict", "time"], &rows)
}

/// What is wrong with an exercise's files: its skeleton's TODO naming the
/// ID, at least two hints, a reference, and the chapter's title.
fn files_problems(e: &ModelExercise) -> Vec<String> {
    let mut problems = Vec::new();
    match std::fs::read_to_string(skeleton(e)) {
        Ok(text) if text.contains(&format!("TODO({})", e.id)) => {}
        Ok(_) => problems.push(format!(
            "{}: the skeleton has no `TODO({})`",
            shown(&skeleton(e)),
            e.id
        )),
        Err(err) => problems.push(format!("{}: {err}", shown(&skeleton(e)))),
    }
    match std::fs::read_to_string(hints_file(e)) {
        Ok(text) if text.matches("<details>").count() >= 2 => {}
        Ok(_) => problems.push(format!("{}: fewer than two hints", shown(&hints_file(e)))),
        Err(err) => problems.push(format!("{}: {err}", shown(&hints_file(e)))),
    }
    if !reference(e).exists() {
        problems.push(format!("{}: missing", shown(&reference(e))));
    }
    let title = std::fs::read_to_string(root().join("book/src").join(e.chapter))
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("# ").map(|t| t.trim().to_string()))
        });
    if title.as_deref() != Some(e.chapter_title) {
        problems.push(format!(
            "{}: its chapter {} is titled {title:?}, the table says {:?}",
            e.name, e.chapter, e.chapter_title
        ));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_deadlock_report() {
        let line = "deadlock; threads = [(Id(0), Blocked(Location(Some(Location { file: \
                    \"poison-pill/src/notify_on_cancel.rs\", line: 178, column: 28 })))), \
                    (Id(1), Blocked(Location(None))), (Id(2), Terminated)]";
        let threads = parse_deadlock(line);
        assert_eq!(threads.len(), 3);
        assert_eq!(
            threads[0].blocked_at,
            Some(("poison-pill/src/notify_on_cancel.rs".to_string(), 178))
        );
        assert_eq!(threads[1].state, "Blocked");
        assert_eq!(threads[1].blocked_at, None);
        assert_eq!(threads[2].state, "Terminated");
    }

    #[test]
    fn outcomes_from_output() {
        assert_eq!(
            outcome_of(
                true,
                "running 1 test\ntest student::model ... ok\n\ntest result: ok. 1 passed; 0 failed"
            ),
            Outcome::Passed
        );
        assert!(matches!(
            outcome_of(true, "running 0 tests\ntest result: ok. 0 passed"),
            Outcome::Crashed(_)
        ));
        let out = concat!(
            "thread 'student::model' (7) panicked at x.rs:1:2:\n",
            "assertion `left == right` failed: read 0\n  left: [0]\nnote: run with\n"
        );
        assert_eq!(
            outcome_of(false, out),
            Outcome::Panicked(vec![
                "assertion `left == right` failed: read 0".to_string(),
                "  left: [0]".to_string()
            ])
        );
    }

    #[test]
    fn static_checks_name_their_mistake() {
        let model = "#[test]\nfn model() {\n    loom::model(|| {});\n}\n";
        assert!(static_verdict(model).is_none());
        let no_model = "#[test]\nfn check() {}\n";
        assert_eq!(
            static_verdict(no_model).and_then(|v| v.mistake),
            Some(Mistake::NoModel)
        );
        let env = format!("{model}fn racy() -> bool {{ std::env::var(\"{SUBJECT}\").is_ok() }}");
        assert_eq!(
            static_verdict(&env).and_then(|v| v.mistake),
            Some(Mistake::ReadsSubject)
        );
        let bound = model.replace(
            "loom::model(|| {})",
            "loom::model(|| {}); loom::model::Builder::new()",
        );
        assert_eq!(
            static_verdict(&bound).and_then(|v| v.mistake),
            Some(Mistake::OwnBound)
        );
        let aliased =
            format!("use std::env as e;\n{model}fn racy() -> bool {{ e::var(\"X\").is_ok() }}");
        assert_eq!(
            static_verdict(&aliased).and_then(|v| v.mistake),
            Some(Mistake::ReadsSubject)
        );
        let hidden = model.replace(
            "loom::model(|| {})",
            "loom::model(|| { loom::stop_exploring(); assert!(false); })",
        );
        assert_eq!(
            static_verdict(&hidden).and_then(|v| v.mistake),
            Some(Mistake::CutsShort)
        );
        let comment = format!("// EXERCISE_MODEL_SUBJECT: std::env::var would read it\n{model}");
        assert!(static_verdict(&comment).is_none());
        // A `'"'` once flipped a hand-written lexer into "inside a string",
        // hiding what came after it.
        let quote = model.replace("loom::model(|| {})", "let _q = '\"'; loom::model(|| {})");
        assert!(static_verdict(&quote).is_none());
        let quoted_env =
            format!("{model}fn racy() -> bool {{ let _q = '\"'; std::env::var(\"X\").is_ok() }}");
        assert_eq!(
            static_verdict(&quoted_env).and_then(|v| v.mistake),
            Some(Mistake::ReadsSubject)
        );
    }

    fn side(outcome: Outcome) -> Side {
        Side {
            outcome,
            took: Duration::from_millis(5),
        }
    }

    #[test]
    fn the_judge_reads_both_sides() {
        let e = find("w5").unwrap();
        let model = Path::new("/nowhere/model.rs");
        let checks = "fn model() { loom::model(|| { assert_eq!(1, 1); }); }";
        let nothing = "fn model() { loom::model(|| {}); }";
        let failed = || side(Outcome::Panicked(vec!["read 0".to_string()]));
        let passed = || side(Outcome::Passed);
        assert_eq!(judge(e, model, checks, &failed(), &passed()).mistake, None);
        assert_eq!(
            judge(e, model, checks, &passed(), &passed()).mistake,
            Some(Mistake::MissesRace)
        );
        assert_eq!(
            judge(e, model, nothing, &passed(), &passed()).mistake,
            Some(Mistake::AssertsNothing)
        );
        assert_eq!(
            judge(e, model, checks, &failed(), &failed()).mistake,
            Some(Mistake::FailsOnFixed)
        );
        assert_eq!(
            judge(
                e,
                model,
                checks,
                &failed(),
                &side(Outcome::Deadlock(vec![]))
            )
            .mistake,
            Some(Mistake::DeadlocksOnFixed)
        );
        assert_eq!(
            judge(e, model, checks, &side(Outcome::TimedOut), &passed()).mistake,
            Some(Mistake::TooSlow)
        );
        // P3 must deadlock, and at its own places: a panic is not P3.
        let p3 = find("p3").unwrap();
        assert_eq!(
            judge(p3, model, checks, &failed(), &passed()).mistake,
            Some(Mistake::OtherBug)
        );
        assert_eq!(
            judge(
                p3,
                model,
                checks,
                &side(Outcome::Deadlock(vec![])),
                &passed()
            )
            .mistake,
            Some(Mistake::OtherBug)
        );
    }

    #[test]
    fn every_exercise_is_found_by_name_and_id() {
        for e in EXERCISES {
            assert_eq!(find(e.name).unwrap().name, e.name);
            assert_eq!(find(&e.id.to_lowercase()).unwrap().name, e.name);
            assert!(
                e.name
                    .starts_with(&format!("{}_model_", e.id.to_lowercase()))
            );
            assert!(e.wrong.iter().any(|(m, _)| *m == "skeleton"));
        }
        assert!(find("c4").is_err());
    }
}
