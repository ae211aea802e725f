//! The grader's proof for `p3_model_cancel_notify_race`, both ways: its
//! skeleton, its reference model and its wrong models, one module each, every
//! one a `model` test. `cargo xtask model-check --verify` runs each alone
//! (`--exact <module>::model`), once on the racy version and once on the
//! fixed one, each in its own process, and checks the grader's verdict on it:
//! the reference accepted, every other rejected for its own reason.
#![cfg(loom)]

#[path = "../skeletons/p3_model_cancel_notify_race.rs"]
mod skeleton;

#[path = "../references/p3_model_cancel_notify_race.rs"]
mod reference;

#[path = "../wrong/p3_model_cancel_notify_race/cancels_idle.rs"]
mod cancels_idle;

#[path = "../wrong/p3_model_cancel_notify_race/fails_always.rs"]
mod fails_always;

#[path = "../wrong/p3_model_cancel_notify_race/waits_for_far.rs"]
mod waits_for_far;
