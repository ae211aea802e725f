//! `cargo xtask timelines`: regenerate the book's generated assets from real
//! runs. The list of generators is the table in `generators.rs`.

use crate::generators::GENERATORS;
use devkit::cargo::{self, Package};
use devkit::cmd::{Cmd, Result, banner, root};
use devkit::loom;
use devkit::wrap::{COLUMNS, wrap, wrap_command};
use similar::{ChangeTag, TextDiff};
use std::path::Path;

/// How one asset is made.
pub enum Source {
    /// An example that writes its own files; its arguments name them, with
    /// `{out}` standing for the output directory.
    Writes(&'static [&'static str]),
    /// An example that prints a chart: its standard output is the file.
    Chart(&'static str),
    /// An example whose standard output becomes the file, after a first
    /// line `$ <command>`.
    Output(&'static str),
    /// A loom model of a buggy version, run under `--cfg loom`: its failure
    /// report, trimmed to a readable excerpt, becomes the file (first line
    /// `$ <command>`).
    LoomFailure(&'static str),
    /// "What changed": the same anchor in two source files of the package,
    /// as a unified diff (computed by `similar`) for a ```` ```diff ```` block.
    AnchorDiff {
        /// The earlier version, relative to the package directory.
        from: &'static str,
        /// The later version, relative to the package directory.
        to: &'static str,
        /// The file to write.
        file: &'static str,
    },
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
        Self::new(package, example, Source::Writes(args))
    }

    /// An example whose standard output (a chart) is the file.
    pub const fn chart(package: &'static str, example: &'static str, file: &'static str) -> Self {
        Self::new(package, example, Source::Chart(file))
    }

    /// An example whose output is captured into `file`, after the command.
    pub const fn output(package: &'static str, example: &'static str, file: &'static str) -> Self {
        Self::new(package, example, Source::Output(file))
    }

    /// A failing loom model whose report is captured into `file`.
    pub const fn loom_failure(
        package: &'static str,
        test: &'static str,
        file: &'static str,
    ) -> Generator {
        Self::new(package, test, Source::LoomFailure(file))
    }

    /// The diff of `anchor` between two files of `package`, into `file`.
    pub const fn anchor_diff(
        package: &'static str,
        anchor: &'static str,
        from: &'static str,
        to: &'static str,
        file: &'static str,
    ) -> Generator {
        Self::new(package, anchor, Source::AnchorDiff { from, to, file })
    }

    const fn new(package: &'static str, target: &'static str, source: Source) -> Self {
        Generator {
            package,
            target,
            source,
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
            Source::Chart(file)
            | Source::Output(file)
            | Source::LoomFailure(file)
            | Source::AnchorDiff { file, .. } => {
                vec![file.to_string()]
            }
        }
    }
}

/// Runs the failing-then-fixed check and writes each bug's red message to
/// `{out}/red/<test>.txt`, after a first line `$ <command>`: the chapters
/// include these instead of typing the messages out. Both are wrapped to
/// the book's width ([`red_message`]); the tests' own messages stay one
/// line each. Returns how many.
fn write_red_messages(out: &str, red: impl FnOnce() -> Result<Vec<RedMessage>>) -> Result<usize> {
    let bugs = red()?;
    let dir = root().join(out).join("red");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for bug in &bugs {
        let path = dir.join(format!("{}.txt", bug.test));
        let text = red_message(&bug.command, &bug.message);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {out}/red/{}.txt", bug.test);
    }
    Ok(bugs.len())
}

/// A bug's red message, as the failing-then-fixed check (`cargo xtask
/// ftf`, which CI owns) saw it: the caller of [`run`] runs that check.
pub struct RedMessage {
    /// The test, which names the file (`red/<test>.txt`).
    pub test: String,
    /// The command that shows it, as a reader types it.
    pub command: String,
    /// The test's panic message.
    pub message: String,
}

/// Runs the generators (all, or those whose target or file names contain
/// `only`), writing into `out`, and writes the red messages `red` returns
/// (it runs the failing-then-fixed check); fails naming each one that
/// could not run.
pub fn run(out: &str, only: Option<&str>, red: impl FnOnce() -> Result<Vec<RedMessage>>) -> Result {
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
    if only.is_none_or(|only| "red".contains(only)) {
        banner(&format!("red messages -> {out}/red/<test>.txt"));
        match write_red_messages(out, red) {
            Ok(n) => made += n,
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

/// A red message as the book shows it: `$ <command>`, then the message,
/// each wrapped to [`COLUMNS`] ([`wrap_command`], [`wrap`]). The message's
/// first line keeps its start: the bug's ID and name, then its numbers.
pub fn red_message(command: &str, message: &str) -> String {
    format!(
        "{}\n{}",
        wrap_command(&format!("$ {command}"), COLUMNS),
        wrap(message, COLUMNS)
    )
}

/// The lines between `// ANCHOR: anchor` and `// ANCHOR_END: anchor` of a
/// file, leaving out any other anchor markers inside, without the
/// indentation they all share: a method and the free function it replaces
/// then line up, and their diff shows what changed, not the indentation.
fn anchor_region(path: &Path, anchor: &str) -> Result<String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (start, end) = (format!("ANCHOR: {anchor}"), format!("ANCHOR_END: {anchor}"));
    let mut inside = false;
    let mut lines: Vec<&str> = Vec::new();
    for line in text.lines() {
        let marker = line.trim_start().strip_prefix("// ").unwrap_or("");
        if marker == start {
            inside = true;
        } else if marker == end {
            return Ok(dedent(&lines));
        } else if inside && !marker.starts_with("ANCHOR") {
            lines.push(line);
        }
    }
    Err(format!("{}: no anchor `{anchor}`", path.display()))
}

/// `lines`, each ended by a newline, less the leading spaces every line
/// that is not blank has.
fn dedent(lines: &[&str]) -> String {
    let shared = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches(' ').len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| format!("{}\n", l.get(shared..).unwrap_or("").trim_end()))
        .collect()
}

/// Anchor `anchor` of `from` and of `to` (in package directory `dir`), as a
/// unified diff with the whole region as context and a header naming both
/// (no hunk header: the listing is one hunk, and its line numbers would be
/// the region's, not the file's). Nothing under the header when the two
/// are the same.
fn anchor_diff(dir: &Path, anchor: &str, from: &str, to: &str) -> Result<String> {
    let old = anchor_region(&dir.join(from), anchor)?;
    let new = anchor_region(&dir.join(to), anchor)?;
    let mut body = String::new();
    if old != new {
        for change in TextDiff::from_lines(&old, &new).iter_all_changes() {
            let sign = match change.tag() {
                ChangeTag::Delete => '-',
                ChangeTag::Insert => '+',
                ChangeTag::Equal => ' ',
            };
            body.push(sign);
            body.push_str(change.value());
        }
    }
    Ok(format!(
        "--- {from} ({anchor})\n+++ {to} ({anchor})\n{body}"
    ))
}

fn generate(g: &Generator, out: &str, packages: &[Package]) -> Result {
    let Some(package) = packages.iter().find(|p| p.name == g.package) else {
        return Err(format!("package `{}` is not in the workspace", g.package));
    };
    let (kind, place) = match g.source {
        Source::AnchorDiff { from, to, file } => {
            let diff = anchor_diff(&package.dir, g.target, from, to)?;
            return write(out, file, &diff);
        }
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
        Source::Chart(file) => {
            let cmd = Cmd::cargo(&["run", "--quiet", "-p", g.package, "--example", g.target]);
            println!("$ {}", cmd.display());
            write(out, file, &cmd.read()?)
        }
        Source::Output(file) => {
            let shown = format!("cargo run -p {} --example {}", g.package, g.target);
            let cmd = Cmd::cargo(&["run", "--quiet", "-p", g.package, "--example", g.target]);
            println!("$ {}", cmd.display());
            write(out, file, &format!("$ {shown}\n{}", cmd.read()?))
        }
        Source::LoomFailure(file) => {
            // What a teacher types, and what it prints: the same function
            // makes the live demo and this capture.
            let shown = loom::show(g.package, g.target, false)?;
            if shown.passed {
                return Err(format!(
                    "the models of {} --test {} passed: there is no failure to show",
                    g.package, g.target
                ));
            }
            let typed = format!("$ cargo xtask loom {} {}", g.package, g.target);
            write(out, file, &format!("{typed}\n{}", shown.text))
        }
        Source::AnchorDiff { .. } => unreachable!("handled before the target check"),
    }
}

fn write(out: &str, file: &str, text: &str) -> Result {
    let path = root().join(out).join(file);
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
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
    fn a_region_loses_the_indentation_its_lines_share() {
        assert_eq!(
            dedent(&["    fn a() {", "", "        b();", "    }"]),
            "fn a() {\n\n    b();\n}\n"
        );
        assert_eq!(dedent(&["x", "  y"]), "x\n  y\n");
    }

    #[test]
    fn an_anchor_diff_is_the_whole_region_under_a_header_naming_both() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let old = "// ANCHOR: f\nfn f() {\n    a();\n    b();\n}\n// ANCHOR_END: f\n";
        let new = "impl X {\n    // ANCHOR: f\n    fn f() {\n        a();\n        c();\n    }\n    // ANCHOR_END: f\n}\n";
        std::fs::write(dir.join("old.rs"), old).unwrap();
        std::fs::write(dir.join("new.rs"), new).unwrap();
        assert_eq!(
            anchor_diff(dir, "f", "old.rs", "new.rs").unwrap(),
            "--- old.rs (f)\n+++ new.rs (f)\n fn f() {\n     a();\n-    b();\n+    c();\n }\n"
        );
        assert_eq!(
            anchor_diff(dir, "f", "old.rs", "old.rs").unwrap(),
            "--- old.rs (f)\n+++ old.rs (f)\n"
        );
    }

    #[test]
    fn every_generator_names_its_files() {
        for g in GENERATORS {
            assert!(!g.files().is_empty(), "{} makes no file", g.target);
        }
    }

    #[test]
    fn a_red_message_is_its_command_then_its_message() {
        let red = red_message(
            "cargo test -p wheel --test w2_cursor_race -- --ignored --exact w2_cursor_race_on_lockfree",
            "W2 cursor_race: short",
        );
        assert_eq!(
            red,
            "$ cargo test -p wheel --test w2_cursor_race -- --ignored \\\n    \
             --exact w2_cursor_race_on_lockfree\nW2 cursor_race: short\n"
        );
    }
}
