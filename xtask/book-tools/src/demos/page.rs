//! Finding the demos in the book's pages ([`demos`]), with a CommonMark
//! parser: which fenced blocks sit in a teacher's note, and the comment
//! after each.

use crate::cmd::{Result, root};
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use std::path::Path;

/// What a demo must do.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Exit 0.
    Passes,
    /// Exit non-zero (a red test, a loom failure).
    Fails,
    /// Still running after [`super::HANG`].
    Hangs,
    /// Not run by the check, and why (an interactive tool, a second
    /// terminal).
    NotRun(String),
}

/// One demo: a block of commands on a page, and what its comment expects.
#[derive(Debug, Clone)]
pub struct Demo {
    /// The page, under `book/src`.
    pub page: String,
    /// The block's first line on the page.
    pub line: usize,
    /// The block's commands, one per line (a `\` continuation joined).
    pub commands: Vec<String>,
    /// What its comment says the run must do.
    pub outcome: Outcome,
    /// Text the run's output must contain.
    pub shows: Vec<String>,
    /// What the page quotes around the block: its teacher's note (or the
    /// whole page), included files resolved.
    pub quoted: String,
}

/// Every demo in `book/src`, in page order; fails naming each `sh` block
/// of a teacher's note without its comment, and each comment it cannot
/// read.
pub fn demos() -> Result<Vec<Demo>> {
    let src = root().join("book/src");
    let mut pages: Vec<_> = std::fs::read_dir(&src)
        .map_err(|e| format!("{}: {e}", src.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    let (mut found, mut problems) = (Vec::new(), Vec::new());
    for path in pages {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        page_demos(&name, &text, &src, &mut found, &mut problems);
    }
    if problems.is_empty() {
        Ok(found)
    } else {
        Err(format!("the teachers' demos:\n  {}", problems.join("\n  ")))
    }
}

/// A teacher's note: the `<details>` whose summary is "For the teacher".
const NOTE: &str = "<summary>For the teacher</summary>";

fn page_demos(
    name: &str,
    text: &str,
    src: &Path,
    found: &mut Vec<Demo>,
    problems: &mut Vec<String>,
) {
    // The teachers' page is a note from top to bottom.
    let whole = name == "teachers.md";
    let mut note: Option<usize> = None;
    let mut block: Option<(usize, String)> = None;
    for (event, range) in Parser::new(text).into_offset_iter() {
        match event {
            Event::Html(html) | Event::InlineHtml(html) => {
                if html.contains(NOTE) {
                    note = Some(range.start);
                } else if html.contains("</details>") {
                    note = None;
                }
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) if info.as_ref() == "sh" => {
                block = Some((range.start, String::new()));
            }
            Event::Text(t) => {
                if let Some((_, body)) = block.as_mut() {
                    body.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                let Some((start, body)) = block.take() else {
                    continue;
                };
                let line = text[..start].lines().count() + 1;
                let comment = comment_after(&text[range.end..]);
                let in_note = whole || note.is_some();
                let Some(comment) = comment else {
                    if in_note {
                        problems.push(format!(
                            "{name}:{line}: a command block in a teacher's note with no \
                             `<!-- demo: ... -->` after it (what must it print?)"
                        ));
                    }
                    continue;
                };
                let quoted_from = if whole { 0 } else { note.unwrap_or(start) };
                let quoted_to = text[quoted_from..]
                    .find("</details>")
                    .map_or(text.len(), |i| quoted_from + i);
                match parse_comment(&comment) {
                    Ok((outcome, shows)) => found.push(Demo {
                        page: name.to_string(),
                        line,
                        commands: commands(&body),
                        outcome,
                        shows,
                        quoted: with_includes(&text[quoted_from..quoted_to], src),
                    }),
                    Err(e) => problems.push(format!("{name}:{line}: {e}")),
                }
            }
            _ => {}
        }
    }
}

/// The `<!-- demo: ... -->` comment right after a block, if there is one.
fn comment_after(rest: &str) -> Option<String> {
    let rest = rest.trim_start();
    let body = rest.strip_prefix("<!-- demo:")?;
    let end = body.find("-->")?;
    Some(body[..end].trim().to_string())
}

/// `fails, shows "N1 busy_wait:"`, `passes`, `hangs`, `not run: why`.
fn parse_comment(comment: &str) -> Result<(Outcome, Vec<String>)> {
    if let Some(why) = comment.strip_prefix("not run:") {
        return Ok((Outcome::NotRun(why.trim().to_string()), Vec::new()));
    }
    let (word, mut rest) = comment
        .split_once(',')
        .map_or((comment, ""), |(w, r)| (w, r));
    let outcome = match word.trim() {
        "passes" => Outcome::Passes,
        "fails" => Outcome::Fails,
        "hangs" => Outcome::Hangs,
        other => {
            return Err(format!(
                "`{other}` is not an outcome (passes, fails, hangs, not run: why)"
            ));
        }
    };
    let mut shows = Vec::new();
    loop {
        rest = rest.trim_start().trim_start_matches(',').trim_start();
        if rest.is_empty() {
            break;
        }
        let quoted = rest
            .strip_prefix("shows \"")
            .ok_or_else(|| format!("expected `shows \"...\"` in `{comment}`"))?;
        let end = quoted
            .find('"')
            .ok_or_else(|| format!("an unclosed quote in `{comment}`"))?;
        shows.push(quoted[..end].to_string());
        rest = &quoted[end + 1..];
    }
    Ok((outcome, shows))
}

/// A block's commands: one a line, `\` continuations joined, comments and
/// blank lines left out.
fn commands(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in body.lines() {
        let line = line.trim();
        if current.is_empty() && (line.is_empty() || line.starts_with('#')) {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(head) => {
                current.push_str(head.trim_end());
                current.push(' ');
            }
            None => {
                current.push_str(line);
                out.push(std::mem::take(&mut current));
            }
        }
    }
    out
}

/// `text` with each `{{#include path}}` replaced by the file (an anchor or
/// a line range after the path is ignored: the check only searches it).
fn with_includes(text: &str, dir: &Path) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("{{#include ") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "{{#include ".len()..];
        let Some(end) = after.find("}}") else {
            break;
        };
        let target = after[..end].trim();
        let path = target.split(':').next().unwrap_or(target);
        out.push_str(&std::fs::read_to_string(dir.join(path)).unwrap_or_default());
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_comment() {
        assert_eq!(
            parse_comment(r#"fails, shows "N1 busy_wait:", shows "300 ms""#).unwrap(),
            (
                Outcome::Fails,
                vec!["N1 busy_wait:".to_string(), "300 ms".to_string()]
            )
        );
        assert_eq!(parse_comment("hangs").unwrap(), (Outcome::Hangs, vec![]));
        assert_eq!(
            parse_comment("not run: a second terminal").unwrap().0,
            Outcome::NotRun("a second terminal".to_string())
        );
        assert!(parse_comment("red").is_err());
        assert!(parse_comment(r#"fails, shows "open"#).is_err());
    }

    #[test]
    fn finds_a_note_block_and_refuses_one_without_its_comment() {
        let page = "# A page\n\n<details>\n<summary>For the teacher</summary>\n\n\
                    - Run it:\n\n  ```sh\n  cargo test -p naive \\\n    --test n1\n  ```\n  \
                    <!-- demo: fails, shows \"N1\" -->\n\n```text\nN1 busy\n```\n\n\
                    ```sh\ncargo run\n```\n</details>\n\n```sh\nnot a demo\n```\n";
        let (mut found, mut problems) = (Vec::new(), Vec::new());
        page_demos("ch.md", page, Path::new("."), &mut found, &mut problems);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].commands, ["cargo test -p naive --test n1"]);
        assert_eq!(found[0].outcome, Outcome::Fails);
        assert!(found[0].quoted.contains("N1 busy"));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("ch.md:18:"), "{problems:?}");
    }
}
