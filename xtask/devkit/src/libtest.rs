//! Reading what libtest prints: a test's bug ID, its panic messages, its
//! own lines; and red for a verdict on a terminal.

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
