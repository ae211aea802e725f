//! The catch-it and find-it exercises' tests, as the build script picks
//! them: under `cargo xtask exercise check <exercise>`, your test alone
//! (`<exercise>::mine`); otherwise every such exercise's skeleton, reference
//! test and wrong tests, which CI's `cargo xtask exercise verify` grades.
//!
//! Each test runs against the version `EXERCISE_SIDE` names; the check runs
//! it, one `--exact` run at a time, against both.

include!(concat!(env!("OUT_DIR"), "/catch.rs"));
