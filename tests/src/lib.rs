//! The cross-stage suite: one battery of scenarios, run against every
//! version of the timer the stages build, and the progression matrix it
//! produces: which version shows which bug.
//!
//! The battery lives in this crate's integration tests (`tests/matrix.rs`
//! and `tests/battery/`), because it forces races with pause points, which
//! exist only in test builds. Run it with:
//!
//! ```text
//! cargo test -p progression --test matrix -- --nocapture
//! ```
//!
//! The matrix is an insta snapshot (`tests/snapshots/matrix__matrix.snap`);
//! the book's closing chapter includes that file, so the table a student
//! reads is the table the code produced.
//!
//! Adding a stage: write an adapter for its timer in
//! `tests/battery/versions.rs` and add it to `versions()`; then
//! `cargo insta review` (or `INSTA_UPDATE=always`) to accept the new row.
//! A finished version that implements stage 6's executor trait needs no
//! adapter of its own: it implements [`finished::Finished`] (a delay, a
//! cancel, what a handle says), and the battery's `AsTimer` and the
//! stress's `UnderStress` drive it through the trait.

pub mod executor;
pub mod finished;
pub mod stress;
