//! The model a student asked to have checked: `cargo xtask model-check
//! <name> [--file F]` builds this target with `EXERCISE_MODEL_FILE` set to
//! the model's path (the build script turns it into a module `student`),
//! then runs `student::model` once on the racy version and once on the
//! fixed one, each in its own process.
#![cfg(loom)]

include!(concat!(env!("OUT_DIR"), "/student.rs"));
