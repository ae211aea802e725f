//! Project automation for the workspace, run as `cargo xtask <command>` (the
//! alias lives in `.cargo/config.toml`). This crate holds CI's own checks
//! and the dispatch: every command about the book forwards to `book-tools`,
//! the benchmark report to `perf-report`, a student's or a teacher's
//! command to the course runner; what they all need is in `devkit`. Flags
//! come from `pico-args`.
//!
//! - `ci`: everything CI runs (rustfmt, clippy, the tests, the
//!   failing-then-fixed check, the loom models, the book, the benches' build);
//! - `exercise`: a student's exercises (list, start, check, hint, solution,
//!   reset), and `exercise verify`, CI's check of them both ways;
//! - `model-check <name> [--file F]`: a model-it exercise's loom model, run
//!   on the racy and the fixed version; `model-check --verify`, CI's proof of
//!   that grader;
//! - `catalogue`: the book's catalogue of bugs against the tests, both ways;
//! - `prose`: the book's words: no figure from a run typed into prose, no
//!   chapter named by number;
//! - `ftf`: the failing-then-fixed check alone;
//! - `postgres`: stage 9 on PostgreSQL, on throwaway servers (its tests,
//!   and its red checks);
//! - `durable`: stage 9's nodes in processes, and its stress run at full
//!   size, on SQLite and PostgreSQL;
//! - `audit [N] [--only STAGE]`: every reproduction and red check N times
//!   under load (the determinism audit); `audit --whole [N]`: every stage's whole default
//!   test run N times under load;
//! - `stress [--runs N] [--replay R]`: every finished version under stress,
//!   every task accounted for once;
//! - `loom`: the loom models alone; `loom PACKAGE MODEL`: one model file as
//!   a class sees it;
//! - `prepare`: build what the teachers' demos and the exercises will
//!   build; `demos`: run each demo as the book writes it, and check it
//!   prints what the page quotes;
//! - `test-times`: each test binary's time, the slowest first (where
//!   `cargo test --workspace` spends its budget);
//! - `bench-report [--write]`: the last benchmark run as ratios and
//!   verdicts, and the performance chapter's plots;
//! - `jdk [--write]`: the same scenarios on the JDK and on ours, side by side;
//! - `bundle [--check] [--no-pdf]`: the classroom bundle, for a lab with no internet;
//! - `book` / `serve`: build the book, or serve it (installing mdBook);
//! - `timelines`: regenerate the book's generated assets from real runs.

mod audit;
// The shared tooling, and the course runner, under the names the files of
// this crate use.
use book_tools::{book, bundle, catalogue, demos, prose, screenshots, timelines, tools};
use course_runner::{exercise, model_check};
use devkit::{cargo, cmd};
use perf_report as bench_report;
mod ci;
mod durable;
mod ftf;
mod jdk;
mod loom;
mod postgres;
mod stress;
mod test_times;

use std::process::ExitCode;

const USAGE: &str = "\
cargo xtask <command>

  serve [--no-open] [--port N]
              serve the book at http://localhost:3000 (installs mdBook if missing; in the
              offline bundle without mdBook, serves the bundle's built book)
  ci          run everything CI runs, stopping at the first failure
  exercise [list|start|check|hint|solution|reset|verify] [EX]
              a student's exercises, one command each (`cargo xtask exercise help`)
  model-check <name> [--file F] | --verify
              a model-it exercise: your loom model, run on the racy and the fixed version
              (`cargo xtask model-check` for the list); --verify: CI's proof of the grader
  catalogue [--write]
              check the book's catalogue of bugs (book/src/catalogue.md) against the tests;
              --write first rewrites the summary of its column Shown by
  prose       check the book's words: no figure from a run typed into prose (each must be
              included from book/src/generated), no chapter named by number
  ftf         the failing-then-fixed check: every ignored test must fail, naming its bug
  postgres    stage 9 on PostgreSQL: its tests and red checks with the postgres features
              on, each test binary on a throwaway server (needs `apt-get install postgresql`)
  durable     stage 9's nodes in processes and its stress run at full size, on both stores
              (DURABLE_STRESS_REPLAY=R replays a run's plan)
  audit [N] [--only STAGE] [--load B]
              run every reproduction and red check N times (default 20) with every core
              loaded (B busy threads: --load 4 on 2 cores is twice the load), and name
              any whose verdict changed
  audit --whole [N] [--only STAGE] [--load B]
              run every stage's whole default test run N times (default 20) with every
              core loaded: a table of runs and failed runs per stage, and each failing test
  jdk [--write]
              run the same scenarios on the JDK and on our Timer and pool, side by side;
              --write updates the book's table
  stress [--runs N] [--replay R]
              8 clients, 100 000 tasks, random delays and cancels, a shutdown midway, on
              every finished version, N times (default 5); --replay replays one run
  bench --quick
              every bench once, small (what CI runs), then the report
  bench-report [--write [--only FILE]]
              the last `cargo bench` run as ratios against peers and floors, each target's
              verdict; --write puts the table and the plots in book/src/generated/perf
              (--only floors.md: that one table, from a run of its bench alone); a table
              the run measured nothing of is never written over the one there
  loom        the loom models (release, --cfg loom, LOOM_MAX_PREEMPTIONS=3)
  loom PACKAGE MODEL [--full] [--no-run]
              one loom_* file, buggy models too, as the book shows it: with
              LOOM_LOCATION=1, cut to the panic and the deadlock line (--full: all of it)
  prepare     build everything the teachers' demos and the exercises will build, so that
              nothing compiles in class (a few minutes on 2 cores; once, before the course)
  demos       run every command the teachers' page and the chapters' teacher notes say to
              type, as written, and check each prints what the page quotes
  test-times  each test binary's time alone, the slowest first: where `cargo test
              --workspace` spends its budget
  bundle [--check] [--no-pdf]
              pack the classroom bundle (the workspace, its vendored dependencies, the built
              book and its PDF) in target/bundle; --check unpacks it and runs its tests and
              its serve offline; --no-pdf leaves the PDF out (so does a missing Chromium)
  book        build the book with link checking
  tools       install the pinned book tools (mdbook, mdbook-linkcheck2) if needed
  timelines [--only NAME] [--out DIR]
              regenerate the book's generated assets (book/src/generated) from real runs
  screenshots [--out DIR] [--only NAME] [--check]
              build the book and take a full-page PNG of every chapter with headless
              Chromium (default target/screenshots/), naming broken or shrunk pictures
              and code or tables wider than the page, on screen and on the print page;
              counts them per page; --check fails unless there are none
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!();
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch(args: &[String]) -> cmd::Result {
    let Some((command, rest)) = args.split_first() else {
        print!("{USAGE}");
        return Ok(());
    };
    let mut flags = pico_args::Arguments::from_vec(rest.iter().map(Into::into).collect());
    let bad = |e: pico_args::Error| format!("{e}\n\n{USAGE}");
    match command.as_str() {
        "ci" => done(flags).and_then(|()| ci::run()),
        "exercise" => exercise::run(rest),
        "model-check" => model_check::run(rest),
        "catalogue" => {
            let write = flags.contains("--write");
            done(flags)?;
            let checked = if write {
                catalogue::write()
            } else {
                catalogue::check()
            };
            checked.map(drop)
        }
        "prose" => done(flags).and_then(|()| prose::run().map(|note| println!("{note}"))),
        "ftf" => done(flags).and_then(|()| ftf::run().map(|_| ())),
        "postgres" => done(flags).and_then(|()| postgres::run().map(|note| println!("{note}"))),
        "durable" => done(flags).and_then(|()| durable::run().map(|note| println!("{note}"))),
        "audit" => {
            let whole = flags.contains("--whole");
            let only: Option<String> = flags.opt_value_from_str("--only").map_err(bad)?;
            let busy: Option<usize> = flags.opt_value_from_str("--load").map_err(bad)?;
            let runs: usize = flags.opt_free_from_str().map_err(bad)?.unwrap_or(20);
            done(flags)?;
            if runs == 0 {
                return Err("audit: N must be at least 1".to_string());
            }
            if whole {
                audit::whole(runs, only.as_deref(), busy).map(drop)
            } else {
                audit::run(runs, only.as_deref(), busy)
            }
        }
        "stress" => {
            let runs: usize = flags
                .opt_value_from_str("--runs")
                .map_err(bad)?
                .unwrap_or(stress::RUNS);
            let replay: Option<u64> = flags.opt_value_from_str("--replay").map_err(bad)?;
            done(flags)?;
            stress::run(runs, replay).map(|note| println!("{note}"))
        }
        "bench" => {
            if !flags.contains("--quick") {
                return Err(
                    "for the full run: cargo bench -p perf --features postgres (then cargo \
                     xtask bench-report); for the quick one: cargo xtask bench --quick"
                        .to_string(),
                );
            }
            done(flags)?;
            bench_report::quick().map(|note| println!("{note}"))
        }
        "bench-report" => {
            let write = flags.contains("--write");
            let only: Option<String> = flags.opt_value_from_str("--only").map_err(bad)?;
            done(flags)?;
            bench_report::run(write, only.as_deref())
        }
        "demos" => done(flags).and_then(|()| demos::run().map(|note| println!("{note}"))),
        "prepare" => done(flags).and_then(|()| demos::prepare().map(|note| println!("{note}"))),
        "test-times" => done(flags).and_then(|()| test_times::run()),
        "loom" => {
            let full = flags.contains("--full");
            let no_run = flags.contains("--no-run");
            let package: Option<String> = flags.opt_free_from_str().map_err(bad)?;
            let model: Option<String> = flags.opt_free_from_str().map_err(bad)?;
            done(flags)?;
            match (package, model) {
                (None, None) if !full && !no_run => loom::run().map(|_| ()),
                (Some(package), Some(model)) => loom::demo(&package, &model, full, no_run),
                _ => Err(format!(
                    "loom takes no argument, or PACKAGE MODEL\n\n{USAGE}"
                )),
            }
        }
        "jdk" => {
            let write = flags.contains("--write");
            done(flags)?;
            jdk::run(write).map(drop)
        }
        "bundle" => {
            let check = flags.contains("--check");
            let pdf = !flags.contains("--no-pdf");
            done(flags)?;
            bundle::run(check, pdf).map(|note| println!("{note}"))
        }
        "book" => done(flags).and_then(|()| book::build()),
        "tools" => done(flags).and_then(|()| tools::ensure()),
        "serve" => {
            let open = !flags.contains("--no-open");
            let port: u16 = flags
                .opt_value_from_str("--port")
                .map_err(bad)?
                .unwrap_or(3000);
            done(flags)?;
            book::serve(open, port)
        }
        "timelines" => {
            let only: Option<String> = flags.opt_value_from_str("--only").map_err(bad)?;
            let out: String = flags
                .opt_value_from_str("--out")
                .map_err(bad)?
                .unwrap_or_else(|| "book/src/generated".to_string());
            done(flags)?;
            timelines::check_out(&out)?;
            timelines::run(&out, only.as_deref(), red_messages)
        }
        "screenshots" => {
            let only: Option<String> = flags.opt_value_from_str("--only").map_err(bad)?;
            let out: String = flags
                .opt_value_from_str("--out")
                .map_err(bad)?
                .unwrap_or_else(|| screenshots::DEFAULT_OUT.to_string());
            let check = flags.contains("--check");
            done(flags)?;
            screenshots::run(&out, only.as_deref(), check)
        }
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    }
}

/// The red messages the book includes, from a run of the failing-then-fixed
/// check (CI's, so `timelines` is handed it rather than owning it).
fn red_messages() -> cmd::Result<Vec<timelines::RedMessage>> {
    let outcome = ftf::run()?;
    Ok(outcome
        .shown_bugs
        .into_iter()
        .map(|bug| timelines::RedMessage {
            test: bug.test,
            command: bug.command,
            message: bug.message,
        })
        .collect())
}

/// Fails naming any argument left over after a command took its flags.
fn done(flags: pico_args::Arguments) -> cmd::Result {
    let left = flags.finish();
    if left.is_empty() {
        Ok(())
    } else {
        let left: Vec<String> = left
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        Err(format!(
            "unexpected argument(s): {}\n\n{USAGE}",
            left.join(" ")
        ))
    }
}
