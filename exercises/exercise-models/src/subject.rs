//! Which version a model runs on: the grader's choice, read from the
//! environment of the model's process, never from the model.

/// The variable `cargo xtask model-check` sets for each run.
const VAR: &str = "EXERCISE_MODEL_SUBJECT";

/// The two versions of an exercise's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Subject {
    /// The version with the race.
    Racy,
    /// The version without it.
    Fixed,
}

/// The version this process runs on.
///
/// # Panics
/// Unless `EXERCISE_MODEL_SUBJECT` is `racy` or `fixed`: a model run any
/// other way could not be judged, so it stops at once and says how to run
/// it.
pub(crate) fn subject() -> Subject {
    match std::env::var(VAR).as_deref() {
        Ok("racy") => Subject::Racy,
        Ok("fixed") => Subject::Fixed,
        other => panic!(
            "{VAR} is {other:?}: run a model with `cargo xtask model-check <name>`, which runs \
             it once with {VAR}=racy and once with {VAR}=fixed"
        ),
    }
}
