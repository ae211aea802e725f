//! Decides whose file each exercise module is, so that no Cargo file is ever
//! edited to switch between them:
//!
//! - `mine`: the student's copy, `exercises/mine/<name>.rs`, once
//!   `cargo xtask exercise start <name>` made it;
//! - `skeleton`: the untouched skeleton, `exercises/skeletons/<name>.rs`;
//! - `solution`: the stage's fixed version, re-exported.
//!
//! `EXERCISE_SOURCE=skeleton` or `=solution` picks one for every exercise;
//! unset (or `mine`), each exercise is the student's copy where there is one
//! and the skeleton elsewhere.

use std::fmt::Write as _;
use std::path::Path;

include!("list.rs");

fn main() {
    println!("cargo::rerun-if-changed=list.rs");
    println!("cargo::rerun-if-changed=skeletons");
    println!("cargo::rerun-if-changed=mine");
    println!("cargo::rerun-if-env-changed=EXERCISE_SOURCE");

    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let source = std::env::var("EXERCISE_SOURCE").unwrap_or_default();
    let mut code = String::new();
    for e in EXERCISES {
        let mine = Path::new(&dir).join("mine").join(format!("{}.rs", e.name));
        let skeleton = Path::new(&dir)
            .join("skeletons")
            .join(format!("{}.rs", e.name));
        let which = match source.as_str() {
            "solution" | "skeleton" => source.as_str(),
            "mine" | "" if mine.exists() => "mine",
            "mine" | "" => "skeleton",
            other => panic!("EXERCISE_SOURCE={other}: expected mine, skeleton or solution"),
        };
        let file = match which {
            "solution" => None,
            "mine" => Some(mine),
            _ => Some(skeleton),
        };
        match file {
            Some(file) => writeln!(
                code,
                "#[path = {:?}]\npub mod {};",
                file.display().to_string(),
                e.name
            ),
            None => writeln!(
                code,
                "/// Exercise {id}, solved: the stage's fixed version, `{sol}`.\n\
                 pub mod {name} {{\n    pub use {sol}::*;\n{window}}}",
                id = e.id,
                sol = e.solution,
                name = e.name,
                window = e
                    .solution_points
                    .iter()
                    .map(|(name, point)| format!(
                        "    /// Where the check holds the timer thread.\n    \
                         pub const {name}: &str = {point:?};\n"
                    ))
                    .collect::<String>(),
            ),
        }
        .expect("writing to a String");
        println!("cargo::rustc-env=EXERCISE_{}_SOURCE={which}", e.id);
    }
    let out =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("exercises.rs");
    std::fs::write(&out, code).expect("write the module list");
}
