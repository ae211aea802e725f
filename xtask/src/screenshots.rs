//! `cargo xtask screenshots`: the book as a reader sees it. Builds the book,
//! then takes one full-page PNG of every chapter listed in `SUMMARY.md` with
//! headless Chromium, every `<details>` block opened, and names what a
//! reader would trip over: pictures that do not load, pictures shrunk to fit
//! the column, code and tables wider than the column.
//!
//! The pages are shot from a private copy of the built HTML
//! (`target/xtask/screenshots-site-<pid>`, deleted afterwards), each page
//! rewritten there with `<details open` and a small script that measures
//! it; relative links and pictures work as in the real book. Not part of CI.

use crate::book::{self, BOOK};
use crate::cmd::{Cmd, Result, banner, root};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Where the PNGs go unless `--out` says otherwise (not committed).
pub const DEFAULT_OUT: &str = "target/screenshots";

/// Debian's chromium.
const CHROMIUM: &str = "/usr/bin/chromium";

/// The window's width: the sidebar and a full text column side by side.
const WIDTH: u32 = 1280;

/// The height used when a page could not be measured.
const FALLBACK_HEIGHT: u32 = 6000;

/// Chromium draws taller windows blank or not at all past this.
const MAX_HEIGHT: u32 = 30_000;

/// The marker of what the measuring script found, in the dumped DOM.
const REPORT_OPEN: &str = "<script type=\"text/plain\" id=\"xtask-shot\">";

/// Runs in each page's copy once it has loaded (and again half a second
/// later, once fonts and highlighting have settled): writes the page's
/// height and its problems, one per line, into a `text/plain` script that
/// `--dump-dom` shows.
const MEASURE: &str = r#"<script>
(function () {
  function label(e) {
    return (e.textContent || "").trim().split("\n")[0].slice(0, 70).replace(/</g, "‹");
  }
  function measure() {
    var lines = ["height " + document.documentElement.scrollHeight];
    var seen = {};
    document.querySelectorAll("main img").forEach(function (img) {
      // mdBook 0.5 repeats each picture, hidden, for its click-to-zoom view.
      var src = img.getAttribute("src") || "";
      if (seen[src]) return;
      var broken = !img.complete || img.naturalWidth === 0;
      if (!broken && img.clientWidth === 0) return;
      seen[src] = true;
      if (broken) {
        lines.push("broken-picture " + src);
      } else if (img.naturalWidth > img.clientWidth * 1.1) {
        lines.push("shrunk-picture " + src + " shown at " +
          Math.round(100 * img.clientWidth / img.naturalWidth) + "% of " +
          img.naturalWidth + "x" + img.naturalHeight);
      }
    });
    document.querySelectorAll("main pre > code").forEach(function (c) {
      if (c.scrollWidth > c.clientWidth + 1) {
        lines.push("wide-code " + (c.scrollWidth - c.clientWidth) + "px hidden: " + label(c));
      }
    });
    document.querySelectorAll("main .table-wrapper").forEach(function (t) {
      if (t.scrollWidth > t.clientWidth + 1) {
        var heads = Array.prototype.map.call(t.querySelectorAll("th"), function (th) {
          return th.textContent.trim();
        });
        lines.push("wide-table " + (t.scrollWidth - t.clientWidth) + "px hidden: " +
          heads.join(" | ").slice(0, 70).replace(/</g, "‹"));
      }
    });
    var out = document.getElementById("xtask-shot");
    if (!out) {
      out = document.createElement("script");
      out.type = "text/plain";
      out.id = "xtask-shot";
      document.body.appendChild(out);
    }
    out.text = lines.join("\n");
  }
  window.addEventListener("load", function () {
    measure();
    setTimeout(measure, 500);
  });
})();
</script>
"#;

/// One chapter of `SUMMARY.md`.
#[derive(Debug, PartialEq)]
pub struct Page {
    /// The title as the sidebar shows it.
    pub title: String,
    /// The source, relative to `book/src` (`ch01-naive.md`).
    pub source: String,
}

impl Page {
    /// The rendered page, relative to the HTML output (`ch01-naive.html`).
    fn html(&self) -> String {
        let stem = self.source.strip_suffix(".md").unwrap_or(&self.source);
        format!("{stem}.html")
    }

    /// The PNG's name: its place in the book and its file (`03-ch02-sleep-based.png`).
    fn png(&self, index: usize) -> String {
        let stem = self.source.strip_suffix(".md").unwrap_or(&self.source);
        format!("{:02}-{}.png", index + 1, stem.replace(['/', '\\'], "-"))
    }
}

/// What the measuring script found on one page.
#[derive(Debug, Default, PartialEq)]
pub struct Report {
    /// The page's full height in pixels, if it was measured.
    pub height: Option<u32>,
    /// One line per problem (`broken-picture generated/x.svg`).
    pub problems: Vec<String>,
}

/// `cargo xtask screenshots [--out DIR] [--only NAME]`.
pub fn run(out: &str, only: Option<&str>) -> Result {
    if !Path::new(CHROMIUM).exists() {
        return Err(format!(
            "screenshots need headless Chromium ({CHROMIUM}), which is not installed.\n\
             On Debian or Ubuntu, as root:\n\n    \
             apt-get update && apt-get install -y chromium\n"
        ));
    }
    let html_dir = root().join(BOOK).join("book").join("html");
    build_for_screenshots(&html_dir)?;
    // Shoot a private copy: another `mdbook build` (ci, serve, book) empties
    // book/book/html while it writes, and a page must not vanish mid-shot.
    let site = Removed(
        root()
            .join("target")
            .join("xtask")
            .join(format!("screenshots-site-{}", std::process::id())),
    );
    copy_dir(&html_dir, &site.0)?;

    let summary_path = root().join(BOOK).join("src").join("SUMMARY.md");
    let summary = std::fs::read_to_string(&summary_path)
        .map_err(|e| format!("{}: {e}", summary_path.display()))?;
    let pages: Vec<(usize, Page)> = chapters(&summary)
        .into_iter()
        .enumerate()
        .filter(|(_, p)| only.is_none_or(|o| p.source.contains(o)))
        .collect();
    if pages.is_empty() {
        return Err(format!(
            "no chapter of SUMMARY.md matches `{}`",
            only.unwrap_or_default()
        ));
    }

    let out_dir = root().join(out);
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    if only.is_none() {
        remove_old_pngs(&out_dir);
    }

    banner(&format!(
        "screenshots of {} page(s), {WIDTH} px wide, every <details> open",
        pages.len()
    ));
    let mut failures = Vec::new();
    let mut found = 0;
    for (index, page) in &pages {
        let png = out_dir.join(page.png(*index));
        match shoot(&site.0, page, &png) {
            Ok((height, report)) => {
                println!("{}  {WIDTH}x{height}  {}", shown(&png), page.title);
                for p in &report.problems {
                    println!("    {p}");
                }
                found += report.problems.len();
            }
            Err(e) => {
                println!("{}  FAILED  {}", shown(&png), page.title);
                failures.push(format!("{}: {e}", page.source));
            }
        }
    }
    println!();
    println!(
        "{} screenshot(s) in {}; {found} problem(s) named above",
        pages.len() - failures.len(),
        shown(&out_dir)
    );
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "some pages could not be shot:\n  {}",
            failures.join("\n  ")
        ))
    }
}

/// Builds the book with link checking. A failure that still wrote the
/// HTML (a broken link, say) is shown and the pages are shot anyway: the
/// point is to look at them.
fn build_for_screenshots(html_dir: &Path) -> Result {
    let started = SystemTime::now();
    let Err(e) = book::build() else {
        return Ok(());
    };
    let written = std::fs::metadata(html_dir.join("index.html"))
        .and_then(|m| m.modified())
        .is_ok_and(|t| t >= started);
    if !written {
        return Err(e);
    }
    println!();
    println!("warning: {e}");
    println!("(the HTML was written: taking the screenshots anyway)");
    Ok(())
}

/// Shoots one page of the private copy of the book: rewrites it in place
/// ([`prepare`]), measures it, takes the PNG. Returns the height shot and
/// what the measuring found.
fn shoot(site: &Path, page: &Page, png: &Path) -> Result<(u32, Report)> {
    let file = site.join(page.html());
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    std::fs::write(&file, prepare(&text)).map_err(|e| format!("{}: {e}", file.display()))?;
    let url = file_url(&file);

    let dom = chromium(&[&format!("--window-size={WIDTH},800"), "--dump-dom", &url])?;
    let report = parse_report(&dom);
    let height = report
        .height
        .map(|h| h.clamp(600, MAX_HEIGHT))
        .unwrap_or(FALLBACK_HEIGHT);

    let _ = std::fs::remove_file(png);
    let size = format!("--window-size={WIDTH},{height}");
    let target = format!("--screenshot={}", png.display());
    let mut said = chromium(&[&size, &target, &url])?;
    if !png.exists() {
        // Seen once in a while on a loaded machine: exit 0 and no file.
        said = chromium(&[&size, &target, &url])?;
    }
    if !png.exists() {
        return Err(format!(
            "chromium wrote no {}; it said:\n    {}",
            png.display(),
            tail(&said)
        ));
    }
    Ok((height, report))
}

/// Runs headless Chromium once, with a fresh profile, and returns what it
/// printed (standard output and error together).
fn chromium(args: &[&str]) -> Result<String> {
    let profile = Removed(std::env::temp_dir().join(format!(
        "xtask-chromium-{}-{}",
        std::process::id(),
        SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default()
    )));
    let user_data = format!("--user-data-dir={}", profile.0.display());
    let cmd = Cmd::new(
        CHROMIUM,
        &[
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--virtual-time-budget=3000",
            &user_data,
        ],
    )
    .args(args);
    let run = cmd.capture(Duration::from_secs(120))?;
    if run.passed() {
        Ok(run.output)
    } else {
        Err(format!(
            "`{}` failed ({}):\n    {}",
            cmd.display(),
            run.how(),
            tail(&run.output)
        ))
    }
}

/// The last lines Chromium printed, without its D-Bus complaints (a
/// container has no session bus).
fn tail(output: &str) -> String {
    let lines: Vec<&str> = output.lines().filter(|l| !l.contains("dbus")).collect();
    lines[lines.len().saturating_sub(6)..].join("\n    ")
}

/// The chapters of `SUMMARY.md` in reading order; drafts (`[Title]()`) and
/// links elsewhere are left out.
pub fn chapters(summary: &str) -> Vec<Page> {
    let mut pages = Vec::new();
    for line in summary.lines() {
        let Some(open) = line.find('[') else { continue };
        let Some(close) = line[open..].find("](").map(|c| open + c) else {
            continue;
        };
        let rest = &line[close + 2..];
        let Some(end) = rest.find(')') else { continue };
        let target = rest[..end].trim();
        if target.ends_with(".md") && !target.contains("://") {
            pages.push(Page {
                title: line[open + 1..close].to_string(),
                source: target.trim_start_matches("./").to_string(),
            });
        }
    }
    pages
}

/// The page's copy: every `<details>` open, and the measuring script.
pub fn prepare(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + MEASURE.len());
    let mut rest = html;
    while let Some(at) = rest.find("<details") {
        let after = &rest[at + "<details".len()..];
        out.push_str(&rest[..at]);
        out.push_str("<details");
        if after.starts_with('>') || after.starts_with(char::is_whitespace) {
            out.push_str(" open");
        }
        rest = after;
    }
    out.push_str(rest);
    match out.rfind("</body>") {
        Some(at) => out.insert_str(at, MEASURE),
        None => out.push_str(MEASURE),
    }
    out
}

/// Reads what the measuring script left in the dumped DOM.
pub fn parse_report(dom: &str) -> Report {
    let mut report = Report::default();
    let Some(at) = dom.rfind(REPORT_OPEN) else {
        return report;
    };
    let body = &dom[at + REPORT_OPEN.len()..];
    let body = &body[..body.find("</script>").unwrap_or(body.len())];
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match line.strip_prefix("height ") {
            Some(h) => report.height = h.trim().parse().ok(),
            None => report.problems.push(line.to_string()),
        }
    }
    report
}

/// `file:///abs/path` with the few characters a path may hold that a URL
/// may not escaped.
fn file_url(path: &Path) -> String {
    let mut url = String::from("file://");
    for c in path.to_string_lossy().chars() {
        match c {
            ' ' => url.push_str("%20"),
            '#' => url.push_str("%23"),
            '?' => url.push_str("%3F"),
            '%' => url.push_str("%25"),
            c => url.push(c),
        }
    }
    url
}

/// The path relative to the workspace root when it is inside it.
fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Deletes this command's earlier PNGs (`NN-name.png`), so a renamed or
/// removed chapter leaves no stale picture; nothing else in the directory is
/// touched.
fn remove_old_pngs(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let ours = name.ends_with(".png")
            && name.len() > 3
            && name.as_bytes()[..2].iter().all(u8::is_ascii_digit)
            && name.as_bytes()[2] == b'-';
        if ours {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Copies a directory tree (the built book: files and directories only).
pub fn copy_dir(from: &Path, to: &Path) -> Result {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let entries = std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", from.display()))?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_dir(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst).map_err(|e| format!("{}: {e}", src.display()))?;
        }
    }
    Ok(())
}

/// A temporary file or directory, deleted when dropped (also on an error).
struct Removed(PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        if self.0.is_dir() {
            let _ = std::fs::remove_dir_all(&self.0);
        } else {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_chapters_in_order() {
        let summary = "\
# Summary

[Introduction](introduction.md)

# Part I

- [A timer that burns a core](ch01-naive.md)
    - [Nested](./part/nested.md)
- [Draft]()
- [Web](https://example.org/x.md)

---

[The progression](progression.md)
";
        let pages = chapters(summary);
        let got: Vec<(&str, &str)> = pages
            .iter()
            .map(|p| (p.title.as_str(), p.source.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("Introduction", "introduction.md"),
                ("A timer that burns a core", "ch01-naive.md"),
                ("Nested", "part/nested.md"),
                ("The progression", "progression.md"),
            ]
        );
        assert_eq!(pages[2].html(), "part/nested.html");
        assert_eq!(pages[2].png(2), "03-part-nested.png");
    }

    #[test]
    fn opens_every_details_block_and_adds_the_script() {
        let html = "<body><details><summary>a</summary></details>\
                    <details class=\"x\"></details><detailsx></body>";
        let out = prepare(html);
        assert!(out.starts_with(
            "<body><details open><summary>a</summary></details>\
             <details open class=\"x\"></details><detailsx>"
        ));
        assert!(out.ends_with(&format!("{MEASURE}</body>")));
    }

    #[test]
    fn reads_the_report_from_the_dom() {
        let dom = format!(
            "<html><body>x{REPORT_OPEN}height 9184\n\
             broken-picture generated/x.svg\n\
             wide-table 120px hidden: Stage</script></body></html>"
        );
        assert_eq!(
            parse_report(&dom),
            Report {
                height: Some(9184),
                problems: vec![
                    "broken-picture generated/x.svg".to_string(),
                    "wide-table 120px hidden: Stage".to_string(),
                ],
            }
        );
        assert_eq!(parse_report("<html></html>"), Report::default());
    }
}
