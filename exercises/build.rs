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
//! A catch-it (or find-it) exercise's API wraps one of its versions, the
//! one the slot feature picks ([`pick_versions`]); the student's test is
//! built in another crate, `exercises/catch`, which cannot see this crate's
//! features or `cfg`s.
//!
//! Nothing is read from `exercises/mine/` unless `EXERCISE_CHECK` names the
//! file: a half-written exercise breaks only its own check, never
//! `cargo test --workspace`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

include!("list.rs");

fn main() {
    for watched in ["list.rs", "skeletons"] {
        println!("cargo::rerun-if-changed={watched}");
    }
    println!("cargo::rerun-if-env-changed=EXERCISE_SOURCE");
    println!("cargo::rerun-if-env-changed=EXERCISE_CHECK");
    println!("cargo::rerun-if-env-changed=EXERCISE_CHAFFS");

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
    pick_versions(&out);
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

/// The version each catch-it's and find-it's API wraps in this build: the
/// one in the slot the `slot-<k>` feature names (the first without one), as
/// the `cfg` named for the exercise's module, `c1 = "racy"`. A `cfg` of this
/// crate, so that a test (built in another crate) cannot read it.
///
/// A teacher's own buggy versions (`EXERCISE_CHAFFS=<dir>`, files
/// `<dir>/<exercise>/*.rs`, sorted) take the slots after the exercise's
/// own: in such a slot the `cfg` is `"teacher"`, and the chaff's file is
/// copied to `OUT_DIR/teacher_<module>.rs` for the exercise's module to
/// include (see `select!` in `src/catch/mod.rs`).
fn pick_versions(out: &Path) {
    let on: Vec<usize> = (1..SLOTS)
        .filter(|k| std::env::var_os(format!("CARGO_FEATURE_SLOT_{k}")).is_some())
        .collect();
    assert!(
        on.len() <= 1,
        "features slot-{on:?}: one build runs one slot; build each slot on its own"
    );
    let slot = on.first().copied().unwrap_or(0);
    let chaffs = std::env::var("EXERCISE_CHAFFS")
        .ok()
        .filter(|c| !c.is_empty());
    for e in EXERCISES
        .iter()
        .filter(|e| e.kind != Kind::Model && !e.versions.is_empty())
    {
        let key = module_of(e.name);
        let mut values: Vec<String> = e.versions.iter().map(|v| format!("{:?}", v.name)).collect();
        values.push("\"teacher\"".into());
        println!(
            "cargo::rustc-check-cfg=cfg({key}, values({}))",
            values.join(", ")
        );
        let teacher = chaffs
            .as_deref()
            .zip(slot.checked_sub(e.versions.len()))
            .and_then(|(dir, i)| teacher_chaffs(Path::new(dir), e.name).into_iter().nth(i));
        let teacher_file = out.join(format!("teacher_{key}.rs"));
        match teacher {
            Some(file) => {
                println!("cargo::rerun-if-changed={}", file.display());
                std::fs::copy(&file, &teacher_file)
                    .unwrap_or_else(|err| panic!("{}: {err}", file.display()));
                println!("cargo::rustc-cfg={key}=\"teacher\"");
            }
            None => {
                std::fs::write(&teacher_file, "").expect("write an empty chaff");
                let version = e.versions.get(slot).unwrap_or(&e.versions[0]);
                println!("cargo::rustc-cfg={key}={:?}", version.name);
            }
        }
    }
}

/// A teacher's chaffs for one exercise, `<dir>/<exercise>/*.rs`, sorted.
fn teacher_chaffs(dir: &Path, name: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir.join(name)) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|x| x == "rs"))
        .collect();
    found.sort();
    found
}

/// An exercise's module in `exercises::catch` (or `find`): its name up to
/// the first `_`, `c1` for `c1_catch_lost_wakeup`.
fn module_of(name: &str) -> &str {
    name.split('_').next().unwrap_or(name)
}
