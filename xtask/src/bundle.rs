//! `cargo xtask bundle [--check]`: the classroom bundle, for a lab with no
//! internet. One directory, packed as `target/bundle/timers-from-scratch.tar.gz`:
//!
//! - the workspace as git tracks it, with its `Cargo.lock`;
//! - `vendor/`: every dependency's source, from `cargo vendor`, and a
//!   `.cargo/config.toml` that points cargo at it, so `cargo build
//!   --offline` and `cargo test --offline` need no network;
//! - `book-html/`: the built book, which opens from disk
//!   (`book-html/index.html`),
//!   no server needed;
//! - `book.pdf`: the book's print page, printed by headless Chromium.
//!
//! `--check` then proves it: it unpacks the archive into an empty
//! directory and runs `cargo test --workspace --offline` there with an
//! empty `CARGO_HOME`, so nothing can come from the registry cache either.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cmd::{Cmd, Result, banner, root};

/// The bundle's name: its directory and its archive.
const NAME: &str = "timers-from-scratch";

/// Headless Chromium, as `cargo xtask screenshots` uses it.
const CHROMIUM: &str = "/usr/bin/chromium";

fn bundle_dir() -> PathBuf {
    root().join("target/bundle")
}

/// Builds the bundle; with `check`, unpacks it and runs its tests offline.
pub fn run(check: bool) -> Result<String> {
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
        let to = dir.join(file);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::copy(&from, &to).map_err(|e| format!("{file}: {e}"))?;
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
    crate::screenshots::copy_dir(&html, &dir.join("book-html"))?;
    let pdf = dir.join("book.pdf");
    print_pdf(&html.join("print.html"), &pdf)?;

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
        "{copied} files, vendored, the book and its PDF: {} MB",
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
    Cmd::cargo(&["test", "--workspace", "--offline"])
        .dir(&unpacked)
        .env("CARGO_HOME", &home.to_string_lossy())
        .env("CARGO_NET_OFFLINE", "true")
        .env(
            "CARGO_TARGET_DIR",
            &unpacked.join("target").to_string_lossy(),
        )
        .run()?;
    let book = unpacked.join("book-html/index.html");
    if !book.is_file() {
        return Err(format!("{}: the built book is missing", book.display()));
    }
    Ok("unpacked, it passed cargo test --workspace --offline with an empty CARGO_HOME".to_owned())
}

/// Prints mdBook's print page to a PDF with headless Chromium.
fn print_pdf(page: &Path, pdf: &Path) -> Result {
    if !Path::new(CHROMIUM).exists() {
        println!("{CHROMIUM} is missing: installing Debian's chromium to print the PDF");
        crate::cmd::apt_install(&["chromium"])?;
    }
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
