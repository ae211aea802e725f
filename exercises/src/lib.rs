//! Exercises of their own, one per module, each a timer (or a piece of one)
//! for you to fix. Nothing here touches the lessons' crates: the stages stay
//! as the book shows them.
//!
//! The workflow, one command each (`cargo xtask exercise` lists them):
//!
//! ```text
//! cargo xtask exercise list              every exercise, done or not yet
//! cargo xtask exercise start c4          copies the skeleton to exercises/mine/c4_one_lock.rs
//! cargo xtask exercise check c4          runs the stage's checks against your file
//! cargo xtask exercise hint c4           the next hint (the book has them all)
//! cargo xtask exercise solution c4       the stage's fixed version, to compare
//! cargo xtask exercise reset c4          your file back to the skeleton
//! ```
//!
//! Each module is your copy in `exercises/mine/` once you have started the
//! exercise, and the untouched skeleton in `exercises/skeletons/` until then
//! (the build script decides; see `build.rs`).

include!(concat!(env!("OUT_DIR"), "/exercises.rs"));

pub mod solutions;
