//! The test kit, as a catch-it's or find-it's test sees it under the name
//! `kit`: everything the stages' tests use, but the pause points.
//!
//! A pause point is named after the file it sits in
//! (`condvar-timer::racy: took the head, not yet waiting`), so a test that
//! could arm one by name could ask which version runs ("is the thread held
//! at the racy file's point?") instead of watching what the timer does. A
//! test holds a thread through its exercise's API instead
//! (`exercises::catch::c1::{Pause, WINDOW}`), whose points have one name in
//! every version.

pub use kit::{Recorder, cpu, eventually, gate, ms, recorder, scale, threads, timeline, wait};

/// No pause point is reachable from here: a test that tries to arm one by
/// name does not compile.
///
/// ```compile_fail
/// let _held = exercise_kit::pause::Pause::arm(
///     "condvar-timer::racy: took the head, not yet waiting",
///     "catch-c1",
/// );
/// ```
///
/// ```compile_fail
/// exercise_kit::pause_point("anything");
/// ```
pub const NO_PAUSE_POINTS: () = ();
