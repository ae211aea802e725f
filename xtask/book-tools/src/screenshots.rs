//! `cargo xtask screenshots [--check]`: the book as a reader sees it, on
//! screen and in print. Builds the book, then takes one full-page PNG of
//! every chapter listed in `SUMMARY.md` with headless Chromium, every
//! `<details>` block opened, and names what a reader would trip over:
//! pictures that do not load, pictures shrunk to fit the column, code and
//! tables wider than the column.
//!
//! Then the print page (`print.html`, what `cargo xtask bundle` prints to
//! the PDF) is measured the same way, as it prints: in a window as wide as
//! the printed page's column, with the print style sheet applied in place
//! of the screen's (`MEASURE` swaps the two in every media query), and
//! `<details>` left closed, as the PDF has them. The column's width is
//! measured too, not assumed: a probe page is printed to PDF with the
//! bundle's flags and its media queries read back (`print_width`). In
//! print a code block wraps instead of scrolling (mdBook's print style
//! sheet sets `pre-wrap`), so there a block counts as too wide when its
//! longest line would not fit unwrapped: it prints cut into pieces.
//!
//! At the end, a table: per page, how many code blocks and tables are wider
//! than the column, on screen and in print, and the total. `--check` fails
//! unless the total is 0.
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

/// The printed page's column when it cannot be measured (no `pdftotext`):
/// Chromium prints on US Letter (8.5 in, 816 px at 96 px per inch) with
/// margins of about 0.4 in, leaving 740 px.
const ASSUMED_PRINT_WIDTH: u32 = 740;

/// The height used when a page could not be measured.
const FALLBACK_HEIGHT: u32 = 6000;

/// Chromium draws taller windows blank or not at all past this.
const MAX_HEIGHT: u32 = 30_000;

/// The marker of what the measuring script found, in the dumped DOM.
const REPORT_OPEN: &str = "<script type=\"text/plain\" id=\"xtask-shot\">";

/// Runs in each page's copy once it has loaded (and again half a second
/// later, once fonts and highlighting have settled): writes the page's
/// height and its problems, one per line, into a `text/plain` script that
/// `--dump-dom` shows. `XTASK_PRINT` is replaced by `true` for the print
/// page: the print style sheet is then applied in place of the screen's,
/// and each problem line starts with its chapter's number (the count of
/// `<h1>` before it; 0 for the page as a whole).
const MEASURE: &str = r#"<script>
(function () {
  var PRINT = XTASK_PRINT;
  function label(e) {
    return (e.textContent || "").trim().split("\n")[0].slice(0, 70).replace(/</g, "‹");
  }
  function longest(e) {
    return (e.textContent || "").split("\n").reduce(function (m, l) {
      return Math.max(m, l.length);
    }, 0);
  }
  // Shown, unless inside a closed <details> (whose content Chromium still
  // lays out, hidden) or in nothing laid out at all.
  function shown(e) {
    if (e.closest("details:not([open]) > :not(summary)")) return false;
    return e.clientWidth > 0;
  }
  var heads = [];
  function where(e) {
    if (!PRINT) return "";
    var n = 0;
    heads.forEach(function (h, i) {
      if (h.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING) n = i + 1;
    });
    return n + " ";
  }
  // Print media on a screen: every media query's `print` and `screen`
  // trade places, in the style sheets' links and inside them.
  function swap(text) {
    return text.replace(/\b(print|screen)\b/g, function (m) {
      return m === "print" ? "screen" : "print";
    });
  }
  var unread = -1;
  function emulatePrint(lines) {
    if (unread < 0) {
      unread = 0;
      document.querySelectorAll("link[rel=stylesheet][media]").forEach(function (l) {
        l.media = swap(l.media);
      });
      var walk = function (rules) {
        Array.prototype.forEach.call(rules, function (r) {
          if (r.media && r.cssRules) r.media.mediaText = swap(r.media.mediaText);
          if (r.cssRules) walk(r.cssRules);
        });
      };
      Array.prototype.forEach.call(document.styleSheets, function (s) {
        try { walk(s.cssRules); } catch (e) { unread += 1; }
      });
    }
    if (unread > 0) {
      lines.push("0 print-emulation-failed " + unread + " style sheet(s) could not be read");
    }
    var side = document.getElementById("mdbook-sidebar");
    if (side && getComputedStyle(side).display !== "none") {
      lines.push("0 print-emulation-failed the print style sheet did not apply (the sidebar shows)");
    }
  }
  function measure() {
    var lines = ["height " + document.documentElement.scrollHeight];
    if (PRINT) {
      emulatePrint(lines);
      heads = Array.prototype.slice.call(document.querySelectorAll("main h1"));
      var closed = document.querySelectorAll("main details:not([open])").length;
      if (closed) lines.push("0 closed-details " + closed + " <details> block(s) closed: not printed");
    }
    var seen = {};
    document.querySelectorAll("main img").forEach(function (img) {
      // mdBook 0.5 repeats each picture, hidden, for its click-to-zoom view.
      var src = img.getAttribute("src") || "";
      if (seen[src]) return;
      var broken = !img.complete || img.naturalWidth === 0;
      if (!shown(img) && (!broken || img.closest("details:not([open])"))) return;
      seen[src] = true;
      if (broken) {
        lines.push(where(img) + "broken-picture " + src);
      } else if (img.naturalWidth > img.clientWidth * 1.1) {
        lines.push(where(img) + "shrunk-picture " + src + " shown at " +
          Math.round(100 * img.clientWidth / img.naturalWidth) + "% of " +
          img.naturalWidth + "x" + img.naturalHeight);
      }
    });
    document.querySelectorAll("main pre > code").forEach(function (c) {
      if (!shown(c)) return;
      // In print, mdBook wraps code (pre-wrap): measure it unwrapped.
      var wraps = getComputedStyle(c).whiteSpace !== "pre";
      var before = c.style.whiteSpace;
      c.style.whiteSpace = "pre";
      var hidden = c.scrollWidth - c.clientWidth;
      c.style.whiteSpace = before;
      if (hidden > 1) {
        lines.push(where(c) + "wide-code " + hidden + "px " + (wraps ? "wrapped" : "hidden") +
          ", longest line " + longest(c) + " characters: " + label(c));
      }
    });
    document.querySelectorAll("main .table-wrapper").forEach(function (t) {
      if (!shown(t)) return;
      if (t.scrollWidth > t.clientWidth + 1) {
        var heads = Array.prototype.map.call(t.querySelectorAll("th"), function (th) {
          return th.textContent.trim();
        });
        // The first row's first cell tells apart tables with the same heads.
        var first = t.querySelector("tbody td");
        lines.push(where(t) + "wide-table " + (t.scrollWidth - t.clientWidth) + "px hidden, " +
          "first row " + (first ? label(first).slice(0, 20) : "none") + ": " +
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

/// The measuring script for a chapter's page, or for the print page.
fn measure_script(print: bool) -> String {
    MEASURE.replace("XTASK_PRINT", if print { "true" } else { "false" })
}

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

impl Report {
    /// How many code blocks and how many tables are wider than the column.
    pub fn overflow(&self) -> Overflow {
        overflow(self.problems.iter().map(String::as_str))
    }
}

/// Code blocks and tables wider than the column.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Overflow {
    /// Code blocks (`wide-code`).
    pub code: usize,
    /// Tables (`wide-table`).
    pub tables: usize,
}

impl Overflow {
    fn total(self) -> usize {
        self.code + self.tables
    }

    fn add(&mut self, other: Overflow) {
        self.code += other.code;
        self.tables += other.tables;
    }

    fn shown(self) -> String {
        format!("code {:>2}, tables {:>2}", self.code, self.tables)
    }
}

/// Counts the `wide-code` and `wide-table` lines among `problems`.
fn overflow<'a>(problems: impl Iterator<Item = &'a str>) -> Overflow {
    let mut o = Overflow::default();
    for p in problems {
        if p.starts_with("wide-code ") {
            o.code += 1;
        } else if p.starts_with("wide-table ") {
            o.tables += 1;
        }
    }
    o
}

/// `cargo xtask screenshots [--out DIR] [--only NAME] [--check]`.
pub fn run(out: &str, only: Option<&str>, check: bool) -> Result {
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
    devkit::files::copy_dir(&html_dir, &site.0)?;

    let summary_path = root().join(BOOK).join("src").join("SUMMARY.md");
    let summary = std::fs::read_to_string(&summary_path)
        .map_err(|e| format!("{}: {e}", summary_path.display()))?;
    let all = chapters(&summary);
    let pages: Vec<(usize, &Page)> = all
        .iter()
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
    let mut screen: Vec<Option<Overflow>> = vec![None; all.len()];
    for (index, page) in &pages {
        let png = out_dir.join(page.png(*index));
        match shoot(&site.0, page, &png) {
            Ok((height, report)) => {
                println!("{}  {WIDTH}x{height}  {}", shown(&png), page.title);
                // The measuring covered the whole page; the picture did not.
                if let Some(full) = report.height.filter(|&h| h > height) {
                    println!("    the PNG shows the top {height} px of {full} (Chromium's limit)");
                }
                for p in &report.problems {
                    println!("    {p}");
                }
                found += report.problems.len();
                screen[*index] = Some(report.overflow());
            }
            Err(e) => {
                println!("{}  FAILED  {}", shown(&png), page.title);
                failures.push(format!("{}: {e}", page.source));
            }
        }
    }

    let (print_px, how) = print_width(&site.0)?;
    banner(&format!(
        "the print page (print.html, as the PDF prints it): {print_px} px wide ({how}), \
         the print style sheet applied, <details> closed"
    ));
    let mut print: Vec<Option<Overflow>> = vec![None; all.len()];
    match measure_print(&site.0, print_px) {
        Ok(problems) => {
            let selected = |n: usize| n == 0 || pages.iter().any(|(i, _)| *i + 1 == n);
            for (n, p) in problems.iter().filter(|(n, _)| selected(*n)) {
                let title = n
                    .checked_sub(1)
                    .and_then(|i| all.get(i))
                    .map_or("the whole print page", |p| p.title.as_str());
                println!("{title}: {p}");
                if p.starts_with("print-emulation-failed") {
                    failures.push(format!("print.html: {p}"));
                }
            }
            found += problems.iter().filter(|(n, _)| selected(*n)).count();
            for (i, _) in &pages {
                print[*i] = Some(overflow(
                    problems
                        .iter()
                        .filter(|(n, _)| *n == *i + 1)
                        .map(|(_, p)| p.as_str()),
                ));
            }
        }
        Err(e) => failures.push(format!("print.html: {e}")),
    }

    println!();
    println!(
        "{} screenshot(s) in {}; {found} problem(s) named above",
        pages.len() - failures.len(),
        shown(&out_dir)
    );
    let totals = overflow_table(&all, &screen, &print, print_px);
    let total = totals.0.total() + totals.1.total();
    if !failures.is_empty() {
        return Err(format!(
            "some pages could not be measured:\n  {}",
            failures.join("\n  ")
        ));
    }
    if check && total > 0 {
        return Err(format!(
            "{total} code block(s) and table(s) wider than the column (on screen: {}; in print: {})",
            totals.0.shown(),
            totals.1.shown()
        ));
    }
    Ok(())
}

/// Prints, per page measured, its code blocks and tables wider than the
/// column on screen and in print, and the totals; returns the totals.
fn overflow_table(
    pages: &[Page],
    screen: &[Option<Overflow>],
    print: &[Option<Overflow>],
    print_px: u32,
) -> (Overflow, Overflow) {
    let width = pages
        .iter()
        .map(|p| p.title.chars().count())
        .max()
        .unwrap_or(4);
    let cell = |o: Option<Overflow>| o.map_or("not measured".to_string(), Overflow::shown);
    println!();
    println!("code blocks and tables wider than the column:");
    let screen_head = format!("screen ({WIDTH} px)");
    println!(
        "{:width$}  {screen_head:<18}  print ({print_px} px)",
        "page"
    );
    let (mut s, mut p) = (Overflow::default(), Overflow::default());
    for (i, page) in pages.iter().enumerate() {
        if screen[i].is_none() && print[i].is_none() {
            continue;
        }
        s.add(screen[i].unwrap_or_default());
        p.add(print[i].unwrap_or_default());
        println!(
            "{:width$}  {:<18}  {}",
            page.title,
            cell(screen[i]),
            cell(print[i])
        );
    }
    println!("{:width$}  {:<18}  {}", "total", s.shown(), p.shown());
    (s, p)
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

    let dom = chromium(&[
        VIRTUAL_TIME,
        &format!("--window-size={WIDTH},800"),
        "--dump-dom",
        &url,
    ])?;
    let report = parse_report(&dom);
    let height = report
        .height
        .map(|h| h.clamp(600, MAX_HEIGHT))
        .unwrap_or(FALLBACK_HEIGHT);

    let _ = std::fs::remove_file(png);
    let size = format!("--window-size={WIDTH},{height}");
    let target = format!("--screenshot={}", png.display());
    let args = [VIRTUAL_TIME, size.as_str(), target.as_str(), url.as_str()];
    let mut said = chromium(&args)?;
    if !png.exists() {
        // Seen once in a while on a loaded machine: exit 0 and no file.
        said = chromium(&args)?;
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

/// Measures the copy of `print.html` in a window `width` px wide, with the
/// print style sheet applied: each problem with its chapter's number (1 for
/// the first page of `SUMMARY.md`; 0 for the print page as a whole).
fn measure_print(site: &Path, width: u32) -> Result<Vec<(usize, String)>> {
    let file = site.join("print.html");
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    std::fs::write(&file, prepare_print(&text)).map_err(|e| format!("{}: {e}", file.display()))?;
    let dom = chromium(&[
        VIRTUAL_TIME,
        // The style sheets are files too: their rules may be read (and
        // their media queries swapped) only with this.
        "--allow-file-access-from-files",
        &format!("--window-size={width},1000"),
        "--dump-dom",
        &file_url(&file),
    ])?;
    let report = parse_report(&dom);
    if report.height.is_none() {
        return Err("the measuring script left no report".to_string());
    }
    Ok(report
        .problems
        .iter()
        .map(|line| match line.split_once(' ') {
            Some((n, rest)) if n.parse::<usize>().is_ok() => {
                (n.parse().unwrap_or_default(), rest.to_string())
            }
            _ => (0, line.clone()),
        })
        .collect())
}

/// The printed page's column in CSS pixels, and how it was found: a probe
/// page whose media queries show its own width is printed to PDF as
/// `cargo xtask bundle` prints the book (same flags, so same paper and
/// margins), and `pdftotext` reads the widest query that matched. Without
/// `pdftotext`, [`ASSUMED_PRINT_WIDTH`], said so.
fn print_width(site: &Path) -> Result<(u32, String)> {
    let (lo, hi) = (300, 1500);
    let mut page = String::from("<!DOCTYPE html><html><head><style>\nspan{display:none}\n");
    for w in lo..=hi {
        page += &format!("@media print and (min-width: {w}px) {{ #w{w} {{ display: inline }} }}\n");
    }
    page += "</style></head><body>";
    for w in lo..=hi {
        page += &format!("<span id=\"w{w}\">W{w} </span>");
    }
    page += "</body></html>\n";
    let html = site.join("xtask-print-width.html");
    let pdf = site.join("xtask-print-width.pdf");
    std::fs::write(&html, page).map_err(|e| format!("{}: {e}", html.display()))?;
    chromium(&[
        "--no-pdf-header-footer",
        &format!("--print-to-pdf={}", pdf.display()),
        &file_url(&html),
    ])?;
    let assumed = |why: &str| (ASSUMED_PRINT_WIDTH, format!("assumed: {why}"));
    let Ok(text) = Cmd::new("pdftotext", &[&pdf.to_string_lossy(), "-"]).read() else {
        return Ok(assumed(
            "pdftotext (poppler-utils) could not read the probe",
        ));
    };
    let widest = text
        .split_whitespace()
        .filter_map(|w| w.strip_prefix('W')?.parse::<u32>().ok())
        .max();
    Ok(match widest {
        Some(w) if w < hi => (w, "measured: a probe printed to PDF".to_string()),
        _ => assumed("the printed probe showed no width"),
    })
}

/// Lets Chromium's scripts run for a while before it dumps or shoots a page.
/// Not for printing to PDF: Debian's Chromium then exits 0 and writes no PDF
/// (see `bundle.rs`).
const VIRTUAL_TIME: &str = "--virtual-time-budget=3000";

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
    before_body_end(out, &measure_script(false))
}

/// The print page's copy: the measuring script, for print, and no print
/// dialog (mdBook's print page calls `window.print()` once loaded).
pub fn prepare_print(html: &str) -> String {
    let script = format!(
        "<script>window.print = function () {{}};</script>\n{}",
        measure_script(true)
    );
    before_body_end(html.to_string(), &script)
}

/// `html` with `script` inserted before its `</body>` (or at its end).
fn before_body_end(mut html: String, script: &str) -> String {
    match html.rfind("</body>") {
        Some(at) => html.insert_str(at, script),
        None => html.push_str(script),
    }
    html
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
        assert!(out.ends_with(&format!("{}</body>", measure_script(false))));
        assert!(out.contains("var PRINT = false;"));
        let print = prepare_print(html);
        assert!(
            print.contains("<details><summary>"),
            "print keeps them closed"
        );
        assert!(print.contains("var PRINT = true;"));
        assert!(print.contains("window.print = function () {};"));
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

    #[test]
    fn counts_code_and_tables_wider_than_the_column() {
        let report = Report {
            height: Some(100),
            problems: [
                "wide-code 62px hidden, longest line 110 characters: cargo test",
                "wide-code 9px wrapped, longest line 101 characters: fn x",
                "wide-table 12px hidden, first row t1: Exercise | Skeleton",
                "shrunk-picture diagrams/x.svg shown at 87% of 860x660",
                "closed-details 3 <details> block(s) closed: not printed",
            ]
            .map(String::from)
            .to_vec(),
        };
        assert_eq!(report.overflow(), Overflow { code: 2, tables: 1 });
        assert_eq!(report.overflow().total(), 3);
        assert_eq!(Report::default().overflow().total(), 0);
    }
}
