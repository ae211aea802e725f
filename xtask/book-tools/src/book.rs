//! `cargo xtask book` and `cargo xtask serve`, and the check that every file
//! the book includes exists (mdBook only warns about a missing include).

use crate::cmd::{Result, banner, root};
use crate::tools;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The book's directory, relative to the workspace root.
pub const BOOK: &str = "book";

/// Builds the book with link checking (`[output.linkcheck2]`).
pub fn build() -> Result {
    tools::ensure()?;
    banner("building the book (with link checking)");
    let cmd = tools::tool("mdbook", &["build", BOOK]);
    println!("$ {}", cmd.display());
    let run = cmd.capture(Duration::from_secs(600))?;
    print!("{}", run.output);
    // mdBook reports a broken include as an ERROR line and still succeeds.
    let errors: Vec<&str> = run.output.lines().filter(|l| l.contains("ERROR")).collect();
    if !run.passed() || !errors.is_empty() {
        return Err(format!(
            "the book did not build cleanly ({}):\n  {}",
            run.how(),
            errors.join("\n  ")
        ));
    }
    println!("the book is in book/book/html/index.html");
    Ok(())
}

/// The mdBook setting, as an environment override, that turns a missing
/// link checker from an error into a warning: `[output.linkcheck2]` with
/// `optional = true`. mdBook reads `MDBOOK_OUTPUT__X__Y` as `output.x.y`.
const LINKCHECK_OPTIONAL: (&str, &str) = ("MDBOOK_OUTPUT__LINKCHECK2__OPTIONAL", "true");

/// Serves the book at `http://localhost:<port>`, opening a browser unless
/// told not to.
///
/// Serving needs mdBook alone, so only mdBook is installed: the link
/// checker is marked optional for this run (`LINKCHECK_OPTIONAL`), and
/// mdBook skips it with a warning when it is not installed (and runs it
/// when it is). `cargo xtask book` installs it and fails on a broken link.
///
/// In an unpacked classroom bundle, on a machine without mdBook (a lab with
/// no network to install it), the bundle's built book is served instead,
/// as it is: no install is tried.
pub fn serve(open: bool, port: u16) -> Result {
    if !tools::is_current("mdbook")
        && let Some(html) = bundled_book()
    {
        println!(
            "mdBook {} is not installed, and this is the classroom bundle: serving its built \
             book, {} (it also opens from disk, no server needed)",
            tools::version_of("mdbook"),
            html.join("index.html").display()
        );
        return crate::site::serve(&html, port, open);
    }
    tools::ensure_one("mdbook")?;
    if !tools::is_current("mdbook-linkcheck2") {
        println!(
            "serving without link checking: mdbook-linkcheck2 is not installed \
             (`cargo xtask book` installs it and checks every link)"
        );
    }
    let port = port.to_string();
    banner(&format!(
        "serving the book at http://localhost:{port}/ (Ctrl-C stops)"
    ));
    let mut args = vec!["serve", BOOK, "--port", &port];
    if open {
        args.push("--open");
    }
    let (key, value) = LINKCHECK_OPTIONAL;
    // Replaced by mdbook, not its parent: a teacher who runs
    // `cargo xtask serve &` and later kills that id stops the server too
    // (`cargo run` itself execs the xtask on Unix).
    tools::tool("mdbook", &args).env(key, value).exec()
}

/// The built book of an unpacked classroom bundle (`cargo xtask bundle`),
/// if this workspace is one: its `book-html/`, with an `index.html`.
pub fn bundled_book() -> Option<PathBuf> {
    let html = root().join(crate::bundle::BOOK_HTML);
    html.join("index.html").is_file().then_some(html)
}

/// One reference from a chapter to a file.
#[derive(Debug, PartialEq)]
pub struct Reference {
    /// The chapter, relative to the workspace root.
    pub chapter: PathBuf,
    /// The path as written in the chapter.
    pub written: String,
    /// The anchor (`{{#include x.rs:name}}`), if one is named.
    pub anchor: Option<String>,
}

/// Fails naming every included or pictured file that is missing, and every
/// anchor that its file does not define.
pub fn check_assets() -> Result<usize> {
    banner("the files the book includes exist");
    let src = root().join(BOOK).join("src");
    let mut chapters = devkit::files::under(&src)?;
    chapters.retain(|f| f.extension().is_some_and(|e| e == "md"));
    let mut problems = Vec::new();
    let mut count = 0;
    for chapter in &chapters {
        let text =
            std::fs::read_to_string(chapter).map_err(|e| format!("{}: {e}", chapter.display()))?;
        let rel = chapter
            .strip_prefix(root())
            .unwrap_or(chapter)
            .to_path_buf();
        for r in references(&rel, &text) {
            count += 1;
            let file = chapter.parent().unwrap_or(&src).join(&r.written);
            let generated =
                file.starts_with(src.join("generated")) || r.written.contains("generated/");
            match std::fs::read_to_string(&file) {
                Err(_) if !file.exists() => problems.push(format!(
                    "{} refers to {}, which is missing{}",
                    r.chapter.display(),
                    r.written,
                    if generated {
                        " (generated: run `cargo xtask timelines`)"
                    } else {
                        ""
                    }
                )),
                Ok(body) => {
                    if let Some(anchor) = &r.anchor
                        && !defines_anchor(&body, anchor)
                    {
                        problems.push(format!(
                            "{} includes {}:{anchor}, but that file has no `ANCHOR: {anchor}`",
                            r.chapter.display(),
                            r.written
                        ));
                    }
                }
                Err(_) => {} // a picture, not text: existing is enough
            }
        }
    }
    if problems.is_empty() {
        println!(
            "{count} references in {} chapters: every file is there",
            chapters.len()
        );
        Ok(count)
    } else {
        Err(format!(
            "the book refers to files that are not there:\n  {}",
            problems.join("\n  ")
        ))
    }
}

/// The includes (`{{#include path:anchor}}`, `rustdoc_include`,
/// `playground`) and local pictures (`![alt](path)`, `<img src="path">`)
/// of one chapter.
pub fn references(chapter: &Path, text: &str) -> Vec<Reference> {
    let mut refs = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("{{#") {
        let escaped = rest[..at].ends_with('\\');
        let body = &rest[at + 3..];
        let Some(end) = body.find("}}") else { break };
        let inner = body[..end].trim();
        rest = &body[end..];
        if escaped {
            continue;
        }
        let mut words = inner.split_whitespace();
        let (Some(kind), Some(arg)) = (words.next(), words.next()) else {
            continue;
        };
        if !matches!(kind, "include" | "rustdoc_include" | "playground") {
            continue;
        }
        let mut parts = arg.splitn(2, ':');
        let path = parts.next().unwrap_or_default().to_string();
        let anchor = parts
            .next()
            .map(|a| a.split(':').next().unwrap_or_default())
            .filter(|a| !a.is_empty() && !a.chars().all(|c| c.is_ascii_digit()))
            .map(String::from);
        refs.push(Reference {
            chapter: chapter.to_path_buf(),
            written: path,
            anchor,
        });
    }
    for (open, close) in [("](", ')'), ("src=\"", '"')] {
        let mut rest = text;
        while let Some(at) = rest.find(open) {
            let is_image = open != "]("
                || rest[..at]
                    .rfind("![")
                    .is_some_and(|b| !rest[b..at].contains(']'));
            let body = &rest[at + open.len()..];
            let end = body
                .find(|c: char| c == close || c.is_whitespace())
                .unwrap_or(body.len());
            let target = &body[..end];
            rest = &body[end..];
            if is_image && !target.contains("://") && !target.is_empty() {
                refs.push(Reference {
                    chapter: chapter.to_path_buf(),
                    written: target.split('#').next().unwrap_or(target).to_string(),
                    anchor: None,
                });
            }
        }
    }
    refs
}

/// True if `body` has an `ANCHOR: name` line, as mdBook matches it.
fn defines_anchor(body: &str, anchor: &str) -> bool {
    body.match_indices("ANCHOR:").any(|(i, _)| {
        let after = body[i + "ANCHOR:".len()..].trim_start();
        let name: String = after
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
            .collect();
        name == anchor
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_includes_and_pictures() {
        let text = "\
{{#include ../../condvar-timer/src/racy.rs:take_then_wait}}
{{#include generated/c1-lost-wakeup.txt}}
{{#rustdoc_include ../../naive/src/busy_loop.rs:10:20}}
\\{{#include shown/literally.rs}}
![timeline](generated/naive-vs-sleep.svg \"title\")
[a link](ch02-sleep-based.md) ![web](https://example.org/x.png)
<img src=\"generated/x.svg\" alt=\"x\">
";
        let refs = references(Path::new("book/src/ch.md"), text);
        let written: Vec<(&str, Option<&str>)> = refs
            .iter()
            .map(|r| (r.written.as_str(), r.anchor.as_deref()))
            .collect();
        assert_eq!(
            written,
            vec![
                ("../../condvar-timer/src/racy.rs", Some("take_then_wait")),
                ("generated/c1-lost-wakeup.txt", None),
                ("../../naive/src/busy_loop.rs", None),
                ("generated/naive-vs-sleep.svg", None),
                ("generated/x.svg", None),
            ]
        );
    }

    #[test]
    fn anchors_are_matched_by_name() {
        let body = "// ANCHOR: take_then_wait\nx\n// ANCHOR_END: take_then_wait\n";
        assert!(defines_anchor(body, "take_then_wait"));
        assert!(!defines_anchor(body, "take"));
    }
}
