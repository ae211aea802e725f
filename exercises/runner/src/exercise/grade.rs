//! Grading a test by the versions it tells apart, as mutation testing
//! judges a test suite: a catch-it (or find-it) test must fail on the buggy
//! version every time, by an assertion of its own, and pass on the fixed
//! version every time.
//!
//! The test is compiled once, into the `catch` test target; each run is one
//! `--exact` run of that executable with `EXERCISE_SIDE` set to `buggy` or
//! `fixed`, which the exercise's API reads to pick the version it wraps (one
//! build serves both sides). The runs vary what a lucky test would lean on:
//! half of them run while one busy thread per core keeps every core loaded
//! (the audit's helper), and every other one is shaken (`EXERCISE_SHAKE`: a
//! release of a pause lets the released thread run on before the test goes
//! on, an order the scheduler could always have chosen). The API also notes
//! in a file (`EXERCISE_RECORD`) whether a thread was held at one of the
//! exercise's pause points, and which calls came while it was.
//!
//! From those runs, [`judge`] decides, in this order, the first reason a
//! test falls short (and lists every other one):
//!
//! 1. it never held a thread at a pause point ([`Verdict::NeverHeld`]):
//!    whatever it caught, it caught by timing, or caught another bug;
//! 2. it failed on the fixed version ([`Verdict::FailsOnFixed`]);
//! 3. it passed on the buggy version every time ([`Verdict::MissesTheBug`]);
//! 4. it caught the bug in some runs only ([`Verdict::Luck`]);
//! 5. it failed on the buggy version, but not by an assertion in its own
//!    file: a panic elsewhere, a hang, a crash ([`Verdict::NotItsOwn`]);
//!
//! and otherwise it caught the bug ([`Verdict::Caught`]).

use crate::cargo::TestExe;
use crate::cmd::{Result, root};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long one run may take before it counts as hung. A pause's
/// `wait_reached` gives up after 5 s: a run that waits that long still ends
/// in time to say so.
pub const RUN_LIMIT: Duration = Duration::from_secs(8);

/// How many runs a student's check makes on each side.
pub const RUNS: usize = 10;

/// How many runs go at once: the tests mostly wait (for deadlines, for a
/// held thread), so more runs than cores keep the check short.
const PARALLEL: usize = 10;

/// Which version a run gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The version with the bug.
    Buggy,
    /// The version without it.
    Fixed,
}

impl Side {
    fn var(self) -> &'static str {
        match self {
            Side::Buggy => "buggy",
            Side::Fixed => "fixed",
        }
    }
}

/// How one run is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The version it gets.
    pub side: Side,
    /// Whether every core is busy meanwhile.
    pub loaded: bool,
    /// Whether a release lets the released thread run on first.
    pub shaken: bool,
}

/// The setups of `runs` runs on each side: the second half of each side
/// under load, every other run shaken.
pub fn setups(runs: usize) -> Vec<Setup> {
    [Side::Buggy, Side::Fixed]
        .into_iter()
        .flat_map(|side| {
            (0..runs).map(move |k| Setup {
                side,
                loaded: k >= runs / 2,
                shaken: k % 2 == 1,
            })
        })
        .collect()
}

/// A test to grade: the tests of one module of the `catch` target.
pub struct Subject {
    /// Its module in the target: `c1_catch_lost_wakeup::mine`.
    pub module: String,
    /// The full names of its tests.
    pub tests: Vec<String>,
    /// Its file, from the workspace root: a failure is its own when it
    /// panicked there.
    pub file: PathBuf,
    /// Its lines in that file, where it shares the file (a find-it's
    /// modules): a failure is then its own only between them.
    pub lines: Option<(usize, usize)>,
    /// How many runs on each side.
    pub runs: usize,
}

/// How one run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every test passed.
    Passed,
    /// A test panicked: `own` if at a line of the test's own file.
    Failed {
        /// Whether the panic's location is in the test's file.
        own: bool,
        /// The panic's location, `file:line:col`.
        at: String,
        /// The panic's message, its first lines.
        message: String,
    },
    /// Still running after [`RUN_LIMIT`]: stopped.
    Hung,
    /// Failed with no test's panic to show (an abort, a crash): the last
    /// lines of what it printed.
    Broke(String),
}

/// What the exercise's API noted during one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// A thread was held at one of the exercise's pause points.
    pub held: bool,
    /// Calls into the timer made while a thread was held.
    pub calls_in_window: usize,
    /// One of them came from the thread that holds the pause.
    pub from_holder: bool,
}

impl Record {
    /// Reads what the API wrote (see `exercises/src/catch/mod.rs`).
    pub fn parse(text: &str) -> Record {
        let mut record = Record::default();
        for line in text.lines() {
            if line.starts_with("held at ") {
                record.held = true;
            } else if line.starts_with("call ") && line.contains(" while held at ") {
                record.calls_in_window += 1;
                record.from_holder |= line.ends_with("from the thread that holds the pause");
            }
        }
        record
    }
}

/// One run of a subject.
#[derive(Clone, Debug)]
pub struct Run {
    /// How it was set up.
    pub setup: Setup,
    /// How it ended.
    pub outcome: Outcome,
    /// What the API noted.
    pub record: Record,
    /// Wall time.
    pub took: Duration,
}

/// The judgement on a test, best first; see the module docs for the order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Fails on the buggy version every time, by its own assertion, with a
    /// thread held in the window; passes on the fixed one every time.
    Caught,
    /// No run held a thread at a pause point.
    NeverHeld,
    /// Failed (or hung) on the fixed version.
    FailsOnFixed,
    /// Passed on the buggy version every time.
    MissesTheBug,
    /// Caught the bug in some runs, not all.
    Luck,
    /// Failed on the buggy version, but not by an assertion of its own.
    NotItsOwn,
}

impl Verdict {
    /// Every verdict, as [`Verdict::word`] spells them.
    pub const ALL: [Verdict; 6] = [
        Verdict::Caught,
        Verdict::NeverHeld,
        Verdict::FailsOnFixed,
        Verdict::MissesTheBug,
        Verdict::Luck,
        Verdict::NotItsOwn,
    ];

    /// Its name in a wrong test's `// verdict:` line.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Caught => "caught",
            Verdict::NeverHeld => "never-held",
            Verdict::FailsOnFixed => "fails-on-fixed",
            Verdict::MissesTheBug => "misses-the-bug",
            Verdict::Luck => "luck",
            Verdict::NotItsOwn => "not-its-own",
        }
    }

    /// The verdict `word` names.
    pub fn parse(word: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.word() == word.trim())
    }
}

/// A test's grade: its verdict and every reason it fell short, first the
/// one the verdict names.
#[derive(Clone, Debug)]
pub struct Grade {
    /// The verdict.
    pub verdict: Verdict,
    /// What the student reads: every shortfall, or what was proven.
    pub reasons: Vec<String>,
    /// The test's own red message on the buggy version, if it had one.
    pub red: Option<String>,
    /// Buggy runs that failed, whatever the reason, of how many.
    pub failed: (usize, usize),
    /// Buggy runs caught (failed by its own assertion, a thread held), of
    /// how many.
    pub caught: (usize, usize),
    /// Fixed runs passed, of how many.
    pub passed: (usize, usize),
}

/// Judges a test from its runs; `point` names the window in messages.
pub fn judge(runs: &[Run], point: &str) -> Grade {
    judge_with(runs, Some(point))
}

/// Judges a test of a bug with no race in it (N1's busy wait, I6's dead
/// timer), which a test catches by measuring or by waiting for what must
/// happen: there is no window, and no run needs a thread held. The other
/// verdicts are as [`judge`] gives them.
pub fn judge_unforced(runs: &[Run]) -> Grade {
    judge_with(runs, None)
}

fn judge_with(runs: &[Run], point: Option<&str>) -> Grade {
    let on = |side| runs.iter().filter(move |r| r.setup.side == side);
    let n_buggy = on(Side::Buggy).count();
    let n_fixed = on(Side::Fixed).count();
    // Without a window, every run is as good as held.
    let forced = point.is_some();
    let held = |r: &Run| r.record.held || !forced;
    let held_any = runs.iter().any(held);
    let caught = |r: &&Run| matches!(r.outcome, Outcome::Failed { own: true, .. }) && held(r);
    let n_caught = on(Side::Buggy).filter(caught).count();
    let n_passed_buggy = on(Side::Buggy)
        .filter(|r| r.outcome == Outcome::Passed)
        .count();
    let not_own: Vec<&Run> = on(Side::Buggy)
        .filter(|r| {
            !matches!(
                r.outcome,
                Outcome::Passed | Outcome::Failed { own: true, .. }
            )
        })
        .collect();
    let fixed_bad: Vec<&Run> = on(Side::Fixed)
        .filter(|r| r.outcome != Outcome::Passed)
        .collect();
    let red = on(Side::Buggy).find_map(|r| match &r.outcome {
        Outcome::Failed {
            own: true, message, ..
        } => Some(message.clone()),
        _ => None,
    });
    let failed_buggy = n_buggy - n_passed_buggy;
    // Runs it failed by its own assertion, but with no thread held: caught
    // by timing, in a test that holds a thread in other runs.
    let unheld_failures = on(Side::Buggy)
        .filter(|r| matches!(r.outcome, Outcome::Failed { own: true, .. }) && !held(r))
        .count();
    let point = point.unwrap_or("its window");
    let bug = if forced { "race" } else { "bug" };

    let mut found: Vec<(Verdict, String)> = Vec::new();
    if !held_any {
        found.push((
            Verdict::NeverHeld,
            format!(
                "it never holds a thread in the window: no run held the timer thread at \
                 {point}. Whatever it catches (it failed on the buggy version {failed_buggy} \
                 of {n_buggy} times), it catches by timing, or it catches another bug. Arm a \
                 `Pause` at {point} before the thread gets there, wait until it is held, make \
                 the call that races, then release it."
            ),
        ));
    }
    if let Some(first) = fixed_bad.first() {
        let mut text = format!(
            "fails on the fixed version ({} of {n_fixed} runs): it fails for another reason. \
             A test of this {bug} passes where the {bug} is gone. {}",
            fixed_bad.len(),
            describe(&first.outcome)
        );
        if fixed_bad.iter().any(|r| r.record.from_holder) {
            text += " Known mistake: it calls the timer from the thread that holds the \
                     pause, while the timer thread is held. Where the window is inside the \
                     timer's lock, that call waits for the held thread, which waits for the \
                     release, which never comes: make the call from another thread, and \
                     release the pause while it waits.";
        }
        found.push((Verdict::FailsOnFixed, text));
    }
    if n_buggy > 0 && n_passed_buggy == n_buggy {
        let mut text = format!(
            "passes on the buggy version ({n_buggy} of {n_buggy} runs): it does not catch \
             the {bug}."
        );
        if forced
            && held_any
            && on(Side::Buggy)
                .filter(|r| r.record.held)
                .all(|r| r.record.calls_in_window == 0)
        {
            text += &format!(
                " It holds the thread at {point}, but makes no call to the timer while the \
                 thread is held: the race needs its second half inside the window."
            );
        } else if forced && held_any {
            text += " It holds the thread in the window: does it assert what the bug \
                     breaks, and wait long enough to see it?";
        } else if !forced {
            text += " Does it assert what the bug breaks, and wait long enough (or measure \
                     long enough) to see it?";
        }
        found.push((Verdict::MissesTheBug, text));
    } else if n_passed_buggy > 0 || unheld_failures > 0 {
        let missed: Vec<&Run> = on(Side::Buggy).filter(|r| !caught(r)).collect();
        let loaded = missed.iter().filter(|r| r.setup.loaded).count();
        let shaken = missed.iter().filter(|r| r.setup.shaken).count();
        let instead = if !forced {
            "Wait for what must happen (or measure what the thread demands, not what a \
             loaded machine gives it) instead of timing it"
        } else {
            "Hold a thread in the window instead"
        };
        let mut text = format!(
            "caught it {n_caught} of {n_buggy} times: it depends on luck. {instead}. (Of \
             the {} runs it missed, {loaded} ran under load and {shaken} were shaken: a \
             release let the thread run on first.)",
            missed.len()
        );
        if missed
            .iter()
            .filter(|r| r.record.held)
            .any(|r| r.record.calls_in_window == 0)
        {
            text += " In runs it missed, the call that races came after the release: make \
                     it while the thread is held.";
        }
        found.push((Verdict::Luck, text));
    }
    if let Some(first) = not_own.first() {
        found.push((
            Verdict::NotItsOwn,
            format!(
                "fails on the buggy version, but not by an assertion of its own in {} of \
                 {n_buggy} runs: {} Make the test fail with an `assert!` whose message names \
                 the bug and its numbers.",
                not_own.len(),
                describe(&first.outcome)
            ),
        ));
    }
    let caught_pair = (n_caught, n_buggy);
    let passed_pair = (n_fixed - fixed_bad.len(), n_fixed);
    match found.first() {
        Some((verdict, _)) => Grade {
            verdict: *verdict,
            reasons: found.into_iter().map(|(_, text)| text).collect(),
            red,
            failed: (failed_buggy, n_buggy),
            caught: caught_pair,
            passed: passed_pair,
        },
        None => {
            let loaded = runs.iter().filter(|r| r.setup.loaded).count();
            let held_at = if forced {
                format!(", with the thread held at {point}")
            } else {
                String::new()
            };
            Grade {
                verdict: Verdict::Caught,
                reasons: vec![format!(
                    "caught it: it fails on the buggy version {n_caught} of {n_buggy} times, \
                     by its own assertion{held_at}, and passes on the fixed version {n_fixed} \
                     of {n_fixed} times ({loaded} of the {} runs with every core busy).",
                    runs.len()
                )],
                red,
                failed: (failed_buggy, n_buggy),
                caught: caught_pair,
                passed: passed_pair,
            }
        }
    }
}

/// One outcome in words, for a reason.
fn describe(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Passed => "It passed.".to_string(),
        Outcome::Failed {
            own: true, message, ..
        } => format!("It failed with: {message}"),
        Outcome::Failed { at, message, .. } => {
            format!("It panicked at {at}, outside your file: {message}")
        }
        Outcome::Hung => format!(
            "It was still running after {} s, and was stopped.",
            RUN_LIMIT.as_secs()
        ),
        Outcome::Broke(last) => format!("It ended without a test's panic: {last}"),
    }
}

/// How a run ended, read from its output: the panic of one of `tests`'
/// threads (libtest names each test's thread after the test), its location
/// against `file`.
pub fn outcome(output: &str, passed: bool, hung: bool, tests: &[String], file: &Path) -> Outcome {
    if hung {
        return Outcome::Hung;
    }
    if passed {
        return Outcome::Passed;
    }
    let lines: Vec<&str> = output.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let Some((thread, at)) = panic_line(line) else {
            continue;
        };
        if !tests.iter().any(|t| t == thread) {
            continue;
        }
        let message: Vec<&str> = lines[i + 1..]
            .iter()
            .take_while(|l| {
                !(l.starts_with("note: ")
                    || l.starts_with("stack backtrace:")
                    || l.starts_with("---- ")
                    || l.starts_with("thread '")
                    || **l == "failures:")
            })
            .filter(|l| !l.trim().is_empty())
            .take(6)
            .copied()
            .collect();
        let location = at.rsplitn(3, ':').nth(2).unwrap_or(at);
        let own = Path::new(location).ends_with(file) || root().join(file) == Path::new(location);
        return Outcome::Failed {
            own,
            at: at.to_string(),
            message: message.join("\n"),
        };
    }
    let last: Vec<&str> = lines
        .iter()
        .rev()
        .filter(|l| !l.trim().is_empty())
        .take(3)
        .copied()
        .collect();
    Outcome::Broke(last.into_iter().rev().collect::<Vec<_>>().join(" | "))
}

/// `thread 'name' (1234) panicked at src/x.rs:1:2:` as (name, `src/x.rs:1:2`).
fn panic_line(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix("thread '")?;
    let (thread, rest) = rest.split_once('\'')?;
    let (_, at) = rest.split_once(" panicked at ")?;
    Some((thread, at.strip_suffix(':').unwrap_or(at)))
}

/// Runs every subject on both sides, its runs set up as [`setups`] says,
/// the unloaded runs first and then the loaded ones, [`PARALLEL`] at a
/// time; returns each subject's runs. A subject with a run that hung gets
/// no runs under load.
pub fn run_all(exe: &TestExe, subjects: &[Subject]) -> Result<Vec<Vec<Run>>> {
    let dir = root().join("target").join("xtask").join("catch");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let jobs: Vec<(usize, Setup)> = subjects
        .iter()
        .enumerate()
        .flat_map(|(i, s)| setups(s.runs).into_iter().map(move |setup| (i, setup)))
        .collect();
    let results: Mutex<Vec<Vec<Run>>> = Mutex::new(subjects.iter().map(|_| Vec::new()).collect());
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    for loaded in [false, true] {
        // A subject that hung already has its verdict: its runs under load
        // would only hang too, each for the whole limit.
        let hung: Vec<usize> = results
            .lock()
            .expect("no panic holds it")
            .iter()
            .enumerate()
            .filter(|(_, runs)| runs.iter().any(|r| r.outcome == Outcome::Hung))
            .map(|(i, _)| i)
            .collect();
        let phase: Vec<(usize, Setup)> = jobs
            .iter()
            .filter(|(i, s)| s.loaded == loaded && !hung.contains(i))
            .copied()
            .collect();
        let next = Mutex::new(phase.into_iter());
        let work = || {
            std::thread::scope(|scope| {
                for _ in 0..PARALLEL {
                    scope.spawn(|| {
                        loop {
                            let job = next.lock().expect("no panic holds it").next();
                            let Some((i, setup)) = job else { break };
                            match once(exe, &subjects[i], setup, &dir) {
                                Ok(run) => results.lock().expect("no panic holds it")[i].push(run),
                                Err(e) => errors.lock().expect("no panic holds it").push(e),
                            }
                        }
                    });
                }
            });
        };
        if loaded {
            let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
            crate::audit::under_load(cores, work);
        } else {
            work();
        }
    }
    let errors = errors.into_inner().expect("no panic holds it");
    if let Some(first) = errors.first() {
        return Err(first.clone());
    }
    Ok(results.into_inner().expect("no panic holds it"))
}

/// One run of one subject.
fn once(exe: &TestExe, subject: &Subject, setup: Setup, dir: &Path) -> Result<Run> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    // ORDERING: a counter; only its uniqueness matters.
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let record = dir.join(format!("{}-{n}.record", std::process::id()));
    let _ = std::fs::remove_file(&record);
    let mut args = vec!["--exact"];
    args.extend(subject.tests.iter().map(String::as_str));
    let mut cmd = exe
        .cmd(&args)
        .env("EXERCISE_SIDE", setup.side.var())
        .env("EXERCISE_RECORD", &record.to_string_lossy())
        .env("RUST_BACKTRACE", "0");
    if setup.shaken {
        cmd = cmd.env("EXERCISE_SHAKE", "1");
    }
    let start = Instant::now();
    let captured = cmd.capture(RUN_LIMIT)?;
    let took = start.elapsed();
    if captured.output.contains("running 0 tests") {
        return Err(format!(
            "{}: `--exact` selected no test of {}",
            exe.selector(),
            subject.module
        ));
    }
    let text = std::fs::read_to_string(&record).unwrap_or_default();
    let _ = std::fs::remove_file(&record);
    let mut outcome = outcome(
        &captured.output,
        captured.passed(),
        captured.status.is_none(),
        &subject.tests,
        &subject.file,
    );
    // In a file it shares, a test's own lines are its module's.
    if let (Outcome::Failed { own, at, .. }, Some(lines)) = (&mut outcome, subject.lines) {
        *own = *own && super::find::within(at, lines);
    }
    Ok(Run {
        setup,
        outcome,
        record: Record::parse(&text),
        took,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(side: Side, k: usize, outcome: Outcome, held: bool, calls: usize) -> Run {
        Run {
            setup: Setup {
                side,
                loaded: k >= 5,
                shaken: k % 2 == 1,
            },
            outcome,
            record: Record {
                held,
                calls_in_window: calls,
                from_holder: false,
            },
            took: Duration::ZERO,
        }
    }

    fn own(message: &str) -> Outcome {
        Outcome::Failed {
            own: true,
            at: "exercises/mine/x.rs:1:1".into(),
            message: message.into(),
        }
    }

    /// Ten runs on each side: `buggy(k)` and `fixed(k)` say how run k went.
    fn runs(buggy: impl Fn(usize) -> Run, fixed: impl Fn(usize) -> Run) -> Vec<Run> {
        (0..10).map(buggy).chain((0..10).map(fixed)).collect()
    }

    #[test]
    fn half_the_runs_are_loaded_and_every_other_one_shaken() {
        let all = setups(10);
        assert_eq!(all.len(), 20);
        for side in [Side::Buggy, Side::Fixed] {
            let mine: Vec<&Setup> = all.iter().filter(|s| s.side == side).collect();
            assert_eq!(mine.iter().filter(|s| s.loaded).count(), 5);
            assert_eq!(mine.iter().filter(|s| s.shaken).count(), 5);
            assert!(mine.iter().any(|s| s.loaded && s.shaken));
            assert!(mine.iter().any(|s| !s.loaded && !s.shaken));
        }
        assert_eq!(setups(4).iter().filter(|s| s.loaded).count(), 4);
    }

    #[test]
    fn a_forced_test_that_fails_on_the_bug_and_passes_the_fix_is_caught() {
        let grade = judge(
            &runs(
                |k| run(Side::Buggy, k, own("C1 lost_wakeup: late"), true, 1),
                |k| run(Side::Fixed, k, Outcome::Passed, true, 1),
            ),
            "WINDOW",
        );
        assert_eq!(grade.verdict, Verdict::Caught);
        assert_eq!(grade.caught, (10, 10));
        assert_eq!(grade.passed, (10, 10));
        assert_eq!(grade.red.as_deref(), Some("C1 lost_wakeup: late"));
    }

    #[test]
    fn each_shortfall_has_its_verdict() {
        let w = "WINDOW";
        let never = judge(
            &runs(
                |k| run(Side::Buggy, k, own("S1 late"), false, 0),
                |k| run(Side::Fixed, k, Outcome::Passed, false, 0),
            ),
            w,
        );
        assert_eq!(never.verdict, Verdict::NeverHeld);
        assert!(never.reasons[0].contains("failed on the buggy version 10 of 10 times"));

        let always = judge(
            &runs(
                |k| run(Side::Buggy, k, own("wrong"), true, 1),
                |k| run(Side::Fixed, k, own("wrong"), true, 1),
            ),
            w,
        );
        assert_eq!(always.verdict, Verdict::FailsOnFixed);
        assert!(always.reasons[0].starts_with("fails on the fixed version (10 of 10 runs)"));

        let nothing = judge(
            &runs(
                |k| run(Side::Buggy, k, Outcome::Passed, true, 1),
                |k| run(Side::Fixed, k, Outcome::Passed, true, 1),
            ),
            w,
        );
        assert_eq!(nothing.verdict, Verdict::MissesTheBug);
        assert!(nothing.reasons[0].starts_with("passes on the buggy version"));

        let lucky = judge(
            &runs(
                |k| {
                    let outcome = if k % 2 == 1 {
                        Outcome::Passed
                    } else {
                        own("C1")
                    };
                    run(Side::Buggy, k, outcome, true, usize::from(k % 2 == 0))
                },
                |k| run(Side::Fixed, k, Outcome::Passed, true, 1),
            ),
            w,
        );
        assert_eq!(lucky.verdict, Verdict::Luck);
        assert!(lucky.reasons[0].starts_with("caught it 5 of 10 times: it depends on luck"));
        assert!(lucky.reasons[0].contains("came after the release"));

        let elsewhere = judge(
            &runs(
                |k| {
                    let outcome = Outcome::Failed {
                        own: false,
                        at: "kit/src/threads.rs:9:5".into(),
                        message: "thread is still alive".into(),
                    };
                    run(Side::Buggy, k, outcome, true, 1)
                },
                |k| run(Side::Fixed, k, Outcome::Passed, true, 1),
            ),
            w,
        );
        assert_eq!(elsewhere.verdict, Verdict::NotItsOwn);
        assert!(elsewhere.reasons[0].contains("kit/src/threads.rs"));
    }

    #[test]
    fn a_test_that_hangs_on_the_fix_by_calling_from_the_holder_is_told_why() {
        let mut all = runs(
            |k| run(Side::Buggy, k, own("C1"), true, 1),
            |k| run(Side::Fixed, k, Outcome::Hung, true, 1),
        );
        for r in all.iter_mut().filter(|r| r.setup.side == Side::Fixed) {
            r.record.from_holder = true;
        }
        let grade = judge(&all, "WINDOW");
        assert_eq!(grade.verdict, Verdict::FailsOnFixed);
        assert!(grade.reasons[0].contains("still running"));
        assert!(grade.reasons[0].contains("from the thread that holds the pause"));
    }

    /// N1's busy wait, I6's dead timer: no window, so no run needs a thread
    /// held, and the other verdicts stand as they are.
    #[test]
    fn a_bug_with_no_race_is_caught_with_no_thread_held() {
        let caught = judge_unforced(&runs(
            |k| run(Side::Buggy, k, own("N1 busy_wait: 97% of a core"), false, 0),
            |k| run(Side::Fixed, k, Outcome::Passed, false, 0),
        ));
        assert_eq!(caught.verdict, Verdict::Caught);
        assert_eq!(caught.caught, (10, 10));
        assert!(!caught.reasons[0].contains("held"), "{}", caught.reasons[0]);

        let nothing = judge_unforced(&runs(
            |k| run(Side::Buggy, k, Outcome::Passed, false, 0),
            |k| run(Side::Fixed, k, Outcome::Passed, false, 0),
        ));
        assert_eq!(nothing.verdict, Verdict::MissesTheBug);
        assert_eq!(nothing.reasons.len(), 1, "not told it never held a thread");
        assert!(nothing.reasons[0].contains("does not catch the bug"));

        let lucky = judge_unforced(&runs(
            |k| {
                let outcome = if k >= 5 { Outcome::Passed } else { own("N1") };
                run(Side::Buggy, k, outcome, false, 0)
            },
            |k| run(Side::Fixed, k, Outcome::Passed, false, 0),
        ));
        assert_eq!(lucky.verdict, Verdict::Luck);
        assert!(lucky.reasons[0].contains("instead of timing it"));

        let always = judge_unforced(&runs(
            |k| run(Side::Buggy, k, own("wrong"), false, 0),
            |k| run(Side::Fixed, k, own("wrong"), false, 0),
        ));
        assert_eq!(always.verdict, Verdict::FailsOnFixed);
    }

    #[test]
    fn the_first_reason_is_the_verdict_and_the_others_follow() {
        let grade = judge(
            &runs(
                |k| run(Side::Buggy, k, Outcome::Passed, false, 0),
                |k| run(Side::Fixed, k, Outcome::Passed, false, 0),
            ),
            "WINDOW",
        );
        assert_eq!(grade.verdict, Verdict::NeverHeld);
        assert_eq!(grade.reasons.len(), 2);
        assert!(grade.reasons[1].starts_with("passes on the buggy version"));
    }

    #[test]
    fn verdicts_are_spelt_as_wrong_tests_declare_them() {
        for v in Verdict::ALL {
            assert_eq!(Verdict::parse(v.word()), Some(v));
        }
        assert_eq!(Verdict::parse("lucky"), None);
    }

    #[test]
    fn the_failure_is_the_tests_own_when_it_panicked_in_its_file() {
        let tests = vec!["c1::mine::caught".to_string()];
        let file = Path::new("exercises/mine/c1.rs");
        let out = "running 1 test\n\
                   thread 'catch-c1-1' (7) panicked at exercises/mine/c1.rs:9:9:\ntask panics\n\
                   test c1::mine::caught ... FAILED\n\n---- c1::mine::caught stdout ----\n\n\
                   thread 'c1::mine::caught' (8) panicked at /w/exercises/mine/c1.rs:40:5:\n\
                   C1 lost_wakeup: task 2 due at 50 ms\n  log line\n\
                   note: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(
            outcome(out, false, false, &tests, file),
            Outcome::Failed {
                own: true,
                at: "/w/exercises/mine/c1.rs:40:5".into(),
                message: "C1 lost_wakeup: task 2 due at 50 ms\n  log line".into(),
            }
        );
        let elsewhere = "thread 'c1::mine::caught' (8) panicked at kit/src/threads.rs:92:5:\n\
                         thread \"x\" is still alive\n";
        assert!(matches!(
            outcome(elsewhere, false, false, &tests, file),
            Outcome::Failed { own: false, .. }
        ));
        assert!(matches!(
            outcome("Aborted\n", false, false, &tests, file),
            Outcome::Broke(_)
        ));
        assert_eq!(outcome("", false, true, &tests, file), Outcome::Hung);
        assert_eq!(outcome("", true, false, &tests, file), Outcome::Passed);
    }

    #[test]
    fn the_record_says_held_and_which_calls_came_in_the_window() {
        let record = Record::parse(
            "held at WINDOW (c1)\ncall schedule while held at WINDOW (c1)\n\
             call cancel while held at WINDOW (c1) from the thread that holds the pause\n",
        );
        assert_eq!(
            record,
            Record {
                held: true,
                calls_in_window: 2,
                from_holder: true,
            }
        );
        assert_eq!(Record::parse(""), Record::default());
    }
}
