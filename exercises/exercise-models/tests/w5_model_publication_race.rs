//! The grader's proof for `w5_model_publication_race`, both ways: its
//! skeleton, its reference model and its wrong models, one module each, every
//! one a `model` test. `cargo xtask model-check --verify` runs each alone
//! (`--exact <module>::model`), once on the racy version and once on the
//! fixed one, each in its own process, and checks the grader's verdict on it:
//! the reference accepted, every other rejected for its own reason.
#![cfg(loom)]

#[path = "../skeletons/w5_model_publication_race.rs"]
mod skeleton;

#[path = "../references/w5_model_publication_race.rs"]
mod reference;

#[path = "../wrong/w5_model_publication_race/asserts_nothing.rs"]
mod asserts_nothing;

#[path = "../wrong/w5_model_publication_race/drains_after_join.rs"]
mod drains_after_join;

#[path = "../wrong/w5_model_publication_race/fails_always.rs"]
mod fails_always;
