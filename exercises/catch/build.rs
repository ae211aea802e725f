//! Decides which tests the `catch` target holds, so that no Cargo file is
//! ever edited to switch between them, and so that a student's file is
//! compiled only by that student's check:
//!
//! - under `EXERCISE_MINE=<exercise>` (what `cargo xtask exercise check`
//!   sets), the student's test alone, `exercises/mine/<exercise>.rs`, as the
//!   module `<exercise>::mine`;
//! - otherwise every catch-it's and find-it's skeleton, reference test and
//!   wrong tests (`<exercise>::skeleton`, `::reference`, `::wrong_<which>`),
//!   and the other right tests it must accept (`::right_<which>`, from
//!   `exercises/right/<exercise>/`): the build CI's
//!   `cargo xtask exercise verify` grades (under `EXERCISE_ONLY=<exercise>`,
//!   that exercise's alone: `verify --only`);
//! - under `EXERCISE_MANIFEST=<file>` (a class's tests, `cargo xtask
//!   exercise grade`), the tests its lines name, each `<exercise> <module>
//!   <path>`.
//!
//! Which version of the timer each test runs against is not decided here:
//! it is the exercises crate's slot feature, which this crate cannot see.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

include!("../list.rs");

fn main() {
    for watched in [
        "../list.rs",
        "../skeletons",
        "../references",
        "../wrong",
        "../right",
        "../mine",
    ] {
        println!("cargo::rerun-if-changed={watched}");
    }
    println!("cargo::rerun-if-env-changed=EXERCISE_MINE");
    println!("cargo::rerun-if-env-changed=EXERCISE_ONLY");
    println!("cargo::rerun-if-env-changed=EXERCISE_MANIFEST");
    let manifest =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let dir = manifest
        .parent()
        .expect("exercises/catch has a parent")
        .to_path_buf();
    let mine = std::env::var("EXERCISE_MINE")
        .ok()
        .filter(|m| !m.is_empty());
    let only = std::env::var("EXERCISE_ONLY")
        .ok()
        .filter(|m| !m.is_empty());
    let graded = || {
        EXERCISES
            .iter()
            .filter(|e| matches!(e.kind, Kind::Catch | Kind::Find))
    };
    let manifest_file = std::env::var("EXERCISE_MANIFEST")
        .ok()
        .filter(|m| !m.is_empty());
    let mut code = String::new();
    if let Some(list) = &manifest_file {
        println!("cargo::rerun-if-changed={list}");
        let text = std::fs::read_to_string(list).unwrap_or_else(|e| panic!("{list}: {e}"));
        let mut by_exercise: Vec<(String, String)> = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let mut words = line.splitn(3, ' ');
            let (Some(name), Some(module_name), Some(path)) =
                (words.next(), words.next(), words.next())
            else {
                panic!("{list}: `{line}`: expected `<exercise> <module> <path>`");
            };
            assert!(
                graded().any(|e| e.name == name),
                "{list}: no catch-it or find-it `{name}`"
            );
            println!("cargo::rerun-if-changed={path}");
            let entry = module(module_name, Path::new(path));
            match by_exercise.iter_mut().find(|(n, _)| n == name) {
                Some((_, inner)) => inner.push_str(&entry),
                None => by_exercise.push((name.to_string(), entry)),
            }
        }
        for (name, inner) in by_exercise {
            writeln!(code, "mod {name} {{\n{inner}}}").expect("to a String");
        }
        let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
        std::fs::write(out.join("catch.rs"), code).expect("write the module list");
        return;
    }
    match &mine {
        Some(name) => {
            let e = graded()
                .find(|e| e.name == name.as_str())
                .unwrap_or_else(|| panic!("EXERCISE_MINE={name}: no catch-it or find-it so named"));
            let file = dir.join("mine").join(format!("{}.rs", e.name));
            writeln!(code, "mod {} {{\n{}}}", e.name, module("mine", &file)).expect("to a String");
        }
        None => {
            for e in graded().filter(|e| only.as_deref().is_none_or(|o| o == e.name)) {
                let mut inner = module(
                    "skeleton",
                    &dir.join("skeletons").join(format!("{}.rs", e.name)),
                );
                inner += &module(
                    "reference",
                    &dir.join("references").join(format!("{}.rs", e.name)),
                );
                for kind in ["wrong", "right"] {
                    for (which, file) in tests_in(&dir.join(kind), e.name) {
                        inner += &module(&format!("{kind}_{which}"), &file);
                    }
                }
                writeln!(code, "mod {} {{\n{inner}}}", e.name).expect("to a String");
            }
        }
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("catch.rs"), code).expect("write the module list");
}

/// `mod <name>;` for `file`.
fn module(name: &str, file: &Path) -> String {
    format!(
        "    #[path = {:?}]\n    mod {name};\n",
        file.display().to_string()
    )
}

/// An exercise's tests in `dir/<name>/<which>.rs`, sorted.
fn tests_in(dir: &Path, name: &str) -> Vec<(String, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir.join(name)) else {
        return Vec::new();
    };
    let mut found: Vec<(String, PathBuf)> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|x| x == "rs"))
        .filter_map(|path| Some((path.file_stem()?.to_str()?.to_owned(), path)))
        .collect();
    found.sort();
    found
}
