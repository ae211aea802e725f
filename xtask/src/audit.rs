//! `cargo xtask audit [N]`: the determinism audit.
//!
//! Every bug's forced reproduction (a default test named `*_reproduces`)
//! must pass on every run, and every ignored red check must fail naming
//! its bug on every run, however loaded the machine. The audit runs each
//! of them N times (20 unless told) while a busy thread per core keeps
//! every core loaded, and reports any test whose verdict changed even
//! once, with the output of the run that changed. The failing-then-fixed
//! check (`ftf.rs`) asks each red check once on a quiet machine; this asks
//! all of them many times on a loaded one.

use crate::cargo::{self, TestExe};
use crate::cmd::{Result, banner, secs};
use crate::ftf::{self, last_lines, panic_message};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long one run of one test may take.
const LIMIT: Duration = Duration::from_secs(120);

/// What a test must do on every run.
#[derive(Clone, Copy, PartialEq)]
enum Expect {
    /// A reproduction: pass.
    Pass,
    /// A red check: fail, naming its bug.
    Red,
}

/// One test's runs.
struct Tally {
    exe: usize,
    name: String,
    expect: Expect,
    good: usize,
    /// The first run that went the other way: what it printed.
    changed: Option<String>,
}

/// Runs the audit: `runs` times each, under load; fails naming every test
/// whose verdict changed.
pub fn run(runs: usize) -> Result {
    banner(&format!(
        "determinism audit: every reproduction and red check, {runs} time(s) each, every core loaded"
    ));
    let (_, exes) = ftf::test_exes()?;
    let mut tallies = Vec::new();
    for (i, exe) in exes.iter().enumerate() {
        for name in cargo::default_tests(exe)? {
            if name
                .rsplit("::")
                .next()
                .is_some_and(|n| n.contains("_reproduces"))
            {
                tallies.push(tally(i, name, Expect::Pass));
            }
        }
        for name in cargo::ignored_tests(exe)? {
            tallies.push(tally(i, name, Expect::Red));
        }
    }
    println!(
        "{} reproductions and {} red checks",
        tallies.iter().filter(|t| t.expect == Expect::Pass).count(),
        tallies.iter().filter(|t| t.expect == Expect::Red).count()
    );
    let start = Instant::now();
    let stop = AtomicBool::new(false);
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..cores {
            s.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    std::hint::spin_loop();
                }
            });
        }
        for t in &mut tallies {
            for _ in 0..runs {
                match once(&exes[t.exe], &t.name, t.expect) {
                    Ok(()) => t.good += 1,
                    Err(what) => {
                        t.changed.get_or_insert(what);
                    }
                }
            }
        }
        stop.store(true, Ordering::Relaxed);
    });
    let unstable: Vec<&Tally> = tallies.iter().filter(|t| t.good < runs).collect();
    for t in &tallies {
        let verdict = if t.good == runs { "stable" } else { "CHANGED" };
        let expect = match t.expect {
            Expect::Pass => "passes",
            Expect::Red => "red",
        };
        println!(
            "  {verdict:<8} {expect:<7} {:>3}/{runs}  {} {}",
            t.good,
            exes[t.exe].selector(),
            t.name
        );
    }
    println!(
        "audit: {} test(s), {runs} run(s) each, under load on {cores} core(s), in {}; {} changed",
        tallies.len(),
        secs(start.elapsed()),
        unstable.len()
    );
    if unstable.is_empty() {
        return Ok(());
    }
    Err(unstable
        .iter()
        .map(|t| {
            format!(
                "{} {}: {}/{runs} as expected; a run that was not:\n{}",
                exes[t.exe].selector(),
                t.name,
                t.good,
                t.changed.as_deref().unwrap_or("")
            )
        })
        .collect::<Vec<_>>()
        .join("\n"))
}

fn tally(exe: usize, name: String, expect: Expect) -> Tally {
    Tally {
        exe,
        name,
        expect,
        good: 0,
        changed: None,
    }
}

/// One run of one test; `Err` with what it printed if it did not do what
/// it must.
fn once(exe: &TestExe, name: &str, expect: Expect) -> std::result::Result<(), String> {
    match expect {
        // A red check is judged exactly as the failing-then-fixed check
        // judges it: failed, naming its bug.
        Expect::Red => ftf::judge(exe, name).map(|_| ()),
        Expect::Pass => {
            let run = exe
                .cmd(&["--exact", name])
                .capture(LIMIT)
                .map_err(|e| e.to_string())?;
            if run.passed() && !run.output.contains("running 0 tests") {
                Ok(())
            } else {
                Err(format!(
                    "{} ({}): {}",
                    name,
                    run.how(),
                    panic_message(&run.output).unwrap_or_else(|| last_lines(&run.output, 8))
                ))
            }
        }
    }
}
