//! The grader's proof for `t7_model_execute_shutdown_race`, both ways: its
//! skeleton, its reference model and its wrong models, one module each, every
//! one a `model` test. `cargo xtask model-check --verify` runs each alone
//! (`--exact <module>::model`), once on the racy version and once on the
//! fixed one, each in its own process, and checks the grader's verdict on it:
//! the reference accepted, every other rejected for its own reason.
#![cfg(loom)]

#[path = "../skeletons/t7_model_execute_shutdown_race.rs"]
mod skeleton;

#[path = "../references/t7_model_execute_shutdown_race.rs"]
mod reference;

#[path = "../wrong/t7_model_execute_shutdown_race/asserts_nothing.rs"]
mod asserts_nothing;

#[path = "../wrong/t7_model_execute_shutdown_race/fails_always.rs"]
mod fails_always;

#[path = "../wrong/t7_model_execute_shutdown_race/no_worker_yet.rs"]
mod no_worker_yet;

#[path = "../wrong/t7_model_execute_shutdown_race/waits_for_timeout.rs"]
mod waits_for_timeout;
