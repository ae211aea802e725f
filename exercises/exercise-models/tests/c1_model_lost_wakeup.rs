//! The grader's proof for `c1_model_lost_wakeup`, both ways: its skeleton,
//! its reference model and its wrong models, one module each, every one a
//! `model` test. `cargo xtask model-check --verify` runs each alone (`--exact
//! <module>::model`), once on the racy version and once on the fixed one,
//! each in its own process, and checks the grader's verdict on it: the
//! reference accepted, every other rejected for its own reason.
#![cfg(loom)]

#[path = "../skeletons/c1_model_lost_wakeup.rs"]
mod skeleton;

#[path = "../references/c1_model_lost_wakeup.rs"]
mod reference;

#[path = "../wrong/c1_model_lost_wakeup/asserts_nothing.rs"]
mod asserts_nothing;

#[path = "../wrong/c1_model_lost_wakeup/fails_always.rs"]
mod fails_always;

#[path = "../wrong/c1_model_lost_wakeup/no_waiting_task.rs"]
mod no_waiting_task;

#[path = "../wrong/c1_model_lost_wakeup/reads_subject.rs"]
mod reads_subject;

#[path = "../wrong/c1_model_lost_wakeup/reads_subject_aliased.rs"]
mod reads_subject_aliased;

#[path = "../wrong/c1_model_lost_wakeup/cuts_executions_short.rs"]
mod cuts_executions_short;

#[path = "../wrong/c1_model_lost_wakeup/sets_its_own_bound.rs"]
mod sets_its_own_bound;

#[path = "../wrong/c1_model_lost_wakeup/waits_for_far.rs"]
mod waits_for_far;
