//! `cargo xtask timelines`: regenerate the book's generated assets from real
//! runs. The list of generators is the table in `generators.rs`.

use crate::cargo::{self, Package};
use crate::cmd::{Cmd, Result, banner, root};
use crate::generators::GENERATORS;
use crate::loom;
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
    /// as a unified diff (`git diff --no-index`) for a ```` ```diff ```` block.
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
        Generator {
            package,
            target: example,
            source: Source::Writes(args),
        }
    }

    /// An example whose standard output (a chart) is the file.
    pub const fn chart(
        package: &'static str,
        example: &'static str,
        file: &'static str,
    ) -> Generator {
        Generator {
            package,
            target: example,
            source: Source::Chart(file),
        }
    }

    /// An example whose output is captured into `file`, after the command.
    pub const fn output(
        package: &'static str,
        example: &'static str,
        file: &'static str,
    ) -> Generator {
        Generator {
            package,
            target: example,
            source: Source::Output(file),
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

    /// The diff of `anchor` between two files of `package`, into `file`.
    pub const fn anchor_diff(
        package: &'static str,
        anchor: &'static str,
        from: &'static str,
        to: &'static str,
        file: &'static str,
    ) -> Generator {
        Generator {
            package,
            target: anchor,
            source: Source::AnchorDiff { from, to, file },
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

/// The widest line a generated output block may hold: the book's rule is
/// about 90 characters, which its code font fits in the column on screen
/// and in print (`cargo xtask screenshots` measures both).
pub const COLUMNS: usize = 88;

/// Runs the failing-then-fixed check and writes each bug's red message to
/// `{out}/red/<test>.txt`, after a first line `$ <command>`: the chapters
/// include these instead of typing the messages out. Both are wrapped to
/// the book's width ([`red_message`]); the tests' own messages stay one
/// line each. Returns how many.
fn write_red_messages(out: &str) -> Result<usize> {
    let outcome = crate::ftf::run()?;
    let dir = root().join(out).join("red");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for bug in &outcome.shown_bugs {
        let path = dir.join(format!("{}.txt", bug.test));
        let text = red_message(&bug.command, &bug.message);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {out}/red/{}.txt", bug.test);
    }
    Ok(outcome.shown_bugs.len())
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
    if only.is_none_or(|only| "red".contains(only)) {
        banner(&format!("red messages -> {out}/red/<test>.txt"));
        match write_red_messages(out) {
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

/// `text` with each line wider than `width` characters broken at spaces;
/// the pieces after the first are indented two spaces more than the line
/// was, so that they read as one line continued. A word longer than a
/// whole line is cut. Ends every line with a newline.
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = line.trim_end();
        if line.chars().count() <= width {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let more = " ".repeat(indent + 2);
        let mut current = line[..indent].to_string();
        let mut empty = true;
        for word in line.split_whitespace() {
            let room = width.saturating_sub(current.chars().count() + usize::from(!empty));
            if !empty && word.chars().count() > room {
                out.push_str(&current);
                out.push('\n');
                current = more.clone();
                empty = true;
            }
            let mut word = word;
            // A word wider than a whole line: cut it.
            while current.chars().count() + word.chars().count() > width {
                let fits = width.saturating_sub(current.chars().count()).max(1);
                let cut = word.char_indices().nth(fits).map_or(word.len(), |(i, _)| i);
                current.push_str(&word[..cut]);
                out.push_str(&current);
                out.push('\n');
                current = more.clone();
                word = &word[cut..];
            }
            if !empty {
                current.push(' ');
            }
            current.push_str(word);
            empty = false;
        }
        out.push_str(current.trim_end());
        out.push('\n');
    }
    out
}

/// A shell command (`$ FOO="a b" cargo test ...`) in lines of at most
/// `width` characters, as a shell takes it: each line but the last ends in
/// ` \`, the next is indented four spaces, a quoted word stays whole and
/// a flag stays with its value.
pub fn wrap_command(command: &str, width: usize) -> String {
    // Words, with a quoted stretch (`"--cfg loom"`) inside its word.
    let mut words: Vec<String> = Vec::new();
    let (mut word, mut quote) = (String::new(), None);
    for c in command.chars() {
        match (c, quote) {
            ('"' | '\'', None) => {
                quote = Some(c);
                word.push(c);
            }
            (c, Some(q)) if c == q => {
                quote = None;
                word.push(c);
            }
            (' ', None) => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    // A flag stays on one line with its value (`--exact name`, `-p wheel`).
    let mut units: Vec<String> = Vec::new();
    let mut rest = words.into_iter().peekable();
    while let Some(w) = rest.next() {
        let flag = w.starts_with('-') && w != "--";
        match rest.peek() {
            Some(value) if flag && !value.starts_with('-') => {
                let value = rest.next().unwrap_or_default();
                units.push(format!("{w} {value}"));
            }
            _ => units.push(w),
        }
    }
    let words = units;
    // Too long for one line: the environment (`FOO=1 BAR=2`, after the
    // prompt) gets a line of its own, and the program starts the next.
    let fits = command.chars().count() <= width;
    let env_ends = words
        .iter()
        .position(|w| w != "$" && !is_assignment(w))
        .filter(|&at| !fits && words[..at].iter().any(|w| is_assignment(w)));
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for (i, w) in words.iter().enumerate() {
        let last = i + 1 == words.len();
        // Room for the word, and for ` \` unless it is the last word.
        let needs = current.chars().count() + 1 + w.chars().count() + if last { 0 } else { 2 };
        if !current.trim().is_empty() && (needs > width || env_ends == Some(i)) {
            lines.push(format!("{current} \\"));
            current = "   ".to_string();
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(w);
    }
    lines.push(current);
    lines.join("\n")
}

/// `NAME=value`: a shell word that sets an environment variable.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
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
/// unified diff with the whole region as context and a header naming both.
fn anchor_diff(dir: &Path, anchor: &str, from: &str, to: &str) -> Result<String> {
    let scratch = root().join("target").join("xtask-diff");
    let mut sides = Vec::new();
    for (side, rel) in [("a", from), ("b", to)] {
        let path = scratch.join(side);
        std::fs::create_dir_all(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = Path::new(rel).file_name().unwrap_or_default();
        let copy = path.join(name);
        std::fs::write(&copy, anchor_region(&dir.join(rel), anchor)?)
            .map_err(|e| format!("{}: {e}", copy.display()))?;
        sides.push(copy);
    }
    let run = std::process::Command::new("git")
        .args(["diff", "--no-index", "--no-color", "-U1000", "--"])
        .args(&sides)
        .output()
        .map_err(|e| format!("git diff: {e}"))?;
    // `git diff --no-index` exits 1 when the files differ.
    if !matches!(run.status.code(), Some(0 | 1)) {
        return Err(format!(
            "git diff failed: {}",
            String::from_utf8_lossy(&run.stderr)
        ));
    }
    let body: String = String::from_utf8_lossy(&run.stdout)
        .lines()
        .skip_while(|l| !l.starts_with("@@"))
        .skip(1)
        .map(|l| format!("{l}\n"))
        .collect();
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

/// True for the lines of a backtrace after its `stack backtrace:` header.
fn backtrace_frame(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("at ")
        || t.split_once(": ")
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// The most lines an excerpt keeps.
const EXCERPT_LINES: usize = 40;

/// A readable, stable excerpt of a failing run: from libtest's `running`
/// line, without backtraces, without what changes from run to run or from
/// machine to machine (see [`stable`]), at most [`EXCERPT_LINES`] lines.
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
        lines.push(stable(line));
    }
    // cargo's own lines (Finished, Running) come before the test's.
    if let Some(first) = lines.iter().position(|l| l.starts_with("running ")) {
        lines.drain(..first);
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

/// Removes what changes between runs and machines: thread ids
/// (`thread 'x' (12345) panicked`), test times (`finished in 0.42s`), the
/// workspace's own path, the registry's and the toolchain's paths, and
/// executables' hashes.
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
    line = line.replace(&format!("{}/", root().display()), "");
    // `/home/a/.cargo/registry/src/index.crates.io-1949cf8c/` (any home).
    line = replace_each(&line, "/.cargo/registry/src/", |l, at| {
        let start = l[..at].rfind([' ', '"', '`']).map_or(0, |s| s + 1);
        let index = at + "/.cargo/registry/src/".len();
        let end = index + l[index..].find('/')? + 1;
        Some((start, end, "~/.cargo/registry/src/…/".to_string()))
    });
    // `/rustc/<commit>/`.
    line = replace_each(&line, "/rustc/", |l, at| {
        let from = at + "/rustc/".len();
        let end = from + l[from..].find('/')?;
        l[from..end]
            .chars()
            .all(|c| c.is_ascii_hexdigit())
            .then(|| (from, end, "…".to_string()))
    });
    // `deps/loom_racy-0123456789abcdef`.
    line = replace_each(&line, "/deps/", |l, at| {
        let from = at + "/deps/".len();
        let dash = from + l[from..].find('-')? + 1;
        let hex = l[dash..]
            .chars()
            .take_while(|c| c.is_ascii_hexdigit())
            .count();
        (hex == 16).then(|| (dash, dash + 16, "…".to_string()))
    });
    line
}

/// Applies `edit` at each occurrence of `marker`: `edit(line, position)`
/// returns the range to replace and its replacement, or `None` to leave it.
fn replace_each(
    line: &str,
    marker: &str,
    edit: impl Fn(&str, usize) -> Option<(usize, usize, String)>,
) -> String {
    let mut line = line.to_string();
    let mut from = 0;
    while let Some(found) = line[from..].find(marker) {
        let at = from + found;
        match edit(&line, at) {
            Some((start, end, with)) => {
                line.replace_range(start..end, &with);
                from = start + with.len();
            }
            None => from = at + marker.len(),
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
    fn a_region_loses_the_indentation_its_lines_share() {
        assert_eq!(
            dedent(&["    fn a() {", "", "        b();", "    }"]),
            "fn a() {\n\n    b();\n}\n"
        );
        assert_eq!(dedent(&["x", "  y"]), "x\n  y\n");
    }

    #[test]
    fn every_generator_names_its_files() {
        for g in GENERATORS {
            assert!(!g.files().is_empty(), "{} makes no file", g.target);
        }
    }

    #[test]
    fn long_lines_wrap_at_spaces_with_their_start_kept() {
        let message = "W9 ticker_waits_for_adder: on lockfree.rs, the task due at 30 ms ran at \
                       220 ms (190 ms late), where at most two ticks (20 ms) + 40 ms was expected";
        let wrapped = wrap(message, 40);
        assert_eq!(
            wrapped,
            "W9 ticker_waits_for_adder: on\n  \
             lockfree.rs, the task due at 30 ms ran\n  \
             at 220 ms (190 ms late), where at most\n  \
             two ticks (20 ms) + 40 ms was expected\n"
        );
        assert!(wrapped.lines().all(|l| l.chars().count() <= 40));
        // The words, in order, are the message's.
        assert_eq!(
            wrapped.split_whitespace().collect::<Vec<_>>(),
            message.split_whitespace().collect::<Vec<_>>()
        );
        // A short line, an indented one, and a word wider than a line.
        assert_eq!(wrap("short\n", 40), "short\n");
        assert_eq!(wrap("  ab cd ef", 7), "  ab cd\n    ef\n");
        assert_eq!(wrap("abcdefghij", 4), "abcd\n  ef\n  gh\n  ij\n");
    }

    #[test]
    fn commands_wrap_as_a_shell_reads_them() {
        let command = "$ RUST_BACKTRACE=0 RUSTFLAGS=\"--cfg loom\" cargo test -p poison-pill \
                       --release --test loom_notify_on_cancel -- --ignored";
        let wrapped = wrap_command(command, 45);
        assert_eq!(
            wrapped,
            "$ RUST_BACKTRACE=0 RUSTFLAGS=\"--cfg loom\" \\\n    \
             cargo test -p poison-pill --release \\\n    \
             --test loom_notify_on_cancel -- --ignored"
        );
        // The environment ends its line even where the program would fit.
        assert_eq!(
            wrap_command("$ A=1 cargo test -p wheel --release --test w5", 30),
            "$ A=1 \\\n    cargo test -p wheel \\\n    --release --test w5"
        );
        assert!(wrapped.lines().all(|l| l.chars().count() <= 45));
        assert_eq!(wrap_command("$ cargo test", 44), "$ cargo test");
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

    #[test]
    fn excerpts_are_stable() {
        let out = "\
    Finished `release` profile [optimized + debuginfo] target(s) in 0.1s
     Running tests/loom_racy.rs (target/loom/release/deps/loom_racy-0123456789abcdef)
running 1 test

thread 'c1_model' (8812) panicked at /home/a/.cargo/registry/src/index.crates.io-1949cf8c/loom-0.7.2/src/rt/mod.rs:1:2:
deadlock; threads = [(Id(0), Blocked(Location(Some(Location { file: \"/home/a/.cargo/registry/src/index.crates.io-1949cf8c/loom-0.7.2/src/sync/condvar.rs\", line: 50 }))))]
stack backtrace:
   0: loom::rt::park
             at ./tests/loom_racy.rs:34:25
  13: x
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace



thread 'c1_model' (8812) panicked at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/panicking.rs:233:5:
test result: FAILED. 0 passed; 1 failed; 0 ignored; finished in 0.31s
  process didn't exit successfully: `/x/target/loom/release/deps/loom_racy-0123456789abcdef --ignored` (signal: 6)
";
        assert_eq!(
            excerpt(out),
            "\
running 1 test

thread 'c1_model' panicked at ~/.cargo/registry/src/…/loom-0.7.2/src/rt/mod.rs:1:2:
deadlock; threads = [(Id(0), Blocked(Location(Some(Location { file: \"~/.cargo/registry/src/…/loom-0.7.2/src/sync/condvar.rs\", line: 50 }))))]
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

thread 'c1_model' panicked at /rustc/…/library/core/src/panicking.rs:233:5:
test result: FAILED. 0 passed; 1 failed; 0 ignored
  process didn't exit successfully: `/x/target/loom/release/deps/loom_racy-… --ignored` (signal: 6)
"
        );
    }
}
