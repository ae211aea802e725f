//! `cargo xtask postgres`: stage 9 on PostgreSQL, a CI step of its own.
//!
//! `cargo test --workspace` runs the durable timer on SQLite only, so that
//! it never needs a database server. This step turns the `postgres`
//! features on: `kit::pg`'s own tests (a throwaway server starts, answers,
//! stops, leaves nothing), then every test of `durable-timer`, each
//! scenario also on PostgreSQL (its `mod postgres`), each test binary on a
//! server of its own that its tests share. Then the failing-then-fixed
//! rule for the PostgreSQL half: every ignored `postgres::` test, run
//! alone, must fail naming its bug, as `cargo xtask ftf` judges the rest.
//!
//! Never skipped: with no PostgreSQL installation the step fails, and says
//! how to install one (`.ci/run` installs Debian's package first).

use crate::cargo;
use crate::cmd::{Cmd, Result, banner, secs};
use crate::ftf;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

/// Runs the step; a note with what it ran and how long each part took.
pub fn run() -> Result<String> {
    installed()?;
    let t = Instant::now();
    banner("kit::pg: a throwaway server starts, answers and stops");
    Cmd::cargo(&["test", "-p", "kit", "--features", "pg", "--test", "pg"]).run()?;
    let kit = t.elapsed();

    let t = Instant::now();
    banner("durable-timer, every scenario on SQLite and on PostgreSQL");
    Cmd::cargo(&["test", "-p", "durable-timer", "--features", "postgres"]).run()?;
    let tests = t.elapsed();

    let t = Instant::now();
    let shown = red_checks()?;
    Ok(format!(
        "kit::pg {}, tests {}, {shown} red checks on PostgreSQL {}",
        secs(kit),
        secs(tests),
        secs(t.elapsed())
    ))
}

/// Fails, saying how to install it, unless there is an `initdb` where
/// `kit::pg` looks for one.
fn installed() -> Result {
    let debian = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .any(|v| v.path().join("bin/initdb").is_file());
    let on_path = std::env::var_os("PATH").is_some_and(|p| {
        std::env::split_paths(&p).any(|dir| Path::new(&dir).join("initdb").is_file())
    });
    if debian || on_path {
        return Ok(());
    }
    Err(
        "no PostgreSQL installation (no initdb in /usr/lib/postgresql/*/bin or on the \
         PATH): this step runs stage 9 on a server its tests start, and never skips; \
         install it: `apt-get install postgresql` (as root; .ci/run does)"
            .into(),
    )
}

/// Every ignored `postgres::` test of `durable-timer`, alone: each must
/// fail naming its bug. Returns how many did.
fn red_checks() -> Result<usize> {
    banner("failing-then-fixed on PostgreSQL: every ignored postgres:: test must fail");
    let packages = cargo::workspace()?;
    let build = Cmd::cargo(&[
        "test",
        "-p",
        "durable-timer",
        "--features",
        "postgres",
        "--tests",
        "--no-run",
        "--message-format=json",
    ]);
    let exes = cargo::test_executables(build, &packages)?;
    let mut jobs = Vec::new();
    for exe in &exes {
        for name in cargo::ignored_tests(exe)? {
            if name.starts_with("postgres::") {
                jobs.push((exe, name));
            }
        }
    }
    if jobs.is_empty() {
        return Err(
            "no ignored postgres:: test in durable-timer: each bug's test file \
                    runs its scenarios on PostgreSQL in a `mod postgres`"
                .into(),
        );
    }
    jobs.sort_by_key(|(exe, name)| ftf::teaching_rank(&packages, exe, name));
    println!(
        "{} ignored postgres:: tests; running each alone",
        jobs.len()
    );
    // Two at a time: each starts a server of its own (initdb takes a core
    // for a second).
    let verdicts: Vec<Mutex<Option<Result<String>>>> =
        jobs.iter().map(|_| Mutex::new(None)).collect();
    let next = Mutex::new(0usize);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let k = {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        *n - 1
                    };
                    let Some((exe, name)) = jobs.get(k) else {
                        break;
                    };
                    let verdict = ftf::judge(exe, name).map(|(line, _)| line);
                    *verdicts[k].lock().unwrap() = Some(verdict);
                }
            });
        }
    });
    let mut problems = Vec::new();
    for verdict in verdicts {
        match verdict.into_inner().unwrap() {
            Some(Ok(line)) => println!("{line}"),
            Some(Err(problem)) => {
                println!("  FAILED: {problem}");
                problems.push(problem);
            }
            None => problems.push("a red check was never run".into()),
        }
    }
    if problems.is_empty() {
        Ok(jobs.len())
    } else {
        Err(format!(
            "{} of the {} red checks on PostgreSQL broke the rule:\n  {}",
            problems.len(),
            jobs.len(),
            problems.join("\n  ")
        ))
    }
}
