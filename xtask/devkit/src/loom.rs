//! How the loom models are built: in a target directory of their own, with
//! `--cfg loom` added to the caller's flags.

/// Where the loom builds go, apart from the normal ones so neither
/// invalidates the other: `loom/` in cargo's target directory.
pub fn target_dir() -> String {
    crate::cmd::target_dir().join("loom").display().to_string()
}

/// `RUSTFLAGS` with `--cfg loom` added to whatever the caller already set.
pub fn rustflags() -> String {
    match std::env::var("RUSTFLAGS") {
        Ok(flags) if !flags.trim().is_empty() => format!("{flags} --cfg loom"),
        _ => "--cfg loom".to_string(),
    }
}
