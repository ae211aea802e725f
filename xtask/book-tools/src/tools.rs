//! The book's tools, pinned in one place, installed with `cargo install
//! --locked` into cargo's own bin directory when missing or at another
//! version.

use crate::cmd::{Cmd, Result, banner};
use std::path::PathBuf;

/// A tool the book needs.
pub struct Tool {
    /// The crate (and binary) name.
    pub name: &'static str,
    /// The exact version the book is built with.
    pub version: &'static str,
    /// Why the book needs it, printed when it is installed.
    pub why: &'static str,
}

/// The pinned versions. mdBook 0.5 needs mdbook-linkcheck2 (the older
/// mdbook-linkcheck does not work with it).
pub const TOOLS: &[Tool] = &[
    Tool {
        name: "mdbook",
        version: "0.5.4",
        why: "builds and serves the book (book/)",
    },
    Tool {
        name: "mdbook-linkcheck2",
        version: "0.13.0",
        why: "checks every link of the book at build time ([output.linkcheck2] in book/book.toml)",
    },
];

/// Where `cargo install` puts binaries: `$CARGO_INSTALL_ROOT/bin`,
/// `$CARGO_HOME/bin` or `~/.cargo/bin`.
pub fn cargo_bin_dir() -> PathBuf {
    if let Some(root) = std::env::var_os("CARGO_INSTALL_ROOT") {
        return PathBuf::from(root).join("bin");
    }
    if let Some(home) = std::env::var_os("CARGO_HOME") {
        return PathBuf::from(home).join("bin");
    }
    let home = std::env::var_os("HOME").unwrap_or_default();
    PathBuf::from(home).join(".cargo").join("bin")
}

/// `PATH` with cargo's bin directory first, so the pinned tools are found
/// (mdbook looks its backends up on the `PATH`).
pub fn path_env() -> String {
    let mut dirs = vec![cargo_bin_dir()];
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(dirs)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A command running one of the tools, found on [`path_env`].
pub fn tool(name: &str, args: &[&str]) -> Cmd {
    let installed = cargo_bin_dir().join(name);
    let program = if installed.exists() {
        installed.to_string_lossy().into_owned()
    } else {
        name.to_string()
    };
    Cmd::new(&program, args).env_quiet("PATH", &path_env())
}

/// The version a tool reports (`mdbook v0.5.4` gives `0.5.4`), if it runs.
fn installed_version(name: &str) -> Option<String> {
    let out = std::process::Command::new(cargo_bin_dir().join(name))
        .arg("--version")
        .output()
        .or_else(|_| std::process::Command::new(name).arg("--version").output())
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let word = text.split_whitespace().last()?;
    Some(word.trim_start_matches('v').to_string())
}

/// Installs every tool that is missing or at another version.
pub fn ensure() -> Result {
    TOOLS.iter().try_for_each(install)
}

/// Installs one of [`TOOLS`], by name, if it is missing or at another
/// version (`serve` needs mdBook alone; link checking is for `book`).
pub fn ensure_one(name: &str) -> Result {
    let t = TOOLS
        .iter()
        .find(|t| t.name == name)
        .ok_or_else(|| format!("`{name}` is not one of the book's tools"))?;
    install(t)
}

/// The version of one of [`TOOLS`] the book is built with (`?` for a
/// name that is not one of them).
pub fn version_of(name: &str) -> &'static str {
    TOOLS
        .iter()
        .find(|t| t.name == name)
        .map_or("?", |t| t.version)
}

/// True if the tool runs and reports its pinned version.
pub fn is_current(name: &str) -> bool {
    TOOLS
        .iter()
        .find(|t| t.name == name)
        .is_some_and(|t| installed_version(t.name).as_deref() == Some(t.version))
}

/// Installs one tool with `cargo install --locked` unless it is there at
/// its pinned version.
fn install(t: &Tool) -> Result {
    let found = match installed_version(t.name) {
        Some(v) if v == t.version => {
            println!("{} {} is installed", t.name, t.version);
            return Ok(());
        }
        found => found,
    };
    banner(&format!(
        "installing {} {}: {} (found: {})",
        t.name,
        t.version,
        t.why,
        found.as_deref().unwrap_or("none")
    ));
    println!(
        "into {} (this compiles it once, a few minutes)",
        cargo_bin_dir().display()
    );
    Cmd::cargo(&["install", "--locked", t.name, "--version", t.version]).run()?;
    match installed_version(t.name) {
        Some(v) if v == t.version => Ok(()),
        other => Err(format!(
            "installed {} {} but `{} --version` reports {}",
            t.name,
            t.version,
            t.name,
            other.as_deref().unwrap_or("nothing")
        )),
    }
}
