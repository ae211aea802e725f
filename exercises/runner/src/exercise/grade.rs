//! Grading a test by the versions it tells apart, as mutation testing
//! judges a test suite and as Brown's Examplar grades students' tests
//! (Wrenn and Krishnamurthi, "Executable Examples for Programming Problem
//! Comprehension", ICER 2019): a catch-it (or find-it) test must pass on
//! every correct version of the timer (the wheats) every time, and fail on
//! the version with the named bug (one of the chaffs) every time, by an
//! assertion of its own. A test that leans on how one correct version is
//! built fails another one; a test that catches another bug fails another
//! chaff, and is told which.
//!
//! Each version is built into a test executable of its own (one per slot,
//! see `exercises/list.rs`), in which every name a test can reach is the
//! same; each run is one `--exact` run of one of them, from a path that
//! says nothing of the version. The runs vary what a lucky test would lean
//! on: part of them run while one busy thread per core keeps every core
//! loaded (the audit's helper), and every other one is shaken
//! (`EXERCISE_SHAKE`: a release of a pause lets the released thread run on
//! before the test goes on, an order the scheduler could always have
//! chosen). The exercises' API writes a record to standard error (lines
//! that start with `RECORD_PREFIX`): whether a thread was held at one of the
//! exercise's pause points, and which calls came while it was.
//!
//! From those runs, [`judge`] decides, in this order, the first reason a
//! test falls short (and lists every other one):
//!
//! 1. it never held a thread at a pause point ([`Verdict::NeverHeld`]):
//!    whatever it caught, it caught by timing, or caught another bug;
//! 2. it failed on a correct version ([`Verdict::RejectsCorrect`]);
//! 3. it passed on the named bug's version every time, and caught another
//!    bug instead ([`Verdict::CatchesAnother`]) or none
//!    ([`Verdict::MissesTheBug`]);
//! 4. it caught the bug in some runs only ([`Verdict::Luck`]);
//! 5. it failed on the buggy version, but not by an assertion in its own
//!    file: a panic elsewhere, a hang, a crash ([`Verdict::NotItsOwn`]);
//!
//! and otherwise it caught the bug ([`Verdict::Caught`]). Every grade also
//! says which of the other buggy versions the test caught: its
//! thoroughness.

use super::list::{RECORD_PREFIX, Version};
use crate::cargo::TestExe;
use crate::cmd::{Result, root};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long one run may take before it counts as hung. A pause's
/// `wait_reached` gives up after 5 s: a run that waits that long still ends
/// in time to say so.
pub const RUN_LIMIT: Duration = Duration::from_secs(8);

/// How many runs a student's check makes on the named bug's version; each
/// correct version gets [`wheat_runs`] of it, each other buggy version two.
pub const RUNS: usize = 10;

/// How many runs go at once: the tests mostly wait (for deadlines, for a
/// held thread), so more runs than cores keep the check short.
const PARALLEL: usize = 10;

/// What a version is to the exercise being graded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A correct version: every test must pass on it.
    Wheat,
    /// The version with the bug the exercise names: a test must fail on it.
    Named,
    /// A version with another bug: catching it counts for thoroughness.
    Other,
}

/// The role of each of an exercise's versions, by slot; `shows` is the
/// bug the exercise names.
pub fn roles(versions: &[Version], shows: &str) -> Vec<Role> {
    versions
        .iter()
        .map(|v| match v.bug {
            None => Role::Wheat,
            Some(bug) if bug == shows => Role::Named,
            Some(_) => Role::Other,
        })
        .collect()
}

/// How many runs each correct version gets when the named one gets `runs`.
pub fn wheat_runs(runs: usize) -> usize {
    if runs >= RUNS { 4 } else { 2 }
}

/// How one run is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The version it gets, by slot.
    pub slot: usize,
    /// Whether every core is busy meanwhile.
    pub loaded: bool,
    /// Whether a release lets the released thread run on first.
    pub shaken: bool,
}

/// The setups of a test's runs: `runs` on the named bug's version,
/// [`wheat_runs`] on each correct one, two on each other buggy one; of each
/// version's runs the second half under load, every other one shaken.
pub fn setups(roles: &[Role], runs: usize) -> Vec<Setup> {
    roles
        .iter()
        .enumerate()
        .flat_map(|(slot, role)| {
            let n = match role {
                Role::Named => runs,
                Role::Wheat => wheat_runs(runs),
                Role::Other => 2,
            };
            (0..n).map(move |k| Setup {
                slot,
                loaded: k >= n / 2,
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
    /// How many runs on the named bug's version.
    pub runs: usize,
    /// The role of each version, by slot.
    pub roles: Vec<Role>,
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
    /// Reads the record lines out of what a run printed (see
    /// `exercises/src/catch/mod.rs`): only whole lines that start with
    /// [`RECORD_PREFIX`].
    pub fn parse(output: &str) -> Record {
        let mut record = Record::default();
        for line in output.lines() {
            let Some(line) = line.strip_prefix(RECORD_PREFIX) else {
                continue;
            };
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
    /// Fails on the named bug's version every time, by its own assertion,
    /// with a thread held in the window; passes on every correct version
    /// every time.
    Caught,
    /// No run held a thread at a pause point.
    NeverHeld,
    /// Failed (or hung) on a correct version.
    RejectsCorrect,
    /// Passed on the named bug's version every time, and caught no other.
    MissesTheBug,
    /// Passed on the named bug's version every time, but caught another.
    CatchesAnother,
    /// Caught the bug in some runs, not all.
    Luck,
    /// Failed on the buggy version, but not by an assertion of its own.
    NotItsOwn,
}

impl Verdict {
    /// Every verdict, as [`Verdict::word`] spells them.
    pub const ALL: [Verdict; 7] = [
        Verdict::Caught,
        Verdict::NeverHeld,
        Verdict::RejectsCorrect,
        Verdict::MissesTheBug,
        Verdict::CatchesAnother,
        Verdict::Luck,
        Verdict::NotItsOwn,
    ];

    /// Its name in a wrong test's `// verdict:` line.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Caught => "caught",
            Verdict::NeverHeld => "never-held",
            Verdict::RejectsCorrect => "rejects-correct",
            Verdict::MissesTheBug => "misses-the-bug",
            Verdict::CatchesAnother => "catches-another",
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
    /// The test's own red message on the named bug's version, if it had one.
    pub red: Option<String>,
    /// Runs on the named bug's version caught (failed by its own
    /// assertion, a thread held), of how many.
    pub caught: (usize, usize),
    /// Runs on the correct versions passed, of how many.
    pub passed: (usize, usize),
    /// The other buggy versions it caught on every run, by their bug's ID
    /// and name (`S1 sleep_until`): its thoroughness.
    pub also: Vec<String>,
    /// The other buggy versions it did not catch on every run.
    pub not: Vec<String>,
}

/// A version as a message names it: its name and where a reader finds it.
fn named(v: &Version) -> String {
    match v.bug {
        Some(bug) => format!("{bug} `{}` ({})", v.name, v.file),
        None => format!("`{}` ({})", v.name, v.file),
    }
}

/// Judges a test from its runs. `versions` are the exercise's, by slot;
/// `point` names the window in messages, or is `None` for a bug with no
/// race in it (N1's busy wait, I6's dead timer), which a test catches by
/// measuring or by waiting for what must happen: no run needs a thread
/// held.
pub fn judge(runs: &[Run], versions: &[Version], shows: &str, point: Option<&str>) -> Grade {
    let roles = roles(versions, shows);
    let role = |r: &Run| roles.get(r.setup.slot).copied().unwrap_or(Role::Other);
    let of = |want: Role| runs.iter().filter(move |r| role(r) == want);
    let forced = point.is_some();
    // Without a window, every run is as good as held.
    let held = |r: &Run| r.record.held || !forced;
    let own_failure = |r: &Run| matches!(r.outcome, Outcome::Failed { own: true, .. });
    let caught = |r: &&Run| own_failure(r) && held(r);
    let n_named = of(Role::Named).count();
    let n_caught = of(Role::Named).filter(caught).count();
    let n_passed_named = of(Role::Named)
        .filter(|r| r.outcome == Outcome::Passed)
        .count();
    let wheat_bad: Vec<&Run> = of(Role::Wheat)
        .filter(|r| r.outcome != Outcome::Passed)
        .collect();
    let n_wheat = of(Role::Wheat).count();
    let red = of(Role::Named).find_map(|r| match &r.outcome {
        Outcome::Failed {
            own: true, message, ..
        } => Some(message.clone()),
        _ => None,
    });
    // The other buggy versions: caught when every run of one failed by the
    // test's own assertion.
    let (mut also, mut not) = (Vec::new(), Vec::new());
    for (slot, v) in versions.iter().enumerate() {
        if roles[slot] != Role::Other {
            continue;
        }
        let mine: Vec<&Run> = runs.iter().filter(|r| r.setup.slot == slot).collect();
        if !mine.is_empty() && mine.iter().all(|r| own_failure(r)) {
            also.push(format!("{} `{}`", v.bug.unwrap_or("?"), v.name));
        } else {
            not.push(format!("{} `{}`", v.bug.unwrap_or("?"), v.name));
        }
    }
    let point = point.unwrap_or("its window");
    let bug = if forced { "race" } else { "bug" };
    let named_version = versions
        .iter()
        .zip(&roles)
        .find(|(_, r)| **r == Role::Named)
        .map_or_else(|| shows.to_string(), |(v, _)| named(v));

    let mut found: Vec<(Verdict, String)> = Vec::new();
    if forced && !runs.iter().any(held) {
        let failed = n_named - n_passed_named;
        found.push((
            Verdict::NeverHeld,
            format!(
                "it never holds a thread in the window: no run held a thread at {point}. Whatever it catches (it failed on the version with {shows} {failed} \
                 of {n_named} times), it catches by timing, or it catches another bug. Arm a \
                 `Pause` at {point} before the thread gets there, wait until it is held, make \
                 the call that races, then release it."
            ),
        ));
    }
    if let Some(first) = wheat_bad.first() {
        let wheat = versions
            .get(first.setup.slot)
            .map_or_else(String::new, named);
        let mut text = format!(
            "rejects a correct timer: it failed on {wheat} ({} of {n_wheat} runs on correct \
             timers failed). {} It tests how one timer is built, not the {bug}: a test of \
             this {bug} passes on every timer without it.",
            wheat_bad.len(),
            describe(&first.outcome)
        );
        if wheat_bad.iter().any(|r| r.record.from_holder) {
            text += " Known mistake: it calls the timer from the thread that holds the \
                     pause, while the timer thread is held. Where the window is inside the \
                     timer's lock, that call waits for the held thread, which waits for the \
                     release, which never comes: make the call from another thread, and \
                     release the pause while it waits.";
        }
        found.push((Verdict::RejectsCorrect, text));
    }
    if n_named > 0 && n_passed_named == n_named {
        if let Some(other) = also.first() {
            found.push((
                Verdict::CatchesAnother,
                format!(
                    "it catches another bug instead: it fails on {other} every time, but passes \
                     on {named_version} ({n_named} of {n_named} runs), the version with {shows}. \
                     Read again what {shows} breaks, and when."
                ),
            ));
        } else {
            let mut text = format!(
                "passes on {named_version} ({n_named} of {n_named} runs): it does not catch \
                 the {bug}."
            );
            let held_named: Vec<&Run> = of(Role::Named).filter(|r| r.record.held).collect();
            if forced && !held_named.is_empty() {
                if held_named.iter().all(|r| r.record.calls_in_window == 0) {
                    text += &format!(
                        " It holds the thread at {point}, but makes no call to the timer while \
                         the thread is held: the race needs its second half inside the window."
                    );
                } else {
                    text += " It holds the thread in the window: does it assert what the bug \
                             breaks, and wait long enough to see it?";
                }
            } else if !forced {
                text += " Does it assert what the bug breaks, and wait long enough (or \
                         measure long enough) to see it?";
            }
            found.push((Verdict::MissesTheBug, text));
        }
    } else if n_passed_named > 0 || of(Role::Named).any(|r| own_failure(r) && !held(r)) {
        let missed: Vec<&Run> = of(Role::Named).filter(|r| !caught(r)).collect();
        let loaded = missed.iter().filter(|r| r.setup.loaded).count();
        let shaken = missed.iter().filter(|r| r.setup.shaken).count();
        let instead = if forced {
            "Hold a thread in the window instead"
        } else {
            "Wait for what must happen (or measure what the thread demands, not what a \
             loaded machine gives it) instead of timing it"
        };
        let mut text = format!(
            "caught it {n_caught} of {n_named} times: it depends on luck. {instead}. (Of the \
             {} runs it missed, {loaded} ran under load and {shaken} were shaken: a release \
             let the thread run on first.)",
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
    let not_own: Vec<&Run> = of(Role::Named)
        .filter(|r| !matches!(r.outcome, Outcome::Passed) && !own_failure(r))
        .collect();
    if let Some(first) = not_own.first() {
        found.push((
            Verdict::NotItsOwn,
            format!(
                "fails on {named_version}, but not by an assertion of its own in {} of \
                 {n_named} runs: {} Make the test fail with an `assert!` whose message names \
                 the bug and its numbers.",
                not_own.len(),
                describe(&first.outcome)
            ),
        ));
    }
    let reasons_and_verdict = match found.first() {
        Some((verdict, _)) => (*verdict, found.into_iter().map(|(_, t)| t).collect()),
        None => {
            let loaded = runs.iter().filter(|r| r.setup.loaded).count();
            let held_at = if forced {
                format!(", with the thread held at {point}")
            } else {
                String::new()
            };
            let wheats = roles.iter().filter(|r| **r == Role::Wheat).count();
            (
                Verdict::Caught,
                vec![format!(
                    "caught it: it fails on {named_version} {n_caught} of {n_named} times, by \
                     its own assertion{held_at}, and passes on all {wheats} correct timers, \
                     {n_wheat} of {n_wheat} runs ({loaded} of the {} runs with every core \
                     busy).",
                    runs.len()
                )],
            )
        }
    };
    Grade {
        verdict: reasons_and_verdict.0,
        reasons: reasons_and_verdict.1,
        red,
        caught: (n_caught, n_named),
        passed: (n_wheat - wheat_bad.len(), n_wheat),
        also,
        not,
    }
}

/// The thoroughness line of a grade: which other bugs the test caught.
pub fn thoroughness(grade: &Grade) -> String {
    let total = grade.also.len() + grade.not.len();
    match (grade.also.is_empty(), grade.not.is_empty()) {
        (true, true) => String::new(),
        (false, true) => format!(
            "thoroughness: it also catches every other buggy version ({total}): {}.",
            grade.also.join(", ")
        ),
        (true, false) => format!(
            "thoroughness: it catches none of the other {total} buggy versions ({}).",
            grade.not.join(", ")
        ),
        (false, false) => format!(
            "thoroughness: it also catches {} of the other {total} buggy versions: {}; not {}.",
            grade.also.len(),
            grade.also.join(", "),
            grade.not.join(", ")
        ),
    }
}

/// One outcome in words, for a reason.
fn describe(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Passed => "It passed.".to_string(),
        Outcome::Failed {
            own: true, message, ..
        } => format!("It failed with: {}", sentence(message)),
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

/// A message as a sentence of a reason: its first line, with a full stop.
fn sentence(message: &str) -> String {
    let first = message.lines().next().unwrap_or_default().trim_end();
    if first.ends_with(['.', '!', '?', ':']) {
        first.to_string()
    } else {
        format!("{first}.")
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

/// The executables to run, one per slot, each linked under a directory
/// whose name is drawn anew for every grading: what a test could read of
/// its own path (`current_exe`, `argv[0]`) says nothing of the version.
/// Linked as soon as each is built, the runs do not depend on cargo's file,
/// which another build may replace meanwhile.
pub struct Builds {
    /// The executable of each slot, as cargo built it.
    pub exes: Vec<TestExe>,
    /// Where each is linked for its runs.
    paths: Vec<PathBuf>,
    /// The directory they are linked under, removed on drop.
    dir: Option<PathBuf>,
}

impl Builds {
    /// No builds yet.
    pub fn new() -> Builds {
        Builds {
            exes: Vec::new(),
            paths: Vec::new(),
            dir: None,
        }
    }

    /// Links `exe`, the next slot's build, under the fresh directory.
    pub fn add(&mut self, exe: TestExe) -> Result {
        let dir = match &self.dir {
            Some(dir) => dir.clone(),
            None => {
                let base = exe
                    .path
                    .parent()
                    .and_then(Path::parent)
                    .map_or_else(crate::cmd::target_dir, Path::to_path_buf);
                let dir = base
                    .join("exercise-runs")
                    .join(format!("{:016x}", fresh_token()));
                self.dir = Some(dir.clone());
                dir
            }
        };
        let sub = dir.join(format!("{:016x}", fresh_token()));
        std::fs::create_dir_all(&sub).map_err(|e| format!("{}: {e}", sub.display()))?;
        let path = sub.join("catch");
        // A hard link: no copy of a large executable; a copy where the file
        // system has no links.
        if std::fs::hard_link(&exe.path, &path).is_err() {
            std::fs::copy(&exe.path, &path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        self.paths.push(path);
        self.exes.push(exe);
        Ok(())
    }

    /// The tests the first build runs by default (every build has the same).
    pub fn tests(&self) -> Result<Vec<String>> {
        let (exe, path) = self
            .exes
            .first()
            .zip(self.paths.first())
            .ok_or("no build to list the tests of")?;
        crate::cargo::default_tests(&TestExe {
            path: path.clone(),
            ..exe.clone()
        })
    }
}

impl Drop for Builds {
    fn drop(&mut self) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// How far a long grading has come: a bar redrawn in place on a
/// terminal; on a pipe or a file, a plain line at every tenth, so that a
/// log holds no control characters.
pub struct Progress {
    total: usize,
    done: Mutex<usize>,
    terminal: bool,
}

impl Progress {
    /// Progress toward `total` runs.
    pub fn new(total: usize) -> Progress {
        use std::io::IsTerminal;
        Progress {
            total: total.max(1),
            done: Mutex::new(0),
            terminal: std::io::stdout().is_terminal(),
        }
    }

    /// One more run done.
    pub fn one_done(&self) {
        use std::io::Write;
        let mut done = self.done.lock().expect("no panic holds it");
        *done += 1;
        let (n, total) = (*done, self.total);
        let mut out = std::io::stdout().lock();
        if self.terminal {
            let width = 40;
            let filled = n * width / total;
            let _ = write!(
                out,
                "\r  [{}{}] {n}/{total} runs",
                "#".repeat(filled),
                " ".repeat(width - filled)
            );
            if n == total {
                let _ = writeln!(out);
            }
            let _ = out.flush();
        } else if n * 10 / total > (n - 1) * 10 / total {
            let _ = writeln!(out, "  {n}/{total} runs");
        }
    }
}

/// A number no test can predict: the clock's nanoseconds mixed with the
/// process id and a counter (std's `RandomState` is seeded at random).
fn fresh_token() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.finish()
}

/// Runs every subject as [`setups`] says, the unloaded runs first and then
/// the loaded ones, [`PARALLEL`] at a time, in an order shuffled by the
/// standard hasher's seed; returns each subject's runs. A subject with a
/// run that hung gets no runs under load.
pub fn run_all(
    builds: &Builds,
    subjects: &[Subject],
    progress: Option<&Progress>,
) -> Result<Vec<Vec<Run>>> {
    let mut jobs: Vec<(usize, Setup)> = subjects
        .iter()
        .enumerate()
        .flat_map(|(i, s)| {
            setups(&s.roles, s.runs)
                .into_iter()
                .map(move |setup| (i, setup))
        })
        .collect();
    // Each subject's runs on several versions at once, not one version
    // after another: a busy moment of the machine falls on all of them.
    jobs.sort_by_cached_key(|_| fresh_token());
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
                            match once(builds, &subjects[i], setup) {
                                Ok(run) => results.lock().expect("no panic holds it")[i].push(run),
                                Err(e) => errors.lock().expect("no panic holds it").push(e),
                            }
                            if let Some(p) = progress {
                                p.one_done();
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

/// One run of one subject: its tests, `--exact`, in the slot's executable
/// run from its fresh path, with the same environment whatever the slot.
fn once(builds: &Builds, subject: &Subject, setup: Setup) -> Result<Run> {
    let exe = builds
        .exes
        .get(setup.slot)
        .ok_or_else(|| format!("no build of slot {}", setup.slot))?;
    let mut args = vec!["--exact"];
    args.extend(subject.tests.iter().map(String::as_str));
    let mut cmd = crate::cmd::Cmd::new(&builds.paths[setup.slot].to_string_lossy(), &args)
        .dir(&exe.package_dir)
        .env("CARGO_MANIFEST_DIR", &exe.package_dir.to_string_lossy())
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
    let outcome = outcome(
        &captured.output,
        captured.passed(),
        captured.status.is_none(),
        &subject.tests,
        &subject.file,
    );
    Ok(Run {
        setup,
        outcome,
        record: Record::parse(&captured.output),
        took,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two correct versions, the named bug's, and another bug's.
    const VERSIONS: &[Version] = &[
        Version::wheat("one_lock", "a.rs"),
        Version::wheat("semaphore", "b.rs"),
        Version::chaff("racy", "C1", "c.rs"),
        Version::chaff("sleeper", "S1", "d.rs"),
    ];

    fn run(slot: usize, k: usize, outcome: Outcome, held: bool, calls: usize) -> Run {
        Run {
            setup: Setup {
                slot,
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

    /// Ten runs on the racy version, four on each other: `on(slot, k)`
    /// says how run k on that slot went.
    fn runs(on: impl Fn(usize, usize) -> Run) -> Vec<Run> {
        (0..4)
            .flat_map(|slot| (0..if slot == 2 { 10 } else { 4 }).map(move |k| (slot, k)))
            .map(|(slot, k)| on(slot, k))
            .collect()
    }

    fn judge_c1(all: &[Run]) -> Grade {
        judge(all, VERSIONS, "C1", Some("WINDOW"))
    }

    #[test]
    fn the_named_bug_gets_the_most_runs_and_part_of_each_version_is_loaded() {
        let roles = roles(VERSIONS, "C1");
        assert_eq!(roles, [Role::Wheat, Role::Wheat, Role::Named, Role::Other]);
        let all = setups(&roles, RUNS);
        let on = |slot| all.iter().filter(move |s| s.slot == slot);
        assert_eq!(on(2).count(), RUNS);
        assert_eq!(on(0).count(), 4);
        assert_eq!(on(3).count(), 2);
        for slot in 0..4 {
            assert!(on(slot).any(|s| s.loaded) && on(slot).any(|s| !s.loaded));
            assert!(on(slot).any(|s| s.shaken));
        }
        assert_eq!(setups(&roles, 4).iter().filter(|s| s.slot == 2).count(), 4);
    }

    #[test]
    fn a_test_that_fails_the_bug_and_passes_every_correct_timer_is_caught() {
        let grade = judge_c1(&runs(|slot, k| match slot {
            2 | 3 => run(slot, k, own("C1 lost_wakeup: late"), true, 1),
            _ => run(slot, k, Outcome::Passed, true, 1),
        }));
        assert_eq!(grade.verdict, Verdict::Caught);
        assert_eq!(grade.caught, (10, 10));
        assert_eq!(grade.passed, (8, 8));
        assert_eq!(grade.also, ["S1 `sleeper`"]);
        assert!(grade.not.is_empty());
        assert!(thoroughness(&grade).contains("every other buggy version"));
        assert_eq!(grade.red.as_deref(), Some("C1 lost_wakeup: late"));
    }

    #[test]
    fn a_test_that_fails_one_correct_timer_is_told_which() {
        // It passes on the timer that holds its lock in the window, and
        // fails on the one that holds none: it tested the lock.
        let grade = judge_c1(&runs(|slot, k| match slot {
            1 => run(
                slot,
                k,
                own("schedule returned while the thread was held"),
                true,
                1,
            ),
            2 => run(slot, k, own("C1"), true, 1),
            _ => run(slot, k, Outcome::Passed, true, 1),
        }));
        assert_eq!(grade.verdict, Verdict::RejectsCorrect);
        assert!(
            grade.reasons[0].contains("`semaphore` (b.rs)"),
            "{}",
            grade.reasons[0]
        );
        assert!(grade.reasons[0].contains("schedule returned while"));
        assert_eq!(grade.passed, (4, 8));
    }

    #[test]
    fn a_test_of_another_bug_is_told_which_it_caught() {
        let grade = judge_c1(&runs(|slot, k| match slot {
            3 => run(slot, k, own("S1"), true, 1),
            _ => run(slot, k, Outcome::Passed, true, 1),
        }));
        assert_eq!(grade.verdict, Verdict::CatchesAnother);
        assert!(
            grade.reasons[0].contains("S1 `sleeper`"),
            "{}",
            grade.reasons[0]
        );
        assert!(grade.reasons[0].contains("C1 `racy` (c.rs)"));
    }

    #[test]
    fn each_other_shortfall_has_its_verdict() {
        let never = judge_c1(&runs(|slot, k| match slot {
            2 => run(slot, k, own("C1"), false, 0),
            _ => run(slot, k, Outcome::Passed, false, 0),
        }));
        assert_eq!(never.verdict, Verdict::NeverHeld);

        let nothing = judge_c1(&runs(|slot, k| run(slot, k, Outcome::Passed, true, 1)));
        assert_eq!(nothing.verdict, Verdict::MissesTheBug);
        assert!(nothing.reasons[0].contains("does not catch the race"));

        let after = judge_c1(&runs(|slot, k| run(slot, k, Outcome::Passed, true, 0)));
        assert!(after.reasons[0].contains("makes no call to the timer while"));

        let lucky = judge_c1(&runs(|slot, k| match slot {
            2 if k % 2 == 0 => run(slot, k, own("C1"), true, 1),
            2 => run(slot, k, Outcome::Passed, true, 0),
            _ => run(slot, k, Outcome::Passed, true, 1),
        }));
        assert_eq!(lucky.verdict, Verdict::Luck);
        assert!(lucky.reasons[0].starts_with("caught it 5 of 10 times"));
        assert!(lucky.reasons[0].contains("came after the release"));

        let elsewhere = judge_c1(&runs(|slot, k| match slot {
            2 => {
                let outcome = Outcome::Failed {
                    own: false,
                    at: "kit/src/threads.rs:9:5".into(),
                    message: "thread is still alive".into(),
                };
                run(slot, k, outcome, true, 1)
            }
            _ => run(slot, k, Outcome::Passed, true, 1),
        }));
        assert_eq!(elsewhere.verdict, Verdict::NotItsOwn);
        assert!(elsewhere.reasons[0].contains("kit/src/threads.rs"));
    }

    #[test]
    fn a_test_that_hangs_on_a_correct_timer_by_calling_from_the_holder_is_told_why() {
        let mut all = runs(|slot, k| match slot {
            0 => run(slot, k, Outcome::Hung, true, 1),
            2 => run(slot, k, own("C1"), true, 1),
            _ => run(slot, k, Outcome::Passed, true, 1),
        });
        for r in all.iter_mut().filter(|r| r.setup.slot == 0) {
            r.record.from_holder = true;
        }
        let grade = judge_c1(&all);
        assert_eq!(grade.verdict, Verdict::RejectsCorrect);
        assert!(grade.reasons[0].contains("still running"));
        assert!(grade.reasons[0].contains("from the thread that holds the pause"));
    }

    /// N1's busy wait, I6's dead timer: no window, so no run needs a thread
    /// held, and the other verdicts stand as they are.
    #[test]
    fn a_bug_with_no_race_is_caught_with_no_thread_held() {
        let caught = judge(
            &runs(|slot, k| match slot {
                2 => run(slot, k, own("N1 busy_wait: 97% of a core"), false, 0),
                _ => run(slot, k, Outcome::Passed, false, 0),
            }),
            VERSIONS,
            "C1",
            None,
        );
        assert_eq!(caught.verdict, Verdict::Caught);
        assert!(!caught.reasons[0].contains("held"), "{}", caught.reasons[0]);
    }

    #[test]
    fn the_first_reason_is_the_verdict_and_the_others_follow() {
        let grade = judge_c1(&runs(|slot, k| run(slot, k, Outcome::Passed, false, 0)));
        assert_eq!(grade.verdict, Verdict::NeverHeld);
        assert_eq!(grade.reasons.len(), 2);
        assert!(grade.reasons[1].starts_with("passes on C1 `racy`"));
    }

    #[test]
    fn verdicts_are_spelt_as_wrong_tests_declare_them() {
        for v in Verdict::ALL {
            assert_eq!(Verdict::parse(v.word()), Some(v));
        }
        assert_eq!(Verdict::parse("fails-on-fixed"), None);
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
    fn the_record_is_read_from_its_own_lines_only() {
        let p = RECORD_PREFIX;
        let record = Record::parse(&format!(
            "running 1 test\n{p}held at WINDOW (c1)\n{p}call schedule while held at WINDOW \
             (c1)\n{p}call cancel while held at WINDOW (c1) from the thread that holds the \
             pause\nsaid: held at WINDOW\n"
        ));
        assert_eq!(
            record,
            Record {
                held: true,
                calls_in_window: 2,
                from_holder: true,
            }
        );
        assert_eq!(Record::parse("held at WINDOW\n"), Record::default());
    }
}
