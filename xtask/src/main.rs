//! Project automation for the workspace, run as `cargo xtask <command>` (the
//! alias lives in `.cargo/config.toml`). Metadata comes from
//! `cargo_metadata`, flags from `pico-args`; the rest is the standard library.
//!
//! - `ci`: everything CI runs (rustfmt, clippy, the tests, the
//!   failing-then-fixed check, the loom models, the book, the benches' build);
//! - `exercise`: a student's exercises (list, start, check, hint, solution,
//!   reset), and `exercise verify`, CI's check of them both ways;
//! - `catalogue`: the book's catalogue of bugs against the tests, both ways;
//! - `ftf`: the failing-then-fixed check alone;
//! - `audit [N]`: every reproduction and red check N times under load (the
//!   determinism audit);
//! - `stress [--runs N] [--replay R]`: every finished version under stress,
//!   every task accounted for once;
//! - `loom`: the loom models alone;
//! - `bench-report [--write]`: the last benchmark run as ratios and
//!   verdicts, and the performance chapter's plots;
//! - `jdk [--write]`: the same scenarios on the JDK and on ours, side by side;
//! - `bundle [--check]`: the classroom bundle, for a lab with no internet;
//! - `book` / `serve`: build the book, or serve it (installing mdBook);
//! - `timelines`: regenerate the book's generated assets from real runs.

mod audit;
mod bench_report;
mod book;
mod bundle;
mod cargo;
mod catalogue;
mod ci;
mod cmd;
mod exercise;
mod ftf;
mod generators;
mod jdk;
mod loom;
mod screenshots;
mod stress;
mod timelines;
mod tools;

use std::process::ExitCode;

const USAGE: &str = "\
cargo xtask <command>

  serve [--no-open] [--port N]
              serve the book at http://localhost:3000 (installs mdBook if missing)
  ci          run everything CI runs, stopping at the first failure
  exercise [list|start|check|hint|solution|reset|verify] [EX]
              a student's exercises, one command each (`cargo xtask exercise help`)
  catalogue   check the book's catalogue of bugs (book/src/catalogue.md) against the tests
  ftf         the failing-then-fixed check: every ignored test must fail, naming its bug
  audit [N]   run every reproduction and red check N times (default 20) with every core
              loaded, and name any whose verdict changed
  jdk [--write]
              run the same scenarios on the JDK and on our Timer and pool, side by side;
              --write updates the book's table
  stress [--runs N] [--replay R]
              8 clients, 100 000 tasks, random delays and cancels, a shutdown midway, on
              every finished version, N times (default 5); --replay replays one run
  bench --quick
              every bench once, small (what CI runs), then the report
  bench-report [--write]
              the last `cargo bench` run as ratios against peers and floors, each target's
              verdict; --write puts the table and the plots in book/src/generated/perf
  loom        the loom models (release, --cfg loom, LOOM_MAX_PREEMPTIONS=3)
  bundle [--check]
              pack the classroom bundle (the workspace, its vendored dependencies, the built
              book and its PDF) in target/bundle; --check unpacks it and runs its tests offline
  book        build the book with link checking
  tools       install the pinned book tools (mdbook, mdbook-linkcheck2) if needed
  timelines [--only NAME] [--out DIR]
              regenerate the book's generated assets (book/src/generated) from real runs
  screenshots [--out DIR] [--only NAME]
              build the book and take a full-page PNG of every chapter with headless
              Chromium (default target/screenshots/), naming broken or shrunk pictures
              and code or tables wider than the page
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
        "catalogue" => done(flags).and_then(|()| catalogue::check().map(|_| ())),
        "ftf" => done(flags).and_then(|()| ftf::run().map(|_| ())),
        "audit" => {
            let runs: usize = flags.opt_free_from_str().map_err(bad)?.unwrap_or(20);
            done(flags)?;
            if runs == 0 {
                return Err("audit: N must be at least 1".to_string());
            }
            audit::run(runs)
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
                    "for the full run: cargo bench --workspace (then cargo xtask \
                            bench-report); for the quick one: cargo xtask bench --quick"
                        .to_string(),
                );
            }
            done(flags)?;
            bench_report::quick().map(|note| println!("{note}"))
        }
        "bench-report" => {
            let write = flags.contains("--write");
            done(flags)?;
            bench_report::run(write)
        }
        "loom" => done(flags).and_then(|()| loom::run().map(|_| ())),
        "jdk" => {
            let write = flags.contains("--write");
            done(flags)?;
            jdk::run(write).map(drop)
        }
        "bundle" => {
            let check = flags.contains("--check");
            done(flags)?;
            bundle::run(check).map(|note| println!("{note}"))
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
            timelines::run(&out, only.as_deref())
        }
        "screenshots" => {
            let only: Option<String> = flags.opt_value_from_str("--only").map_err(bad)?;
            let out: String = flags
                .opt_value_from_str("--out")
                .map_err(bad)?
                .unwrap_or_else(|| screenshots::DEFAULT_OUT.to_string());
            done(flags)?;
            screenshots::run(&out, only.as_deref())
        }
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    }
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
