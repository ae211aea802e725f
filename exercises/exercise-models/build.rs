//! Puts the student's model into the test target `student`, so that no
//! file is copied and no Cargo file edited to check one.
//!
//! `cargo xtask model-check` sets `EXERCISE_MODEL_FILE` to the model's
//! path; `tests/student.rs` includes what this writes, a module `student`
//! read from that path. Unset, the target holds no model.

use std::path::Path;

fn main() {
    println!("cargo::rerun-if-env-changed=EXERCISE_MODEL_FILE");
    let code = match std::env::var("EXERCISE_MODEL_FILE") {
        Ok(file) if !file.trim().is_empty() => {
            let file = Path::new(&file);
            assert!(
                file.is_absolute(),
                "EXERCISE_MODEL_FILE must be an absolute path: {}",
                file.display()
            );
            format!("#[path = {:?}]\nmod student;\n", file.display().to_string())
        }
        _ => String::new(),
    };
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("student.rs");
    // Written only when it changes: the test target is rebuilt when this
    // file (or the model it names) changes, not on every build.
    if std::fs::read_to_string(&out).ok().as_deref() != Some(code.as_str()) {
        std::fs::write(&out, code).expect("write the student module");
    }
}
