//! Find-it exercises: one file each, `exercises/find/<name>.rs`, which holds
//! the scheduler as it was written (the student reads it), its mended
//! version, the API a test uses, and the exercise's tests as top-level
//! modules: `skeleton` (what `start` copies out for the student),
//! `reference` and `wrong_<which>`, each wrong one with its `// verdict:`
//! line. The `exercises` crate's build script includes the file whole into
//! the `catch` target as the module `<name>` (see `exercises/build.rs`);
//! this module finds the test modules in it, by their lines.
//!
//! The file is rustfmt's: a top-level module starts with `mod <name> {` at
//! the start of a line (doc comments and attributes above it), and ends at
//! the first line after it that is `}` alone.

use super::Exercise;
use crate::cmd::{Result, root};
use std::path::PathBuf;

/// A find-it's file, from the workspace root.
pub fn file(e: &Exercise) -> PathBuf {
    PathBuf::from("exercises")
        .join("find")
        .join(format!("{}.rs", e.name))
}

/// A top-level module of a find-it's file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    /// Its name: `skeleton`, `reference`, `wrong_sleeps_and_hopes`.
    pub name: String,
    /// Its first and last lines, 1-based: a panic between them is its own.
    pub lines: (usize, usize),
    /// What is inside its braces, as written (indented by four).
    pub body: String,
}

/// The top-level modules of `text`, in order.
pub fn modules(text: &str) -> Vec<Module> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let name = lines[i]
            .strip_prefix("mod ")
            .and_then(|rest| rest.strip_suffix(" {"))
            .filter(|name| name.chars().all(|c| c.is_alphanumeric() || c == '_'));
        let Some(name) = name else {
            i += 1;
            continue;
        };
        let Some(end) = (i + 1..lines.len()).find(|&j| lines[j] == "}") else {
            break;
        };
        found.push(Module {
            name: name.to_owned(),
            lines: (i + 1, end + 1),
            body: lines[i + 1..end].join("\n"),
        });
        i = end + 1;
    }
    found
}

/// The module `name` of `e`'s file.
pub fn module(e: &Exercise, name: &str) -> Result<Module> {
    let path = root().join(file(e));
    let text =
        std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", file(e).display()))?;
    modules(&text)
        .into_iter()
        .find(|m| m.name == name)
        .ok_or_else(|| format!("{}: no `mod {name} {{`", file(e).display()))
}

/// The student's file that `start` writes: the `skeleton` module's body,
/// moved four spaces left. It keeps its meaning: the student's file becomes
/// the module `<name>::mine`, beside `skeleton`, so `super::` is the same
/// API.
pub fn skeleton_text(e: &Exercise) -> Result<String> {
    let body = module(e, "skeleton")?.body;
    let mut text: String = body
        .lines()
        .map(|l| l.strip_prefix("    ").unwrap_or(l).trim_end())
        .collect::<Vec<_>>()
        .join("\n");
    text.push('\n');
    Ok(text)
}

/// The wrong tests of `e`: the modules `wrong_<which>`, as (which, module).
pub fn wrong_tests(e: &Exercise) -> Vec<(String, Module)> {
    let Ok(text) = std::fs::read_to_string(root().join(file(e))) else {
        return Vec::new();
    };
    modules(&text)
        .into_iter()
        .filter_map(|m| Some((m.name.strip_prefix("wrong_")?.to_owned(), m)))
        .collect()
}

/// Whether the panic at `at` (`file:line:col`) lies within `lines`.
pub fn within(at: &str, lines: (usize, usize)) -> bool {
    at.rsplit(':')
        .nth(1)
        .and_then(|line| line.parse::<usize>().ok())
        .is_some_and(|line| (lines.0..=lines.1).contains(&line))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "\
// A scheduler.
pub struct X;

/// The mended one.
mod fixed {
    pub struct X;
}

mod skeleton {
    // The window: TODO(F9)

    use super::X;

    #[test]
    fn f9() {
        let _ = X;
    }
}

mod wrong_fails_always {
    // verdict: fails-on-fixed
}
";

    #[test]
    fn the_modules_are_found_with_their_lines() {
        let found = modules(FILE);
        let names: Vec<&str> = found.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["fixed", "skeleton", "wrong_fails_always"]);
        assert_eq!(found[0].lines, (5, 7));
        assert_eq!(found[1].lines, (9, 18));
        assert!(found[1].body.starts_with("    // The window: TODO(F9)"));
        assert_eq!(found[2].body, "    // verdict: fails-on-fixed");
    }

    #[test]
    fn a_panic_is_placed_by_its_line() {
        assert!(within("exercises/find/f9.rs:12:9", (9, 18)));
        assert!(!within("exercises/find/f9.rs:20:9", (9, 18)));
        assert!(!within("no line here", (9, 18)));
    }

    #[test]
    fn every_find_it_has_its_modules() {
        for e in super::super::EXERCISES
            .iter()
            .filter(|e| e.kind == super::super::Kind::Find)
        {
            let text = skeleton_text(e).unwrap();
            assert!(text.contains(&format!("TODO({})", e.id)), "{}", e.name);
            assert!(!text.starts_with("    "), "{}: dedented", e.name);
            assert!(module(e, "reference").is_ok(), "{}", e.name);
        }
    }
}
