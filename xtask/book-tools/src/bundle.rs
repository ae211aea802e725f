//! `cargo xtask bundle [--check]`: the classroom bundle, for a lab with no
//! internet. One directory, packed as `target/bundle/timers-from-scratch.tar.gz`:
//!
//! - the workspace as git tracks it, with its `Cargo.lock`;
//! - `vendor/`: every dependency's source, from `cargo vendor`, and a
//!   `.cargo/config.toml` that points cargo at it, so `cargo build
//!   --offline` and `cargo test --offline` need no network;
//! - `book-html/`: the built book, which opens from disk
//!   (`book-html/index.html`),
//!   no server needed, and which `cargo xtask serve` serves there when
//!   mdBook is not installed;
//! - `book.pdf`: the book's print page, printed by headless Chromium; left
//!   out, with a message saying so, with `--no-pdf` or where Chromium is
//!   missing and cannot be installed;
//! - `README.md`: the workspace's, under a first section that says what
//!   the bundle is, what to open and what to run.
//!
//! `--check` then proves it: it unpacks the archive into an empty
//! directory and runs `cargo test --workspace --offline` there with an
//! empty `CARGO_HOME`, so nothing can come from the registry cache either;
//! then it starts the bundle's `cargo xtask serve` with no mdBook on the
//! `PATH` and fetches the book's first page from it.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::cmd::{Cmd, Result, banner, root};
use devkit::files;

/// The bundle's name: its directory and its archive.
const NAME: &str = "timers-from-scratch";

/// Headless Chromium, as `cargo xtask screenshots` uses it.
const CHROMIUM: &str = "/usr/bin/chromium";

/// The built book's directory in the bundle, from its top.
pub const BOOK_HTML: &str = "book-html";

/// The book's PDF in the bundle, from its top.
const PDF: &str = "book.pdf";

fn bundle_dir() -> PathBuf {
    root().join("target/bundle")
}

/// Builds the bundle, with the book's PDF unless `pdf` is false; with
/// `check`, unpacks it and runs its tests, and its `serve`, offline.
pub fn run(check: bool, pdf: bool) -> Result<String> {
    let out = bundle_dir();
    let dir = out.join(NAME);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;

    banner("the bundle: the workspace, as git tracks it");
    let files = Cmd::new("git", &["ls-files", "-z"]).read()?;
    let mut copied = 0;
    for file in files.split('\0').filter(|f| !f.is_empty()) {
        let from = root().join(file);
        if !from.is_file() {
            continue; // deleted in the work tree, not yet committed
        }
        files::copy_file(&from, &dir.join(file))?;
        copied += 1;
    }
    println!("{copied} files");

    banner("the bundle: every dependency's source (cargo vendor)");
    let manifest = dir.join("Cargo.toml");
    let config = Cmd::cargo(&[
        "vendor",
        "--locked",
        "--versioned-dirs",
        "--manifest-path",
        &manifest.to_string_lossy(),
        &dir.join("vendor").to_string_lossy(),
    ])
    .read()?;
    // Keep the workspace's own settings (the `xtask` alias) and add the
    // source replacement cargo vendor printed, with a path relative to the
    // bundle, so it works wherever the bundle is unpacked.
    let cargo_config = dir.join(".cargo/config.toml");
    let mut text = std::fs::read_to_string(&cargo_config).unwrap_or_default();
    text.push_str("\n# The classroom bundle: every dependency from vendor/, no network.\n");
    text.push_str(&config.replace(&dir.join("vendor").to_string_lossy().to_string(), "vendor"));
    std::fs::write(&cargo_config, text).map_err(|e| format!("{}: {e}", cargo_config.display()))?;

    banner("the bundle: the built book, and its PDF");
    crate::book::build()?;
    let html = root().join("book/book/html");
    files::copy_dir(&html, &dir.join(BOOK_HTML))?;
    let no_pdf = if pdf {
        pdf_or_why_not(&html.join("print.html"), &dir.join(PDF))?
    } else {
        Some("`--no-pdf` was given".to_owned())
    };
    if let Some(why) = &no_pdf {
        println!(
            "no PDF in the bundle: {why}. The bundle is complete without it: the book is in \
             {BOOK_HTML}/, and its print page ({BOOK_HTML}/print.html) prints to PDF from any \
             browser."
        );
    }
    write_readme(&dir, no_pdf.as_deref())?;

    banner("the bundle: packing it");
    let archive = out.join(format!("{NAME}.tar.gz"));
    Cmd::new(
        "tar",
        &[
            "-czf",
            &archive.to_string_lossy(),
            "-C",
            &out.to_string_lossy(),
            NAME,
        ],
    )
    .run()?;
    let size = std::fs::metadata(&archive).map(|m| m.len()).unwrap_or(0);
    println!("{} ({} MB)", archive.display(), size / 1_000_000);
    let mut note = format!(
        "{copied} files, vendored, the book{}: {} MB",
        if no_pdf.is_none() {
            " and its PDF"
        } else {
            " (no PDF)"
        },
        size / 1_000_000
    );
    if check {
        note += &format!("; {}", check_offline(&archive)?);
    }
    Ok(note)
}

/// Unpacks the archive into an empty directory and runs the workspace's
/// tests there, offline, with an empty `CARGO_HOME`.
fn check_offline(archive: &Path) -> Result<String> {
    banner("the bundle, unpacked in an empty directory: cargo test --workspace --offline");
    let scratch = bundle_dir().join("check");
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    }
    let home = scratch.join("cargo-home");
    std::fs::create_dir_all(&home).map_err(|e| format!("{}: {e}", home.display()))?;
    Cmd::new(
        "tar",
        &[
            "-xzf",
            &archive.to_string_lossy(),
            "-C",
            &scratch.to_string_lossy(),
        ],
    )
    .run()?;
    let unpacked = scratch.join(NAME);
    // The toolchain still comes from rustup's own home, which a lab machine
    // has installed; only cargo's registry home is emptied.
    offline(
        Cmd::cargo(&["test", "--workspace", "--offline"]),
        &unpacked,
        &home,
    )
    .run()?;
    let book = unpacked.join(BOOK_HTML).join("index.html");
    if !book.is_file() {
        return Err(format!("{}: the built book is missing", book.display()));
    }
    check_serve(&unpacked, &home)?;
    Ok(
        "unpacked, it passed cargo test --workspace --offline with an empty CARGO_HOME, and \
         its cargo xtask serve served the built book with no mdBook and no network"
            .to_owned(),
    )
}

/// `cargo` run in the unpacked bundle as a lab machine runs it: cargo's
/// home empty (`home`), no network, the bundle's own target directory.
fn offline(cargo: Cmd, unpacked: &Path, home: &Path) -> Cmd {
    cargo
        .dir(unpacked)
        .env("CARGO_HOME", &home.to_string_lossy())
        .env("CARGO_NET_OFFLINE", "true")
        .env(
            "CARGO_TARGET_DIR",
            &unpacked.join("target").to_string_lossy(),
        )
}

/// How long the bundle's `serve` may take to answer its first request.
const SERVE_WITHIN: Duration = Duration::from_secs(60);

/// Starts the unpacked bundle's `cargo xtask serve` as a lab machine would
/// run it (no mdBook on the `PATH`, an empty `CARGO_HOME`, no network),
/// fetches the book's first page from it, and stops it.
fn check_serve(unpacked: &Path, home: &Path) -> Result {
    banner("the bundle's cargo xtask serve, with no mdBook and no network");
    offline(
        Cmd::cargo(&["build", "--offline", "-p", "xtask"]),
        unpacked,
        home,
    )
    .run()?;
    // A free port: bound, read and let go (no other program here takes it
    // in between).
    let port = TcpListener::bind(("127.0.0.1", 0))
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("no free port: {e}"))?
        .port();
    let log_path = unpacked.join("serve.log");
    let log =
        std::fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let err = log.try_clone().map_err(|e| e.to_string())?;
    let mut server = std::process::Command::new(unpacked.join("target/debug/xtask"))
        .args(["serve", "--no-open", "--port", &port.to_string()])
        .current_dir(unpacked)
        .env("PATH", "/usr/bin:/bin")
        .env("CARGO_HOME", home)
        .env("CARGO_NET_OFFLINE", "true")
        .stdout(log)
        .stderr(err)
        .spawn()
        .map_err(|e| format!("starting the bundle's xtask serve: {e}"))?;
    let page = fetch_within(port, "/index.html", SERVE_WITHIN);
    // Stopped whatever the answer: it is our child, and serves until killed.
    let _ = server.kill();
    let _ = server.wait();
    let said = std::fs::read_to_string(&log_path).unwrap_or_default();
    match page {
        Some(page) if page.starts_with("HTTP/1.1 200") && page.contains("Timers from Scratch") => {
            println!("the bundle's serve answered GET /index.html with the book's first page");
            Ok(())
        }
        Some(page) => Err(format!(
            "the bundle's serve answered GET /index.html with:\n{}\nIt said:\n{said}",
            page.lines().take(5).collect::<Vec<_>>().join("\n")
        )),
        None => Err(format!(
            "the bundle's serve did not answer on port {port} within {} s. It said:\n{said}",
            SERVE_WITHIN.as_secs()
        )),
    }
}

/// GETs `path` from localhost:`port`, trying again until it answers or
/// `within` has passed.
fn fetch_within(port: u16, path: &str, within: Duration) -> Option<String> {
    let deadline = Instant::now() + within;
    loop {
        if let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) {
            let mut text = String::new();
            let asked = write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n");
            if asked.is_ok() && stream.read_to_string(&mut text).is_ok() && !text.is_empty() {
                return Some(text);
            }
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Puts a first section on the bundle's `README.md`: what the bundle is,
/// what to open and what to run, with no network.
fn write_readme(dir: &Path, no_pdf: Option<&str>) -> Result {
    let readme = dir.join("README.md");
    let project = std::fs::read_to_string(&readme).unwrap_or_default();
    let commit = Cmd::new("git", &["rev-parse", "--short", "HEAD"])
        .read()
        .map(|c| c.trim().to_owned())
        .unwrap_or_else(|_| "?".to_owned());
    let pdf = match no_pdf {
        None => format!(", or `{PDF}`, the same book to print"),
        Some(_) => format!(
            "; this bundle has no PDF (print `{BOOK_HTML}/print.html` from a browser for one)"
        ),
    };
    let text = format!(
        "# The offline bundle\n\
         \n\
         This directory is the classroom bundle of the workspace, packed by `cargo xtask \
         bundle` from commit {commit}. Everything it needs is inside it; nothing here needs \
         the network.\n\
         \n\
         - **The book**: open `{BOOK_HTML}/index.html` in a browser, straight from disk{pdf}. \
         `cargo xtask serve` serves the same built book at <http://localhost:3000> on a machine \
         without mdBook.\n\
         - **The code**: every dependency's source is in `vendor/`, and `.cargo/config.toml` \
         points cargo at it. `cargo test -p naive` runs the first stage's tests (the first \
         build compiles the workspace: a few minutes); add `--offline` to be sure cargo never \
         looks for a network.\n\
         - **The exercises**: `cargo xtask exercise list`, then `cargo xtask exercise start n1` \
         and `cargo xtask exercise check n1`. The book's page *Exercises* says the rest.\n\
         - **Teachers**: the book's page *For teachers* (`{BOOK_HTML}/teachers.html`).\n\
         \n\
         Only what installs a tool needs the network, and so does not work here: `cargo xtask \
         book` and `cargo xtask tools` (mdBook and its link checker).\n\
         \n\
         The project's own README follows.\n\
         \n\
         ---\n\
         \n\
         {project}"
    );
    std::fs::write(&readme, text).map_err(|e| format!("{}: {e}", readme.display()))
}

/// Prints the book's PDF, or says why there is none: `None` when it is
/// printed, the reason otherwise. Chromium missing, and not installable
/// (no network, no root), is a reason, not a failure; Chromium present
/// and failing to print is a failure.
fn pdf_or_why_not(page: &Path, pdf: &Path) -> Result<Option<String>> {
    if !Path::new(CHROMIUM).exists() {
        println!("{CHROMIUM} is missing: installing Debian's chromium to print the PDF");
        if let Err(e) = crate::cmd::apt_install(&["chromium"]) {
            return Ok(Some(format!(
                "{CHROMIUM} is missing and could not be installed ({}); install it and run \
                 `cargo xtask bundle` again for a PDF, or pass `--no-pdf` to go without",
                e.lines().next().unwrap_or("")
            )));
        }
    }
    print_pdf(page, pdf)?;
    Ok(None)
}

/// Prints mdBook's print page to a PDF with headless Chromium.
fn print_pdf(page: &Path, pdf: &Path) -> Result {
    let run = Cmd::new(
        CHROMIUM,
        &[
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-pdf-header-footer",
            // No --virtual-time-budget: Debian's Chromium 156 exits 0 with
            // it and writes no PDF. Without it the print page's scripts
            // (highlighting, layout) still run before printing: the pages
            // were looked at.
            &format!("--print-to-pdf={}", pdf.display()),
            &format!("file://{}", page.display()),
        ],
    )
    .capture(Duration::from_secs(300))?;
    if !run.passed() || !pdf.is_file() {
        return Err(format!(
            "printing the PDF failed ({}):\n{}",
            run.how(),
            run.output
        ));
    }
    Ok(())
}
