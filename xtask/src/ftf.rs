//! `cargo xtask ftf`: the failing-then-fixed check.
//!
//! `#[ignore]` in this workspace means "shows a bug" and nothing else. So
//! every ignored test of every test target is run on its own and must fail,
//! and its failure must name the bug: the test is named after its curriculum
//! ID (`c1_lost_wakeup_on_racy`), so its message must carry `C1`. The log
//! then reads as the list of bugs the workspace shows.
//!
//! Its pieces are shared with the determinism audit (`audit.rs`), which
//! asks the same questions many times on a loaded machine: the build
//! ([`test_exes`]), a run of one test alone under a time limit
//! ([`run_alone`]), the red-check judge ([`red_verdict`]) and the teaching
//! order ([`teaching_rank`]).

use crate::cargo::{self, TestExe};
use crate::cmd::{Captured, Cmd, Result, banner, secs};
pub use devkit::libtest::{bug_id, first_lines, last_lines, panic_message, panic_messages, red};
use std::sync::Mutex;
use std::sync::mpsc;
use std::time::Duration;

/// How long one test may run alone: a bug shows in seconds; a test that
/// hangs is a broken demonstration, not a shown bug.
const LIMIT: Duration = Duration::from_secs(120);

/// What the check found.
pub struct Outcome {
    /// Ignored tests that failed as they should, naming their bug.
    pub shown: usize,
    /// Everything that broke the rule, one message each.
    pub problems: Vec<String>,
    /// Each bug shown: the command that shows it, and its red message.
    pub shown_bugs: Vec<ShownBug>,
}

/// One ignored test that failed as it should.
pub struct ShownBug {
    /// The test's name (`c1_lost_wakeup_on_racy`).
    pub test: String,
    /// The command a student types to see it fail.
    pub command: String,
    /// The first line of its failure message.
    pub message: String,
}

/// Runs the check; fails if any ignored test passed or did not name its bug.
pub fn run() -> Result<Outcome> {
    banner("failing-then-fixed: every ignored test must fail, naming its bug");
    let (packages, exes) = test_exes()?;

    let mut jobs: Vec<(usize, String)> = Vec::new();
    for (i, exe) in exes.iter().enumerate() {
        for name in cargo::ignored_tests(exe)? {
            jobs.push((i, name));
        }
    }
    // The log lists the bugs in teaching order: stage by stage, then by ID.
    jobs.sort_by_key(|(i, name)| teaching_rank(&packages, &exes[*i], name));
    println!(
        "{} ignored tests in {} test targets; running each alone",
        jobs.len(),
        exes.len()
    );

    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 4);
    let next = Mutex::new(0usize);
    let (tx, rx) = mpsc::channel();
    let mut outcome = Outcome {
        shown: 0,
        problems: Vec::new(),
        shown_bugs: Vec::new(),
    };
    std::thread::scope(|s| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, jobs, exes) = (&next, &jobs, &exes);
            s.spawn(move || {
                loop {
                    let k = {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        *n - 1
                    };
                    let Some((i, name)) = jobs.get(k) else { break };
                    let verdict = judge(&exes[*i], name);
                    if tx.send((k, verdict)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Print in a stable order, as results come in.
        let mut pending = std::collections::BTreeMap::new();
        let mut printed = 0;
        for (k, verdict) in rx {
            pending.insert(k, verdict);
            while let Some(v) = pending.remove(&printed) {
                match v {
                    Ok((line, bug)) => {
                        outcome.shown += 1;
                        println!("{line}");
                        outcome.shown_bugs.push(bug);
                    }
                    Err(problem) => {
                        println!("  FAILED: {problem}");
                        outcome.problems.push(problem);
                    }
                }
                printed += 1;
            }
        }
    });

    println!(
        "failing-then-fixed: {} bugs shown, {} problems",
        outcome.shown,
        outcome.problems.len()
    );
    if outcome.problems.is_empty() {
        Ok(outcome)
    } else {
        Err(format!(
            "the failing-then-fixed check found {} problem(s):\n  {}",
            outcome.problems.len(),
            outcome.problems.join("\n  ")
        ))
    }
}

/// The workspace's packages, and its test executables, built; loom models
/// left out (they are compiled out without `--cfg loom`: `cargo xtask loom`).
pub fn test_exes() -> Result<(Vec<cargo::Package>, Vec<TestExe>)> {
    let packages = cargo::workspace()?;
    let build = Cmd::cargo(&[
        "test",
        "--workspace",
        "--tests",
        "--no-run",
        "--message-format=json",
    ]);
    let loom: Vec<(String, Vec<String>)> = packages
        .iter()
        .map(|p| (p.name.clone(), p.loom_tests()))
        .collect();
    let exes = cargo::test_executables(build, &packages)?
        .into_iter()
        .filter(|e| {
            !e.target.starts_with("loom_")
                && !loom
                    .iter()
                    .any(|(p, tests)| *p == e.package && tests.contains(&e.target))
        })
        .collect();
    Ok((packages, exes))
}

/// Where a test stands in teaching order: its stage (as the root
/// Cargo.toml lists the members), then its ID's number, then its name.
pub fn teaching_rank(
    packages: &[cargo::Package],
    exe: &TestExe,
    name: &str,
) -> (usize, u32, String) {
    let stage = packages
        .iter()
        .position(|p| p.name == exe.package)
        .unwrap_or(usize::MAX);
    let id = bug_id(name).unwrap_or_default();
    let number: u32 = id
        .trim_start_matches(|c: char| c.is_ascii_alphabetic())
        .parse()
        .unwrap_or(u32::MAX);
    (stage, number, name.to_owned())
}

/// Runs one test alone (`--exact`; an ignored one with `--ignored`), killed
/// after [`LIMIT`]. `--show-output` keeps what a passing test printed, so a
/// run that went the wrong way can be shown with its numbers. Fails if the
/// name selected no test.
pub fn run_alone(exe: &TestExe, name: &str, ignored: bool) -> Result<Captured> {
    let mut args = vec!["--exact", name, "--show-output"];
    if ignored {
        args.insert(0, "--ignored");
    }
    let run = exe
        .cmd(&args)
        .capture(LIMIT)
        .map_err(|e| format!("{}: {e}", who(exe, name)))?;
    if run.output.contains("running 0 tests") {
        return Err(format!("{}: `--exact` selected no test", who(exe, name)));
    }
    Ok(run)
}

/// A test as a student selects it: `condvar-timer --test c1_lost_wakeup
/// c1_lost_wakeup_on_racy`.
pub fn who(exe: &TestExe, name: &str) -> String {
    format!("{} {}", exe.selector(), name)
}

/// Runs one ignored test alone; `Ok(report line, the bug)` if it failed
/// naming its bug.
pub fn judge(exe: &TestExe, name: &str) -> Result<(String, ShownBug)> {
    red_verdict(exe, name, &run_alone(exe, name, true)?)
}

/// Judges one run of an ignored test: `Ok(report line, the bug)` if it
/// failed naming its bug.
pub fn red_verdict(exe: &TestExe, name: &str, run: &Captured) -> Result<(String, ShownBug)> {
    let who = who(exe, name);
    if run.passed() {
        return Err(format!("ignored means shows a bug: {who} passed"));
    }
    if run.status.is_none() {
        return Err(format!(
            "{who}: still running after {}; a bug must show within seconds",
            secs(LIMIT)
        ));
    }
    let Some(id) = bug_id(name) else {
        return Err(format!(
            "{who}: an ignored test's name starts with its curriculum ID (`c1_lost_wakeup_on_racy`)"
        ));
    };
    // A test may panic on purpose before its check fails (a task that
    // panics, I6): the message that counts is the one naming the bug.
    let messages = panic_messages(&run.output);
    let message = messages
        .iter()
        .find(|m| m.contains(&id))
        .or(messages.first())
        .cloned();
    let named = match &message {
        Some(m) => m.contains(&id),
        None => run.output.contains(&id),
    };
    if !named {
        return Err(format!(
            "{who} failed ({}) without naming {id}: {}",
            run.how(),
            message.unwrap_or_else(|| last_lines(&run.output, 5))
        ));
    }
    let line = message.unwrap_or_else(|| format!("{id}: {}", run.how()));
    let report = format!("  {}\n      {who} ({})", red(&line), secs(run.took));
    let bug = ShownBug {
        test: name.to_owned(),
        command: format!(
            "cargo test -p {} -- --ignored --exact {name}",
            exe.selector()
        ),
        message: line,
    };
    Ok((report, bug))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_test_names() {
        assert_eq!(bug_id("c1_lost_wakeup_on_racy").as_deref(), Some("C1"));
        assert_eq!(bug_id("tests::t10_thundering_herd").as_deref(), Some("T10"));
        assert_eq!(bug_id("lost_wakeup").as_deref(), None);
        assert_eq!(bug_id("c_lost").as_deref(), None);
        assert_eq!(bug_id("12_x").as_deref(), None);
    }

    #[test]
    fn panic_messages_are_read_from_test_output() {
        let out = "running 1 test\n\nthread 'c1_lost_wakeup_on_racy' (4242) panicked at condvar-timer/tests/c1_lost_wakeup.rs:40:5:\nC1 lost_wakeup: task 2 due at 50 ms, ran at 2003 ms\nnote: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(
            panic_message(out).as_deref(),
            Some("C1 lost_wakeup: task 2 due at 50 ms, ran at 2003 ms")
        );
        assert_eq!(panic_message("no panic here"), None);
        let assert = "thread 'x' panicked at a.rs:1:1:\nassertion `left == right` failed: C2 order flipped\n  left: 1\n";
        assert_eq!(panic_message(assert).as_deref(), Some("C2 order flipped"));
        let two = "thread 'a' (1) panicked at x.rs:1:1:\ntask 1 panics, on purpose\n\
                   thread 'b' (2) panicked at y.rs:2:2:\nI6 panic_kills_timer: lost\n";
        assert_eq!(
            panic_messages(two),
            ["task 1 panics, on purpose", "I6 panic_kills_timer: lost"]
        );
    }

    #[test]
    fn first_lines_are_the_tests_own() {
        let failed = "running 1 test\ntest w2_x ... FAILED\n\nsuccesses:\n\nsuccesses:\n\nfailures:\n\n\
                      ---- w2_x stdout ----\nadded at tick 3\n\nthread 'w2_x' (7) panicked at a.rs:1:1:\n\
                      W2 cursor_race: ran at 636 ms\nnote: run with `RUST_BACKTRACE=1` environment variable\n\
                      stack backtrace:\n   0: x\n\nfailures:\n    w2_x\n";
        assert_eq!(
            first_lines(failed, "w2_x", 8),
            [
                "added at tick 3",
                "thread 'w2_x' (7) panicked at a.rs:1:1:",
                "W2 cursor_race: ran at 636 ms"
            ]
        );
        assert_eq!(first_lines(failed, "w2_x", 1), ["added at tick 3"]);
        let passed = "test t1 ... ok\n\nsuccesses:\n\n---- t1 stdout ----\n3 wake-ups\n\nsuccesses:\n    t1\n";
        assert_eq!(first_lines(passed, "t1", 8), ["3 wake-ups"]);
        assert_eq!(first_lines("a\nb\n\nc\n", "t1", 2), ["b", "c"]);
    }
}
