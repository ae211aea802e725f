//! The course runner: what a student types (`cargo xtask exercise list`,
//! `start`, `check`, `watch`, `hint`, `solution`, `reset`), what a teacher
//! types (`exercise grade DIR`), and CI's proof that every exercise and its
//! grader work both ways (`exercise verify`, `model-check --verify`).
//! `cargo xtask` forwards those commands here, as rustlings' runner is its
//! own program. Its files, in reading order:
//!
//! - [`exercise`]: the commands, the list (`exercises/list.rs`), the fix-it
//!   checks, progress;
//! - `exercise/catch.rs`: catch-its and find-its, built once per version of
//!   the timer, checked and verified;
//! - `exercise/grade.rs`: the grader itself, the verdicts, the runs (loaded,
//!   shaken, from paths that say nothing of the version);
//! - `exercise/class.rs`: a class graded in one table, with a teacher's own
//!   chaffs;
//! - `exercise/source.rs`: what a student's file is read for, with `syn`;
//! - [`model_check`]: the model-it exercises, loom models graded on the
//!   racy and the fixed version.

pub mod exercise;
pub mod model_check;

pub(crate) use devkit::{cargo, cmd};

/// The helpers the runner shares with the project's automation, under the
/// names the runner's files use.
pub(crate) mod ftf {
    pub use devkit::libtest::{last_lines, panic_messages, red};
}

/// Load for the grader's runs under load.
pub(crate) mod audit {
    pub use devkit::load::under_load;
}

/// loom's build settings.
pub(crate) mod loom {
    pub use devkit::loom::{rustflags, target_dir};
}
