//! Decides whose file each exercise is, so that no Cargo file is ever edited
//! to switch between them, and so that a student's file is compiled only by
//! that student's check.
//!
//! A fix-it exercise is a module of the library:
//!
//! - `skeleton`: the untouched skeleton, `exercises/skeletons/<name>.rs`,
//!   for every exercise unless told otherwise;
//! - `mine`: the student's copy, `exercises/mine/<name>.rs`, for the one
//!   exercise `EXERCISE_CHECK` names, when `EXERCISE_SOURCE=mine`;
//! - `solution`: the stage's fixed version, re-exported, for every exercise
//!   when `EXERCISE_SOURCE=solution`.
//!
//! A catch-it (or find-it) exercise is a module of the `catch` test target
//! (`tests/catch.rs` includes what this writes): the student's test alone,
//! `<name>::mine`, when `EXERCISE_CHECK` names it and `EXERCISE_SOURCE=mine`;
//! otherwise every such exercise's skeleton, reference test and wrong tests
//! (`<name>::skeleton`, `<name>::reference`, `<name>::wrong_<which>`), the
//! one build CI's check of them all runs from.
//!
//! A find-it is one file, `find/<name>.rs`: the scheduler, its mended
//! version, the API a test uses, and the modules `skeleton`, `reference` and
//! `wrong_<which>`. It is included whole as the module `<name>` (so its
//! tests name the API `super::`), always, and the student's test is added
//! beside them as `<name>::mine` under that exercise's check.
//!
//! Nothing is read from `exercises/mine/` unless `EXERCISE_CHECK` names the
//! file: a half-written exercise breaks only its own check, never
//! `cargo test --workspace`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

include!("list.rs");

fn main() {
    for watched in ["list.rs", "skeletons", "references", "wrong", "find"] {
        println!("cargo::rerun-if-changed={watched}");
    }
    println!("cargo::rerun-if-env-changed=EXERCISE_SOURCE");
    println!("cargo::rerun-if-env-changed=EXERCISE_CHECK");

    let dir =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let source = std::env::var("EXERCISE_SOURCE").unwrap_or_default();
    let check = std::env::var("EXERCISE_CHECK")
        .ok()
        .filter(|c| !c.is_empty());
    if let Some(check) = &check {
        assert!(
            EXERCISES.iter().any(|e| e.name == check.as_str()),
            "EXERCISE_CHECK={check}: no such exercise in list.rs"
        );
    }
    let mine_of = |e: &Exercise| source == "mine" && check.as_deref() == Some(e.name);
    match source.as_str() {
        "" | "skeleton" | "solution" => {}
        "mine" if check.is_some() => {}
        "mine" => panic!("EXERCISE_SOURCE=mine needs EXERCISE_CHECK=<the exercise's name>"),
        other => panic!("EXERCISE_SOURCE={other}: expected mine, skeleton or solution"),
    }

    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let library = fix_modules(&dir, &source, &mine_of);
    std::fs::write(out.join("exercises.rs"), library).expect("write the module list");
    let harness = catch_modules(&dir, &mine_of);
    std::fs::write(out.join("catch.rs"), harness).expect("write the catch-it harness");
}

/// The library's modules: one per fix-it exercise.
fn fix_modules(dir: &Path, source: &str, mine_of: &dyn Fn(&Exercise) -> bool) -> String {
    let mut code = String::new();
    for e in EXERCISES.iter().filter(|e| e.kind == Kind::Fix) {
        let file = if mine_of(e) {
            Some(dir.join("mine").join(format!("{}.rs", e.name)))
        } else if source == "solution" {
            None
        } else {
            Some(dir.join("skeletons").join(format!("{}.rs", e.name)))
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
    }
    code
}

/// The `catch` test target's modules: the student's test under its check,
/// or every catch-it's own tests.
fn catch_modules(dir: &Path, mine_of: &dyn Fn(&Exercise) -> bool) -> String {
    let module = |name: &str, file: &Path| {
        format!(
            "    #[path = {:?}]\n    mod {name};\n",
            file.display().to_string()
        )
    };
    // Model-it exercises are loom models, built elsewhere (`exercises/models`).
    let others = EXERCISES
        .iter()
        .filter(|e| matches!(e.kind, Kind::Catch | Kind::Find));
    let mut code = String::new();
    if let Some(e) = others.clone().find(|e| mine_of(e)) {
        let mine = dir.join("mine").join(format!("{}.rs", e.name));
        let file = (e.kind == Kind::Find).then(|| find_file(dir, e.name));
        writeln!(
            code,
            "mod {} {{\n{}{}}}",
            e.name,
            file.map(|f| include(&f)).unwrap_or_default(),
            module("mine", &mine)
        )
        .expect("to a String");
        return code;
    }
    for e in others {
        if e.kind == Kind::Find {
            let file = find_file(dir, e.name);
            writeln!(code, "mod {} {{\n{}}}", e.name, include(&file)).expect("to a String");
            continue;
        }
        let mut inner = module(
            "skeleton",
            &dir.join("skeletons").join(format!("{}.rs", e.name)),
        );
        inner += &module(
            "reference",
            &dir.join("references").join(format!("{}.rs", e.name)),
        );
        for (which, file) in wrong_tests(dir, e.name) {
            inner += &module(&format!("wrong_{which}"), &file);
        }
        writeln!(code, "mod {} {{\n{inner}}}", e.name).expect("to a String");
    }
    code
}

/// A find-it's one file, `find/<name>.rs`.
fn find_file(dir: &Path, name: &str) -> PathBuf {
    dir.join("find").join(format!("{name}.rs"))
}

/// The items of `file`, pasted into the module being written (its tests
/// and the student's see its API as `super::`).
fn include(file: &Path) -> String {
    format!("    include!({:?});\n", file.display().to_string())
}

/// The wrong tests of a catch-it, `wrong/<name>/<which>.rs`, sorted.
fn wrong_tests(dir: &Path, name: &str) -> Vec<(String, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir.join("wrong").join(name)) else {
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
