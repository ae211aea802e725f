//! Project automation for the workspace, run as `cargo xtask <command>` (the
//! alias lives in `.cargo/config.toml`). Standard library only.
//!
//! - `ci`: everything CI runs (rustfmt, clippy, the tests, the
//!   failing-then-fixed check, the loom models, the book, the benches' build);
//! - `exercise`: a student's exercises (list, start, check, hint, solution,
//!   reset), and `exercise verify`, CI's check of them both ways;
//! - `catalogue`: the book's catalogue of bugs against the tests, both ways;
//! - `ftf`: the failing-then-fixed check alone;
//! - `loom`: the loom models alone;
//! - `book` / `serve`: build the book, or serve it (installing mdBook);
//! - `timelines`: regenerate the book's generated assets from real runs.

mod book;
mod cargo;
mod catalogue;
mod ci;
mod cmd;
mod exercise;
mod ftf;
mod generators;
mod loom;
mod screenshots;
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
  loom        the loom models (release, --cfg loom, LOOM_MAX_PREEMPTIONS=3)
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
    let mut flags = Flags::new(rest);
    match command.as_str() {
        "ci" => flags.done().and_then(|()| ci::run()),
        "exercise" => exercise::run(rest),
        "catalogue" => flags.done().and_then(|()| catalogue::check().map(|_| ())),
        "ftf" => flags.done().and_then(|()| ftf::run().map(|_| ())),
        "loom" => flags.done().and_then(|()| loom::run().map(|_| ())),
        "book" => flags.done().and_then(|()| book::build()),
        "tools" => flags.done().and_then(|()| tools::ensure()),
        "serve" => {
            let open = !flags.switch("--no-open");
            let port = match flags.value("--port") {
                Some(p) => p.parse().map_err(|_| format!("--port {p}: not a port"))?,
                None => 3000,
            };
            flags.done()?;
            book::serve(open, port)
        }
        "timelines" => {
            let only = flags.value("--only");
            let out = flags
                .value("--out")
                .unwrap_or_else(|| "book/src/generated".to_string());
            flags.done()?;
            timelines::check_out(&out)?;
            timelines::run(&out, only.as_deref())
        }
        "screenshots" => {
            let only = flags.value("--only");
            let out = flags
                .value("--out")
                .unwrap_or_else(|| screenshots::DEFAULT_OUT.to_string());
            flags.done()?;
            screenshots::run(&out, only.as_deref())
        }
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    }
}

/// The flags after the command; each one read is crossed off, and any left
/// over is an error.
struct Flags {
    left: Vec<String>,
}

impl Flags {
    fn new(args: &[String]) -> Flags {
        Flags {
            left: args.to_vec(),
        }
    }

    fn switch(&mut self, name: &str) -> bool {
        let before = self.left.len();
        self.left.retain(|a| a != name);
        self.left.len() != before
    }

    fn value(&mut self, name: &str) -> Option<String> {
        let at = self.left.iter().position(|a| a == name)?;
        if at + 1 < self.left.len() {
            let value = self.left.remove(at + 1);
            self.left.remove(at);
            Some(value)
        } else {
            None
        }
    }

    fn done(&self) -> cmd::Result {
        if self.left.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "unexpected argument(s): {}\n\n{USAGE}",
                self.left.join(" ")
            ))
        }
    }
}
