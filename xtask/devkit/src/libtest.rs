//! Reading what libtest prints: a test's bug ID, its panic messages, its
//! own lines, a failing run's stable excerpt (what the book shows); and
//! red for a verdict on a terminal.

use std::io::IsTerminal;

/// The curriculum ID a test name starts with, upper-cased: `c1_lost_wakeup`
/// gives `C1`, `tests::t10_thundering_herd` gives `T10`.
pub fn bug_id(test_name: &str) -> Option<String> {
    let last = test_name.rsplit("::").next()?;
    let prefix = last.split('_').next()?;
    let letters = prefix.trim_end_matches(|c: char| c.is_ascii_digit());
    let ok = !letters.is_empty()
        && letters.len() < prefix.len()
        && letters.chars().all(|c| c.is_ascii_alphabetic());
    ok.then(|| prefix.to_ascii_uppercase())
}

/// The first line of the first panic message in a test's output.
pub fn panic_message(output: &str) -> Option<String> {
    let mut lines = output.lines();
    while let Some(line) = lines.next() {
        if line.contains(" panicked at ") {
            let (_, after) = line.split_once(" panicked at ")?;
            // Old style: `panicked at 'message', src/x.rs:1:2`.
            if let Some(rest) = after.strip_prefix('\'') {
                return rest.rsplit_once("', ").map(|(m, _)| m.to_string());
            }
            let first = lines.find(|l| !l.trim().is_empty())?.trim();
            // `assert_eq!(a, b, "C2 ...")`: the ID is what a reader wants first.
            let first = match first.split_once("` failed: ") {
                Some((head, rest)) if head.starts_with("assertion `") => rest,
                _ => first,
            };
            return Some(first.to_string());
        }
    }
    None
}

/// The first line of every panic message in a test's output, in order.
pub fn panic_messages(output: &str) -> Vec<String> {
    output
        .match_indices(" panicked at ")
        .filter_map(|(at, _)| {
            let line_start = output[..at].rfind('\n').map_or(0, |i| i + 1);
            panic_message(&output[line_start..])
        })
        .collect()
}

/// The first `n` lines a test printed, from its own section of the
/// harness's output (`---- name stdout ----`, there for a failure and, under
/// `--show-output`, for a pass) up to the backtrace: the panic message and
/// the numbers logged around it. Without such a section (a run killed for
/// taking too long), the last `n` lines of the whole output.
pub fn first_lines(output: &str, name: &str, n: usize) -> Vec<String> {
    let header = format!("---- {name} stdout ----");
    let Some(start) = output.lines().position(|l| l.trim() == header) else {
        let lines: Vec<&str> = output.lines().filter(|l| !l.trim().is_empty()).collect();
        return lines[lines.len().saturating_sub(n)..]
            .iter()
            .map(|l| l.to_string())
            .collect();
    };
    output
        .lines()
        .skip(start + 1)
        .take_while(|l| {
            !(l.starts_with("stack backtrace:")
                || l.starts_with("---- ")
                || *l == "failures:"
                || *l == "successes:")
        })
        .filter(|l| !l.trim().is_empty() && !l.starts_with("note: run with `RUST_BACKTRACE"))
        .take(n)
        .map(|l| l.to_string())
        .collect()
}

/// The last `n` non-empty lines of an output, joined by " | ".
pub fn last_lines(output: &str, n: usize) -> String {
    let lines: Vec<&str> = output.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join(" | ")
}

/// Red on a terminal, plain in a log file.
pub fn red(text: &str) -> String {
    if std::io::stdout().is_terminal() {
        format!("\x1b[31m{text}\x1b[0m")
    } else {
        text.to_string()
    }
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
/// machine to machine (see `stable`), at most `EXCERPT_LINES` lines.
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
    line = line.replace(&format!("{}/", crate::cmd::root().display()), "");
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

#[cfg(test)]
mod tests {
    use super::*;

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
