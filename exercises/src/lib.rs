//! Exercises of their own. A fix-it exercise is a module here, a timer (or
//! a piece of one) for you to fix; a catch-it exercise is a test you write
//! against [`catch`], a timer with a named bug behind an API that hides
//! which version runs. Nothing here touches the lessons' crates: the stages
//! stay as the book shows them.
//!
//! The workflow, one command each (`cargo xtask exercise` lists them):
//!
//! ```text
//! cargo xtask exercise list              every exercise by chapter and kind, done or not yet
//! cargo xtask exercise start c4          copies the skeleton to exercises/mine/c4_one_lock.rs
//! cargo xtask exercise check c4          runs the stage's checks against your file
//! cargo xtask exercise hint c4           the next hint (the book has them all)
//! cargo xtask exercise solution c4       the stage's fixed version, to compare
//! cargo xtask exercise reset c4          your file back to the skeleton (the last one kept)
//! ```
//!
//! A fix-it module is the untouched skeleton in `exercises/skeletons/`,
//! except under the check of that one exercise, which compiles your copy in
//! `exercises/mine/` (the build script decides; see `build.rs`): a
//! half-written file breaks its own check and nothing else.

include!(concat!(env!("OUT_DIR"), "/exercises.rs"));

#[cfg(feature = "check")]
pub mod catch;
#[cfg(feature = "check")]
pub mod find;
/// The exercises' list, shared with the build scripts and `cargo xtask`:
/// here for the grader's record prefix.
#[allow(dead_code, unreachable_pub)]
mod list {
    include!("../list.rs");
}
pub mod solutions;
