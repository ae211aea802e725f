//! `cargo xtask timelines`: regenerate the book's generated assets from real
//! runs. The list of generators is the table in `generators.rs`.

use crate::cargo::{self, Package};
use crate::cmd::{Cmd, Result, banner, root};
use crate::generators::GENERATORS;
use crate::loom;
use std::path::Path;
use std::time::Duration;

/// How one asset is made.
pub enum Source {
    /// An example that writes its own files; its arguments name them, with
    /// `{out}` standing for the output directory.
    Writes(&'static [&'static str]),
    /// An example whose standard output becomes the file, after a first
    /// line `$ <command>`.
    Stdout(&'static str),
    /// A loom model of a buggy version, run under `--cfg loom`: its failure
    /// report, trimmed to a readable excerpt, becomes the file.
    LoomFailure(&'static str),
}

/// One line of the table in `generators.rs`.
pub struct Generator {
    /// The package holding the example or the model.
    pub package: &'static str,
    /// The example's name, or the loom test target's name.
    pub target: &'static str,
    /// What is made, and how.
    pub source: Source,
}

impl Generator {
    /// An example that writes the files its arguments name.
    pub const fn writes(
        package: &'static str,
        example: &'static str,
        args: &'static [&'static str],
    ) -> Generator {
        Generator {
            package,
            target: example,
            source: Source::Writes(args),
        }
    }

    /// An example whose output is captured into `file`.
    pub const fn stdout(
        package: &'static str,
        example: &'static str,
        file: &'static str,
    ) -> Generator {
        Generator {
            package,
            target: example,
            source: Source::Stdout(file),
        }
    }

    /// A failing loom model whose report is captured into `file`.
    pub const fn loom_failure(
        package: &'static str,
        test: &'static str,
        file: &'static str,
    ) -> Generator {
        Generator {
            package,
            target: test,
            source: Source::LoomFailure(file),
        }
    }

    /// The files it makes, relative to the output directory.
    pub fn files(&self) -> Vec<String> {
        match &self.source {
            Source::Writes(args) => args
                .iter()
                .filter_map(|a| a.strip_prefix("{out}/"))
                .map(String::from)
                .collect(),
            Source::Stdout(file) | Source::LoomFailure(file) => vec![file.to_string()],
        }
    }
}

/// Runs the generators (all, or those whose target or file names contain
/// `only`), writing into `out`; fails naming each one that could not run.
pub fn run(out: &str, only: Option<&str>) -> Result {
    let packages = cargo::workspace()?;
    std::fs::create_dir_all(root().join(out)).map_err(|e| format!("{out}: {e}"))?;
    let mut problems = Vec::new();
    let mut made = 0;
    for g in GENERATORS {
        let files = g.files();
        if let Some(only) = only
            && !g.target.contains(only)
            && !files.iter().any(|f| f.contains(only))
        {
            continue;
        }
        banner(&format!("{} -> {}/{}", g.target, out, files.join(", ")));
        match generate(g, out, &packages) {
            Ok(()) => {
                for f in &files {
                    println!("wrote {out}/{f}");
                }
                made += files.len();
            }
            Err(e) => {
                println!("FAILED: {e}");
                problems.push(e);
            }
        }
    }
    println!();
    if problems.is_empty() {
        println!("timelines: {made} files written under {out}/");
        Ok(())
    } else {
        Err(format!(
            "{} generator(s) failed (their files were left as they were):\n  {}",
            problems.len(),
            problems.join("\n  ")
        ))
    }
}

fn generate(g: &Generator, out: &str, packages: &[Package]) -> Result {
    let Some(package) = packages.iter().find(|p| p.name == g.package) else {
        return Err(format!("package `{}` is not in the workspace", g.package));
    };
    let (kind, place) = match g.source {
        Source::LoomFailure(_) => ("test", "tests"),
        _ => ("example", "examples"),
    };
    if !package.has(kind, g.target) {
        return Err(format!(
            "{} has no {kind} `{}` yet (expected {}/{place}/{}.rs)",
            g.package,
            g.target,
            package
                .dir
                .strip_prefix(root())
                .unwrap_or(&package.dir)
                .display(),
            g.target
        ));
    }
    match g.source {
        Source::Writes(args) => {
            let args: Vec<String> = args.iter().map(|a| a.replace("{out}", out)).collect();
            Cmd::cargo(&[
                "run",
                "--quiet",
                "-p",
                g.package,
                "--example",
                g.target,
                "--",
            ])
            .args(&args)
            .run()?;
            for f in g.files() {
                let path = root().join(out).join(&f);
                if !path.exists() {
                    return Err(format!(
                        "example `{}` ran but did not write {}",
                        g.target,
                        path.display()
                    ));
                }
            }
            Ok(())
        }
        Source::Stdout(file) => {
            let shown = format!("cargo run -p {} --example {}", g.package, g.target);
            println!("$ {shown}");
            let text =
                Cmd::cargo(&["run", "--quiet", "-p", g.package, "--example", g.target]).read()?;
            write(out, file, &format!("$ {shown}\n{text}"))
        }
        Source::LoomFailure(file) => {
            let exes = loom::build(g.package, &[g.target.to_string()], packages)?;
            let exe = exes
                .iter()
                .find(|e| e.target == g.target)
                .ok_or_else(|| format!("the build made no `{}` executable", g.target))?;
            let run = exe
                .cmd(&["--ignored"])
                .env("LOOM_MAX_PREEMPTIONS", loom::MAX_PREEMPTIONS)
                .env_quiet("RUST_BACKTRACE", "0")
                .capture(Duration::from_secs(600))?;
            if run.passed() {
                return Err(format!(
                    "the ignored models of {} --test {} passed: there is no failure to show",
                    g.package, g.target
                ));
            }
            let shown = format!(
                "RUSTFLAGS=\"--cfg loom\" LOOM_MAX_PREEMPTIONS={} cargo test --release -p {} --test {} -- --ignored",
                loom::MAX_PREEMPTIONS,
                g.package,
                g.target
            );
            write(out, file, &format!("$ {shown}\n{}", excerpt(&run.output)))
        }
    }
}

fn write(out: &str, file: &str, text: &str) -> Result {
    let path = root().join(out).join(file);
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Lines a reader of the book does not need from a test binary's output.
fn noise(line: &str) -> bool {
    line.starts_with("note: run with `RUST_BACKTRACE")
        || line.starts_with("note: Some details are omitted")
}

/// True for the lines of a backtrace after its `stack backtrace:` header.
fn backtrace_frame(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("at ")
        || t.split_once(": ")
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// The most lines an excerpt keeps.
const EXCERPT_LINES: usize = 40;

/// A readable, stable excerpt of a failing run: no thread ids or timings
/// that change from run to run, no backtrace notes, at most
/// [`EXCERPT_LINES`] lines.
pub fn excerpt(output: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut in_backtrace = false;
    for line in output.lines() {
        if line.starts_with("stack backtrace:") {
            in_backtrace = true;
            continue;
        }
        if in_backtrace && backtrace_frame(line) {
            continue;
        }
        in_backtrace = false;
        if !noise(line) {
            lines.push(stable(line));
        }
    }
    let mut kept: Vec<String> = Vec::new();
    for line in lines {
        // Collapse runs of blank lines.
        if line.trim().is_empty() && kept.last().is_some_and(|l| l.trim().is_empty()) {
            continue;
        }
        kept.push(line);
    }
    if kept.len() > EXCERPT_LINES {
        let cut = kept.len() - EXCERPT_LINES;
        kept.truncate(EXCERPT_LINES - 1);
        kept.push(format!("[... {} more lines ...]", cut + 1));
    }
    let mut text = kept.join("\n");
    text.push('\n');
    text
}

/// Removes what changes between runs: `thread 'x' (12345) panicked` loses
/// its id, `finished in 0.42s` its time.
fn stable(line: &str) -> String {
    let mut line = line.to_string();
    if let Some(start) = line.find("' (")
        && let Some(len) = line[start + 3..].find(')')
        && len > 0
        && line[start + 3..start + 3 + len]
            .chars()
            .all(|c| c.is_ascii_digit())
    {
        line.replace_range(start + 1..start + 4 + len, "");
    }
    if let Some(at) = line.find("; finished in ") {
        line.truncate(at);
    }
    // `/home/x/.cargo/registry/src/index.crates.io-1949cf8c/loom-0.7.2/src/..`
    // becomes `loom-0.7.2/src/..`: the same on every machine.
    const REGISTRY: &str = "/.cargo/registry/src/";
    if let Some(at) = line.find(REGISTRY) {
        let start = line[..at].rfind(' ').map_or(0, |s| s + 1);
        let index = at + REGISTRY.len();
        if let Some(slash) = line[index..].find('/') {
            line.replace_range(start..index + slash + 1, "");
        }
    }
    line
}

/// The output directory must stay inside the workspace.
pub fn check_out(out: &str) -> Result {
    if Path::new(out).is_absolute() || out.split('/').any(|p| p == "..") {
        return Err(format!(
            "--out {out}: give a directory inside the workspace"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generator_names_its_files() {
        for g in GENERATORS {
            assert!(!g.files().is_empty(), "{} makes no file", g.target);
        }
    }

    #[test]
    fn excerpts_are_stable() {
        let out = "running 1 test\nthread 'c1_model' (8812) panicked at /home/a/.cargo/registry/src/index.crates.io-1949cf8c/loom-0.7.2/src/rt/mod.rs:1:2:\ndeadlock; threads = []\nstack backtrace:\n   0: loom::rt::park\n             at ./tests/loom_racy.rs:34:25\n  13: x\nnote: run with `RUST_BACKTRACE=1` environment variable\n\n\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; finished in 0.31s\n";
        assert_eq!(
            excerpt(out),
            "running 1 test\nthread 'c1_model' panicked at loom-0.7.2/src/rt/mod.rs:1:2:\ndeadlock; threads = []\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored\n"
        );
    }
}
