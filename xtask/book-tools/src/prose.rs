//! `cargo xtask prose`: two checks of the book's words, fast enough to run
//! first in CI.
//!
//! **No figure from a run typed into prose.** A number the book states about
//! a run is included from the file that run wrote (`book/src/generated/`),
//! or said in words a new run cannot contradict. The check reads the prose
//! of every `book/src/*.md` as pulldown-cmark parses it (code blocks,
//! `{{#include ...}}` directives, code spans, HTML comments, link targets
//! and tags taken out), finds the figure-like numbers in it (a decimal such
//! as `5.3`, or an integer of three or more digits that is not round, such
//! as `626` or `211 994`), and names each one that appears in a generated
//! file, either now or in any version of those files git has a commit of:
//! that is how a figure that went stale when its file was regenerated is
//! caught. A constant the code sets (a test's delay of 127 ms) is not a run
//! figure: the line that states it ends with `<!-- constant: 127 -->` (the
//! numbers, comma-separated).
//!
//! **Chapters named by title, never by number.** The sidebar shows no
//! numbers (`no-section-label` in `book/book.toml`), so "chapter 4", "ch. 6",
//! "3b" name nothing a reader can find. The check reads the book's pages and
//! what they include, the README, CONTRIBUTING, the exercises' hints, and
//! every Rust file git tracks: the crate docs and comments a student opens
//! beside the book, the exercises, the tools' own strings.
//!
//! **No generated table without its figures.** A table the book includes
//! from `book/src/generated/` whose every cell but the first column is "-"
//! (a report written from a run that measured none of it), or a generated
//! file the book includes that is empty, leaves prose pointing at nothing:
//! both are named.

use crate::cmd::{Cmd, Result, root};
use devkit::files;
use devkit::markdown::figureless;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The generated files, relative to the workspace root.
const GENERATED: &str = "book/src/generated";

/// Runs both checks; fails with every hit as `file:line: ...`.
pub fn run() -> Result<String> {
    let generated = Generated::read()?;
    let mut figure_hits = Vec::new();
    let mut pages = 0;
    for page in md_files(&root().join("book/src"))? {
        let text = read(&page)?;
        let name = relative(&page);
        figure_hits.extend(figure_hits_in(&name, &text, &generated));
        figure_hits.extend(included_comment_hits(&page, &text, &generated)?);
        pages += 1;
    }
    let empty_hits = empty_generated(&root().join("book/src"))?;
    let mut chapter_hits = Vec::new();
    let files = chapter_scope()?;
    for file in &files {
        let text = read(file)?;
        chapter_hits.extend(chapter_hits_in(&relative(file), &text));
    }

    let figures_note = format!(
        "{pages} pages against {} numbers in the generated files and {} more in {} \
         commits of their history",
        generated.current.len(),
        generated.past.len(),
        generated.commits
    );
    println!("figures: {figures_note}");
    println!("chapter numbers: {} files", files.len());
    if figure_hits.is_empty() && chapter_hits.is_empty() && empty_hits.is_empty() {
        return Ok(format!(
            "no run figure typed in ({pages} pages), no chapter by number ({} files)",
            files.len()
        ));
    }
    let mut message = String::new();
    if !empty_hits.is_empty() {
        message += &format!(
            "{} generated file(s) the book includes have no figures:\n{}\n\
             Regenerate them from a run that measured them (the page's prose points at \
             their numbers).\n",
            empty_hits.len(),
            empty_hits.join("\n")
        );
    }
    if !figure_hits.is_empty() {
        message += &format!(
            "{} figure(s) in prose that a regeneration can make false:\n{}\n\
             Include the number from its generated file, say it in words a new run \
             cannot contradict, or, if the code sets it, end the line with \
             <!-- constant: N -->.\n",
            figure_hits.len(),
            figure_hits.join("\n")
        );
    }
    if !chapter_hits.is_empty() {
        message += &format!(
            "{} chapter(s) named by number, which the book's sidebar does not show:\n{}\n\
             Name the chapter by its title, linked: \
             [A pool of workers](ch06-threadpool-executor.md).\n",
            chapter_hits.len(),
            chapter_hits.join("\n")
        );
    }
    Err(message)
}

// ---------------------------------------------------------------------------
// Numbers in text

/// A number as written in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Number {
    /// As it stands in the text: `211 994`.
    written: String,
    /// Digit groups removed, a decimal's trailing zeros dropped: `211994`.
    key: String,
    /// Has a decimal point.
    decimal: bool,
}

impl Number {
    /// A decimal, or an integer of three or more digits that is not round
    /// (at most two significant digits followed by zeros: 100, 250, 10 000).
    fn figure_like(&self) -> bool {
        if self.decimal {
            return true;
        }
        let digits = &self.key;
        if digits.len() < 3 || digits.starts_with('0') {
            return false;
        }
        let significant = digits.trim_end_matches('0');
        let round = significant.len() < digits.len() && significant.len() <= 2;
        !round
    }
}

/// Characters that may separate groups of three digits: `211 994`,
/// `211,994`, and the no-break and thin spaces.
fn group_separator(c: char) -> bool {
    matches!(c, ' ' | ',' | '\u{a0}' | '\u{2009}' | '\u{202f}')
}

fn word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every number in `text`, except digits that belong to a word (`T14`,
/// `x86_64`, `2bc48cf`, `JDK-8176254`), issue numbers (`#372`) and
/// dotted versions (`0.5.4`).
fn numbers(text: &str) -> Vec<Number> {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    let digit = |k: usize| k < n && chars[k].is_ascii_digit();
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        let before = start.checked_sub(1).map(|k| chars[k]);
        let before2 = start.checked_sub(2).map(|k| chars[k]);
        let in_word = match before {
            Some(b) if word_char(b) => true,
            Some('-' | '.') => before2.is_some_and(char::is_alphabetic),
            // An issue or pull request (`#372`, `sbt/sbt#236`): a name.
            Some('#') => true,
            _ => false,
        };
        if in_word {
            // The rest of the word, dots inside it too: `v0.5.4`, `T14`.
            while i < n
                && (word_char(chars[i])
                    || (chars[i] == '.' && i + 1 < n && word_char(chars[i + 1])))
            {
                i += 1;
            }
            continue;
        }
        let mut j = i;
        while digit(j) {
            j += 1;
        }
        let mut key: String = chars[start..j].iter().collect();
        if j - start <= 3 {
            while j + 3 < n
                && group_separator(chars[j])
                && (1..=3).all(|d| digit(j + d))
                && !digit(j + 4)
            {
                key.extend(&chars[j + 1..j + 4]);
                j += 4;
            }
        }
        let mut dots = 0;
        let mut fraction = String::new();
        while j + 1 < n && chars[j] == '.' && digit(j + 1) {
            dots += 1;
            j += 1;
            let from = j;
            while digit(j) {
                j += 1;
            }
            if dots == 1 {
                fraction = chars[from..j].iter().collect();
            }
        }
        let mut end = j;
        let mut digit_after = false;
        while end < n && word_char(chars[end]) {
            digit_after |= chars[end].is_ascii_digit();
            end += 1;
        }
        i = end;
        if digit_after || dots > 1 || (dots == 0 && a_year(&chars, start, j)) {
            continue;
        }
        if dots == 1 {
            let kept = fraction.trim_end_matches('0');
            let kept = if kept.is_empty() { "0" } else { kept };
            key = format!("{key}.{kept}");
        }
        out.push(Number {
            written: chars[start..j].iter().collect(),
            key,
            decimal: dots == 1,
        });
    }
    out
}

const MONTHS: &[&str] = &[
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// `chars[start..end]` is a year, not a figure: 19xx or 20xx after a
/// month's name ("March 2016") or alone in parentheses ("(2026)",
/// "(2026, open)").
fn a_year(chars: &[char], start: usize, end: usize) -> bool {
    let digits: String = chars[start..end].iter().collect();
    if digits.len() != 4 || !(digits.starts_with("19") || digits.starts_with("20")) {
        return false;
    }
    let mut k = start;
    while k > 0 && chars[k - 1] == ' ' {
        k -= 1;
    }
    let word_end = k;
    while k > 0 && chars[k - 1].is_alphabetic() {
        k -= 1;
    }
    let word: String = chars[k..word_end].iter().collect();
    let parenthesised = start > 0
        && chars[start - 1] == '('
        && chars.get(end).is_some_and(|&c| c == ')' || c == ',');
    MONTHS.contains(&word.as_str()) || parenthesised
}

// ---------------------------------------------------------------------------
// The prose of a page

/// One line of a page's prose, with what its `<!-- constant: ... -->`
/// comment excuses.
#[derive(Debug)]
struct ProseLine {
    /// 1-based.
    number: usize,
    /// The line with code, directives, comments, link targets and tags
    /// taken out.
    text: String,
    /// The keys of the numbers the line declares constants.
    excused: Vec<Number>,
}

/// The prose of a Markdown page, line by line, as a CommonMark parser
/// reads it (with the extensions mdBook turns on): the text of paragraphs,
/// headings, lists and tables, and raw HTML outside its tags and comments.
/// Code blocks, code spans, link and image targets and HTML comments are
/// not prose; a `<!-- constant: ... -->` comment excuses its numbers on the
/// line it starts on. Each piece of text goes to the line its source
/// offset is on.
fn prose(markdown: &str) -> Vec<ProseLine> {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(markdown.match_indices('\n').map(|(at, _)| at + 1))
        .filter(|&at| at < markdown.len())
        .collect();
    // The 0-based line of a byte offset.
    let line_of = |offset: usize| starts.partition_point(|&s| s <= offset).saturating_sub(1);
    let mut lines: Vec<ProseLine> = (1..=starts.len())
        .map(|number| ProseLine {
            number,
            text: String::new(),
            excused: Vec::new(),
        })
        .collect();
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut in_code_block = false;
    let mut in_comment = false;
    let mut cells_end = 0;
    for (event, range) in Parser::new_ext(markdown, options).into_offset_iter() {
        let line = &mut lines[line_of(range.start)];
        match event {
            Event::Start(Tag::CodeBlock(_)) => in_code_block = true,
            Event::End(TagEnd::CodeBlock) => in_code_block = false,
            Event::Text(text) if !in_code_block => line.text.push_str(&text),
            Event::Code(_) => line.text.push(' '),
            // Cells side by side are apart.
            Event::Start(Tag::TableCell) => line.text.push(' '),
            Event::End(TagEnd::TableCell) => cells_end = range.end,
            // A row's cells beyond the header's are not shown, but a
            // comment there still excuses the row's numbers.
            Event::End(TagEnd::TableHead | TagEnd::TableRow) => {
                let tail = markdown[cells_end..].lines().next().unwrap_or_default();
                for (_, _, excused) in outside_comments(tail, &mut false) {
                    line.excused.extend(excused);
                }
            }
            Event::Html(_) | Event::InlineHtml(_) => {
                for (at, piece, excused) in
                    outside_comments(&markdown[range.clone()], &mut in_comment)
                {
                    let first = line_of(range.start + at);
                    for (k, part) in piece.lines().enumerate() {
                        lines[first + k].text.push_str(&remove_tags(part));
                    }
                    lines[line_of(range.start + at + piece.len())]
                        .excused
                        .extend(excused);
                }
            }
            _ => {}
        }
    }
    for line in &mut lines {
        line.text = strip_inline(&line.text);
    }
    lines
}

/// The pieces of raw HTML outside its comments, each with its offset in
/// `html` and the numbers a `<!-- constant: ... -->` comment right after it
/// excuses. `in_comment` carries a comment left open to the next piece of
/// HTML.
fn outside_comments<'a>(
    html: &'a str,
    in_comment: &mut bool,
) -> Vec<(usize, &'a str, Vec<Number>)> {
    let mut out: Vec<(usize, &'a str, Vec<Number>)> = Vec::new();
    let mut at = 0;
    while at < html.len() {
        let rest = &html[at..];
        if *in_comment {
            match rest.find("-->") {
                Some(k) => {
                    at += k + 3;
                    *in_comment = false;
                }
                None => break,
            }
            continue;
        }
        let Some(k) = rest.find("<!--") else {
            out.push((at, rest, Vec::new()));
            break;
        };
        let mut excused = Vec::new();
        let inside = &rest[k + 4..];
        match inside.find("-->") {
            Some(e) => {
                if let Some(list) = inside[..e].trim().strip_prefix("constant:") {
                    excused = numbers(list);
                }
                out.push((at, &rest[..k], excused));
                at += k + 4 + e + 3;
            }
            None => {
                out.push((at, &rest[..k], excused));
                *in_comment = true;
                break;
            }
        }
    }
    out
}

/// Takes out of one line of prose what mdBook and the browser do not show
/// as words: mdBook's directives (`{{#include ...}}`) and bare URLs.
fn strip_inline(line: &str) -> String {
    remove_between(line, "{{#", "}}")
        .split_whitespace()
        .filter(|word| !word.contains("://"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Removes every `open ... close` (both included); an `open` with no
/// `close` after it is kept.
fn remove_between(s: &str, open: &str, close: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(k) = rest.find(open) {
        match rest[k + open.len()..].find(close) {
            Some(e) => {
                out.push_str(&rest[..k]);
                rest = &rest[k + open.len() + e + close.len()..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

/// Removes HTML tags (`<details>`, `<img src="...">`, `</summary>`); a `<`
/// not followed by a letter or `/` is prose.
fn remove_tags(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(k) = rest.find('<') {
        let after = &rest[k + 1..];
        let tag = after
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '/');
        match after.find('>') {
            Some(e) if tag => {
                out.push_str(&rest[..k]);
                rest = &after[e + 1..];
            }
            _ => {
                out.push_str(&rest[..=k]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

// ---------------------------------------------------------------------------
// What the generated files hold, now and in their history

/// Every number in the generated files: where each one is now, and where
/// the others were in earlier committed versions.
#[derive(Debug, Default)]
struct Generated {
    /// Number key -> a file that holds it now.
    current: HashMap<String, String>,
    /// Number key -> (file, commit) of the newest commit that added a line
    /// holding it, for numbers no generated file holds now.
    past: HashMap<String, (String, String)>,
    /// How many commits of the history were read.
    commits: usize,
}

impl Generated {
    /// Reads the files as they are, then `git log -p` of the directory.
    fn read() -> Result<Generated> {
        let mut generated = Generated::default();
        for file in files::under(&root().join(GENERATED))? {
            let Ok(bytes) = std::fs::read(&file) else {
                continue;
            };
            let name = relative(&file);
            let text = String::from_utf8_lossy(&bytes);
            for number in numbers(&readable(&name, &text)) {
                generated
                    .current
                    .entry(number.key)
                    .or_insert_with(|| name.clone());
            }
        }
        let log = Cmd::new(
            "git",
            &[
                "log",
                "-p",
                "--no-renames",
                "--diff-merges=first-parent",
                "--no-color",
                "--format=commit %H",
                "--",
                GENERATED,
            ],
        )
        .read()
        .map_err(|e| format!("{e}\n(the figures check reads the history of {GENERATED})"))?;
        generated.add_history(&log);
        Ok(generated)
    }

    /// Reads `git log -p --format='commit %H'`: every line a commit added to
    /// a generated file.
    fn add_history(&mut self, log: &str) {
        let mut commit = String::new();
        let mut file = String::new();
        let mut in_header = false;
        for line in log.lines() {
            if let Some(hash) = line.strip_prefix("commit ") {
                commit = hash.chars().take(7).collect();
                self.commits += 1;
                in_header = false;
            } else if line.starts_with("diff --git ") {
                in_header = true;
                file.clear();
            } else if in_header {
                if let Some(path) = line.strip_prefix("+++ b/") {
                    file = path.to_string();
                } else if line.starts_with("@@") {
                    in_header = false;
                }
            } else if let Some(added) = line.strip_prefix('+') {
                if file.is_empty() {
                    continue;
                }
                for number in numbers(&readable(&file, added)) {
                    if self.current.contains_key(&number.key) {
                        continue;
                    }
                    self.past
                        .entry(number.key)
                        .or_insert_with(|| (file.clone(), commit.clone()));
                }
            }
        }
    }

    /// Where a number is, in words, if any generated file holds or held it.
    fn find(&self, key: &str) -> Option<String> {
        if let Some(file) = self.current.get(key) {
            return Some(format!("also appears in {file}"));
        }
        self.past.get(key).map(|(file, commit)| {
            format!(
                "appeared in {file} as of commit {commit}, and no generated file holds \
                 it now: a stale figure"
            )
        })
    }
}

/// The text a reader sees in a generated file: an SVG's text and titles,
/// not its coordinates; anything else as it is.
fn readable(name: &str, text: &str) -> String {
    if name.ends_with(".svg") {
        let mut out = String::new();
        let mut in_tag = false;
        for c in text.chars() {
            match c {
                '<' => in_tag = true,
                '>' if in_tag => {
                    in_tag = false;
                    out.push(' ');
                }
                _ if !in_tag => out.push(c),
                _ => {}
            }
        }
        out
    } else {
        text.to_string()
    }
}

/// `file:line: <number> also appears in <generated file>`, for every
/// figure-like number of a page that a generated file holds or held; and
/// every excuse that names a number its line does not state.
fn figure_hits_in(name: &str, markdown: &str, generated: &Generated) -> Vec<String> {
    let mut hits = Vec::new();
    for line in prose(markdown) {
        let found = numbers(&line.text);
        for number in found.iter().filter(|n| n.figure_like()) {
            if line.excused.iter().any(|e| e.key == number.key) {
                continue;
            }
            if let Some(where_) = generated.find(&number.key) {
                hits.push(format!(
                    "{name}:{}: {} {where_}",
                    line.number, number.written
                ));
            }
        }
        for excuse in &line.excused {
            if !found.iter().any(|n| n.key == excuse.key) {
                hits.push(format!(
                    "{name}:{}: <!-- constant: {} --> names a number the line's prose \
                     does not state",
                    line.number, excuse.written
                ));
            }
        }
    }
    // One hit for a number a line states twice.
    hits.dedup();
    hits
}

/// The figures in the comments of the Rust listings a page includes
/// (`{{#include ../../x/src/y.rs:anchor}}`): a reader reads them as the
/// book's prose. A number the file's code itself states (`const
/// TASK1_DUE_MS: u64 = 1000;`) is the code's, and stays.
fn included_comment_hits(
    page: &Path,
    markdown: &str,
    generated: &Generated,
) -> Result<Vec<String>> {
    let dir = page.parent().unwrap_or(page);
    let mut hits = Vec::new();
    let mut rest = markdown;
    while let Some(i) = rest.find("{{#include ") {
        let after = &rest[i + "{{#include ".len()..];
        let end = after.find("}}").unwrap_or(after.len());
        let target = after[..end].trim();
        rest = &after[end..];
        let (path, anchor) = target.split_once(':').unwrap_or((target, ""));
        if !path.ends_with(".rs") {
            continue;
        }
        let file = dir.join(path);
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let name = relative(&file.canonicalize().unwrap_or(file.clone()));
        let (code, comments) = split_comments(&text, anchor);
        let stated: Vec<String> = numbers(&code).into_iter().map(|n| n.key).collect();
        for (line, comment) in comments {
            for number in numbers(&comment).iter().filter(|n| n.figure_like()) {
                if stated.contains(&number.key) {
                    continue;
                }
                if let Some(where_) = generated.find(&number.key) {
                    hits.push(format!(
                        "{name}:{line} (a comment the book includes): {} {where_}",
                        number.written
                    ));
                }
            }
        }
    }
    hits.dedup();
    Ok(hits)
}

/// A Rust file's code (comments out) and, for the lines inside `anchor`
/// (every line when there is none, or it is a line range), each comment
/// with its 1-based line.
fn split_comments(text: &str, anchor: &str) -> (String, Vec<(usize, String)>) {
    let named = !anchor.is_empty() && !anchor.starts_with(|c: char| c.is_ascii_digit());
    let mut inside = !named;
    let mut code = String::new();
    let mut comments = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if named && t.starts_with("// ANCHOR:") && t.ends_with(anchor) {
            inside = true;
            continue;
        }
        if named && t.starts_with("// ANCHOR_END:") && t.ends_with(anchor) {
            inside = false;
            continue;
        }
        match line.find("//") {
            Some(at) => {
                code.push_str(&line[..at]);
                if inside {
                    comments.push((i + 1, line[at..].trim_start_matches('/').to_string()));
                }
            }
            None => code.push_str(line),
        }
        code.push('\n');
    }
    (code, comments)
}

// ---------------------------------------------------------------------------
// Chapters by number

const NUMBER_WORDS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve",
];

const ORDINALS: &[&str] = &[
    "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    "eleventh", "twelfth",
];

/// The words of a line (runs of letters, digits and `_`), with their byte
/// offsets.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (at, c) in line.char_indices() {
        match (word_char(c), start) {
            (true, None) => start = Some(at),
            (false, Some(s)) => {
                out.push((s, &line[s..at]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

/// `3`, `3b`, `12`: what follows "chapter" when a chapter is named by number.
fn chapter_number(word: &str) -> bool {
    let digits = word.chars().take_while(char::is_ascii_digit).count();
    let rest = &word[digits..];
    digits > 0 && rest.len() <= 1 && rest.chars().all(|c| c.is_ascii_alphabetic())
}

/// The places in one line that name a chapter by its number: "chapter 4",
/// "chapters 3 and 4", "Chapter 3b", "chapter five", "the third chapter",
/// "ch. 6", "ch06b's", and a bare "3b" or "6b". A file name
/// (`ch06b-scheduled-pool.md`), "stage 3", "Part II" and hex are not.
fn chapter_numbers(line: &str) -> Vec<String> {
    let words = words(line);
    let mut found = Vec::new();
    // A word a phrase already took ("3b" in "chapter 3b").
    let mut taken = None;
    for (k, &(at, word)) in words.iter().enumerate() {
        if taken == Some(k) {
            continue;
        }
        let lower = word.to_ascii_lowercase();
        let end = at + word.len();
        let next = words.get(k + 1);
        let gap = next.map(|&(next_at, _)| &line[end..next_at]);
        let spaces = gap.is_some_and(|g| !g.is_empty() && g.chars().all(char::is_whitespace));
        let mut phrase = || {
            taken = Some(k + 1);
            let (next_at, next_word) = next.expect("a next word");
            line[at..next_at + next_word.len()].to_string()
        };
        if (lower == "chapter" || lower == "chapters") && spaces {
            let following = next.expect("a next word").1.to_ascii_lowercase();
            if chapter_number(&following) || NUMBER_WORDS.contains(&following.as_str()) {
                found.push(phrase());
            }
        } else if lower == "ch" {
            let dotted = gap.is_some_and(|g| {
                g.strip_prefix('.')
                    .is_some_and(|g| !g.is_empty() && g.chars().all(char::is_whitespace))
            });
            let next_digit = next.is_some_and(|(_, w)| w.starts_with(|c: char| c.is_ascii_digit()));
            if (dotted || spaces) && next_digit {
                found.push(phrase());
            }
        } else if ORDINALS.contains(&lower.as_str())
            && spaces
            && next.is_some_and(|(_, w)| {
                let w = w.to_ascii_lowercase();
                w == "chapter" || w == "chapters"
            })
        {
            found.push(phrase());
        } else if let Some(number) = lower.strip_prefix("ch") {
            // ch06b's, ch4: a file name without its title.
            let file_name = line[end..].starts_with(['-', '.']);
            if chapter_number(number) && !file_name {
                found.push(word.to_string());
            }
        } else if lower.len() <= 3
            && lower.ends_with('b')
            && chapter_number(&lower)
            && lower.trim_start_matches('0').len() == 2
            && (at == 0 || line[..at].ends_with([' ', '\t', '[', '(', '"', '*']))
        {
            // 3b, 6b
            found.push(word.to_string());
        }
    }
    found
}

/// `file:line: "chapter 4" names a chapter by number`, for a whole file.
fn chapter_hits_in(name: &str, text: &str) -> Vec<String> {
    let mut hits = Vec::new();
    for (index, line) in text.lines().enumerate() {
        for phrase in chapter_numbers(line) {
            hits.push(format!(
                "{name}:{}: \"{phrase}\" names a chapter by number",
                index + 1
            ));
        }
    }
    hits
}

/// The files whose words a reader sees: the book's pages and the text
/// files they include, the README and CONTRIBUTING, the exercises'
/// skeletons, hints, list and checks, and the xtask's sources (its messages
/// and help), except this file, whose tests must spell the forms it rejects.
fn chapter_scope() -> Result<Vec<PathBuf>> {
    let root = root();
    let mut files = md_files(&root.join("book/src"))?;
    files.extend(
        files::under(&root.join(GENERATED))?
            .into_iter()
            .filter(|f| {
                f.extension()
                    .is_some_and(|e| e == "md" || e == "txt" || e == "diff")
            }),
    );
    files.push(root.join("README.md"));
    files.push(root.join("CONTRIBUTING.md"));
    // Every Rust file git tracks: crate docs and comments are read beside
    // the book.
    let tracked = Cmd::new("git", &["ls-files", "-z", "--", "*.rs"]).read()?;
    files.extend(
        tracked
            .split('\0')
            .filter(|f| !f.is_empty())
            .map(|f| root.join(f)),
    );
    let mut hints = files::under(&root.join("exercises/hints"))?;
    hints.retain(|f| f.extension().is_some_and(|e| e == "md"));
    files.extend(hints);
    let this_file = root.join("xtask/book-tools/src/prose.rs");
    files.retain(|f| *f != this_file);
    files.sort();
    files.dedup();
    Ok(files)
}

// ---------------------------------------------------------------------------
// Generated files without their figures

/// The generated files the pages in `book` include that have lost their
/// figures, as `page:line: file`.
fn empty_generated(book: &Path) -> Result<Vec<String>> {
    let mut hits = Vec::new();
    for page in md_files(book)? {
        let text = read(&page)?;
        for (i, line) in text.lines().enumerate() {
            let Some(rest) = line.split("{{#include ").nth(1) else {
                continue;
            };
            let target = rest.split(['}', ':']).next().unwrap_or_default().trim();
            if !target.starts_with("generated/") || !target.ends_with(".md") {
                continue;
            }
            let file = book.join(target);
            let Ok(included) = std::fs::read_to_string(&file) else {
                continue; // the book build names a missing file
            };
            if figureless(&included) {
                hits.push(format!("{}:{}: {target}", relative(&page), i + 1));
            }
        }
    }
    Ok(hits)
}

// ---------------------------------------------------------------------------
// Files

/// The `.md` files directly in `dir`, sorted.
fn md_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    Ok(files)
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// A path relative to the workspace root, as the messages name it.
fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_in_an_included_comment_fails_unless_the_code_states_it() {
        // Removed when dropped, a panicking test too.
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().to_path_buf();
        std::fs::create_dir_all(dir.join("src")).unwrap();
        let rust = "const DUE_MS: u64 = 1023;\n// ANCHOR: loop\n\
                    /// Task 2 ran at 1023 ms, then at 1047 ms.\nfn f() {}\n// ANCHOR_END: loop\n\
                    // 1049 outside the anchor\n";
        std::fs::write(dir.join("src/x.rs"), rust).unwrap();
        let page = dir.join("page.md");
        let markdown = "```rust\n{{#include src/x.rs:loop}}\n```\n";
        let mut generated = Generated::default();
        for key in ["1023", "1047", "1049"] {
            generated
                .current
                .insert(key.to_string(), "generated/run.txt".to_string());
        }
        let hits = included_comment_hits(&page, markdown, &generated).unwrap();
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert!(
            hits[0].contains(":3 (a comment the book includes): 1047"),
            "{hits:?}"
        );
    }

    #[test]
    fn a_page_that_includes_a_table_of_dashes_is_named() {
        // Removed when dropped, a panicking test too.
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().to_path_buf();
        std::fs::create_dir_all(dir.join("generated")).unwrap();
        std::fs::write(
            dir.join("generated/t.md"),
            "| floor | median |\n|---|---|\n| x | - |\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("ch.md"),
            "# Ch\n\nThe table:\n\n{{#include generated/t.md}}\n",
        )
        .unwrap();
        let hits = empty_generated(&dir);
        let hits = hits.unwrap();
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert!(hits[0].ends_with("ch.md:5: generated/t.md"), "{hits:?}");
    }

    fn keys(text: &str) -> Vec<String> {
        numbers(text)
            .into_iter()
            .filter(Number::figure_like)
            .map(|n| n.key)
            .collect()
    }

    /// A generated directory holding `now` today, and `then` in commit
    /// `abc1234` of its history.
    fn generated(now: &str, then: &str) -> Generated {
        let mut g = Generated::default();
        for number in numbers(now) {
            g.current
                .insert(number.key, "book/src/generated/now.txt".to_string());
        }
        let log = format!(
            "commit abc1234def\n\ndiff --git a/book/src/generated/old.txt b/book/src/generated/old.txt\n\
             --- a/book/src/generated/old.txt\n+++ b/book/src/generated/old.txt\n@@ -1 +1 @@\n\
             -nothing\n+{then}\n"
        );
        g.add_history(&log);
        g
    }

    #[test]
    fn figure_like_numbers_are_decimals_and_integers_that_are_not_round() {
        assert_eq!(
            keys("took 626 ns, 5.3x the peer, 0.61–0.76 of it, 211 994 and 211,994 wake-ups"),
            ["626", "5.3", "0.61", "0.76", "211994", "211994"]
        );
        assert_eq!(
            keys("100 tasks, 1000 ms, 10 000 runs, 250 ms, 2 cores, 42 times, 1 500"),
            Vec::<String>::new()
        );
        assert_eq!(keys("due at 1050 ms, 5.30 s"), ["1050", "5.3"]);
        assert_eq!(
            keys("25 November 2026, a pull request (2026), (2026, open), ran at 2003 ms"),
            ["2003"]
        );
    }

    #[test]
    fn digits_inside_words_and_versions_are_not_figures() {
        assert_eq!(
            keys(
                "T14, x86_64, JDK-8176254, mdBook 0.5.4, commit 2bc48cf, 0x7f3a, abc123, \
                 Hystrix#372, #1308"
            ),
            Vec::<String>::new()
        );
        assert_eq!(keys("(626) and 901: a 1.5x ratio"), ["626", "901", "1.5"]);
    }

    #[test]
    fn prose_leaves_out_code_includes_comments_and_link_targets() {
        let page = "Before 626.\n\
                    ```text\n901 in a listing\n```\n\
                    Included: {{#include generated/x.txt:3:}} and `777 in code` and ``a ` 778``.\n\
                    A link [to 303](ch01-naive.md#l-404) and <img src=\"a-505.svg\"> and https://x.org/606.\n\
                    <!-- a comment\nwith 707 in it -->After 808.\n\
                    ~~~~\n909\n~~~~\n";
        let lines = prose(page);
        let all: Vec<(usize, Vec<String>)> = lines
            .iter()
            .map(|l| (l.number, keys(&l.text)))
            .filter(|(_, k)| !k.is_empty())
            .collect();
        assert_eq!(
            all,
            [
                (1, vec!["626".to_string()]),
                (6, vec!["303".to_string()]),
                (8, vec!["808".to_string()]),
            ]
        );
    }

    #[test]
    fn prose_is_what_commonmark_reads_as_prose() {
        // The hand-written scanner this replaced read a code span broken
        // over two lines, and an indented code block, as prose.
        let page = "Prose, then `a span\n626 across lines`.\n\n    907 in an indented block\n\n\
                    - a list\n\n  ```text\n  908 in its block\n  ```\n";
        let all: Vec<(usize, Vec<String>)> = prose(page)
            .iter()
            .map(|l| (l.number, keys(&l.text)))
            .filter(|(_, k)| !k.is_empty())
            .collect();
        assert_eq!(all, Vec::<(usize, Vec<String>)>::new());
    }

    #[test]
    fn a_comment_after_a_table_row_excuses_its_numbers() {
        // The cell after the row's last is not shown, but the row's
        // constants are named there.
        let g = generated("2.5 revolutions", "");
        let page = "| delay | runs |\n|---|---|\n| 2.5 revolutions | late | <!-- constant: 2.5 -->\n\
                    | 2.5 revolutions | late |\n";
        assert_eq!(
            figure_hits_in("p.md", page, &g),
            ["p.md:4: 2.5 also appears in book/src/generated/now.txt"]
        );
    }

    #[test]
    fn a_stale_figure_is_named_with_the_commit_that_had_it() {
        let g = generated("p99 0.61 now", "p99 0.58 before");
        let hits = figure_hits_in("book/src/ch08.md", "Line one.\nThe p99 was 0.58.\n", &g);
        assert_eq!(
            hits,
            [
                "book/src/ch08.md:2: 0.58 appeared in book/src/generated/old.txt as of commit \
              abc1234, and no generated file holds it now: a stale figure"
            ]
        );
    }

    #[test]
    fn a_current_figure_is_named_with_its_file() {
        let g = generated("took 211994 wake-ups", "");
        let hits = figure_hits_in("p.md", "It took 211 994 wake-ups.\n", &g);
        assert_eq!(
            hits,
            ["p.md:1: 211 994 also appears in book/src/generated/now.txt"]
        );
    }

    #[test]
    fn an_excused_constant_passes_and_a_needless_excuse_does_not() {
        let g = generated("delay 127 ms, 207 ms", "");
        let page = "A delay of 127 ms and 207 ms. <!-- constant: 127, 207 -->\n\
                    A delay of 127 ms. <!-- constant: 127, 333 -->\n";
        assert_eq!(
            figure_hits_in("p.md", page, &g),
            ["p.md:2: <!-- constant: 333 --> names a number the line's prose does not state"]
        );
    }

    #[test]
    fn a_number_inside_an_include_or_a_round_one_passes() {
        let g = generated("626 ns, 1000 ms, 100 tasks", "");
        let page = "Took {{#include generated/now.txt:1}} ns; 1000 ms; 100 tasks; `626`.\n";
        assert!(figure_hits_in("p.md", page, &g).is_empty());
    }

    #[test]
    fn an_svg_counts_its_text_not_its_coordinates() {
        let svg = "<svg width=\"780\"><rect x=\"140.5\" y=\"48\"/>\n<text x=\"626\">p99 901 ns</text>\n</svg>";
        assert_eq!(keys(&readable("a.svg", svg)), ["901"]);
    }

    #[test]
    fn history_reads_added_lines_and_not_a_diff_files_own_headers() {
        let log = "commit 1111111aaaa\n\ndiff --git a/book/src/generated/x.diff b/book/src/generated/x.diff\n\
                   --- a/book/src/generated/x.diff\n+++ b/book/src/generated/x.diff\n@@ -1,2 +1,2 @@\n\
                   -old 313\n++++ src/timer_style.rs 414\n context 515\n";
        let mut g = Generated::default();
        g.add_history(log);
        assert_eq!(g.commits, 1);
        assert!(g.past.contains_key("414"));
        assert!(!g.past.contains_key("313"));
        assert!(!g.past.contains_key("515"));
    }

    #[test]
    fn chapters_named_by_number_are_found() {
        let hits = |line: &str| chapter_numbers(line);
        assert_eq!(
            hits("From chapter 2 on, as Chapter 3b says"),
            ["chapter 2", "Chapter 3b"]
        );
        assert_eq!(
            hits("chapters 3 and 4, chapter five"),
            ["chapters 3", "chapter five"]
        );
        assert_eq!(hits("see ch. 6 and ch 7"), ["ch. 6", "ch 7"]);
        assert_eq!(hits("the third chapter"), ["third chapter"]);
        assert_eq!(
            hits("| [3b](ch03b-something-changed.md), [6b](x.md) |"),
            ["3b", "6b"]
        );
        assert_eq!(hits("as in ch06b's demo"), ["ch06b"]);
    }

    #[test]
    fn what_is_not_a_chapter_number_passes() {
        for line in [
            "stage 3 `condvar-timer/`, Part II: stopping, the chapter's exercise",
            "[Timers on a pool](ch06b-scheduled-pool.md) and book/src/ch03b-something-changed.md",
            "0x6b, 0x3b, 64b keys, v0.3b, '\\u{7b}', this chapter I mean, the first chapter",
            "a chapter 's title; chapter: \"ch01-naive.md\"",
        ] {
            assert_eq!(chapter_numbers(line), Vec::<String>::new(), "{line}");
        }
    }
}
