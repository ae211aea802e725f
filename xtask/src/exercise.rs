//! `cargo xtask exercise`: a student's exercises, one command each, in the
//! spirit of rustlings.
//!
//! An exercise is a skeleton (`exercises/skeletons/<name>.rs`) that the
//! student copies to `exercises/mine/<name>.rs` and fixes; its check is a test
//! target of the `exercises` crate (`exercises/tests/<name>.rs`), behind the
//! `check` feature; `EXERCISE_SOURCE` tells that crate's build script whose
//! file to compile (see `exercises/build.rs`). No Cargo file is edited and
//! no lesson's file is touched.

use crate::cmd::{Captured, Cmd, Result, banner, root, secs};
use crate::ftf::{panic_messages as red_messages, red};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;
use std::time::Duration;

mod list {
    include!("../../exercises/list.rs");
}
pub use list::{EXERCISES, Exercise};

/// How long one check may run before it counts as hanging.
const LIMIT: Duration = Duration::from_secs(120);

/// The usage of `cargo xtask exercise`.
pub const USAGE: &str = "\
cargo xtask exercise <command> [exercise]

  list                 every exercise, done or not yet (the default)
  start <ex>           copy the skeleton to exercises/mine/ and say what to do
  check <ex>           run the stage's checks against your file
  watch <ex>           check it again every time you save it (Ctrl-C to stop)
  hint <ex> [N]        hint N (default: 1); the book has them all
  solution <ex>        the stage's fixed version, to compare with yours
  reset <ex>           put the skeleton back in your file (nothing else changes)
  verify               CI: every skeleton fails its check naming its bug, every solution passes

<ex> is the exercise's name or its start: n1, s1, c4, c5, or c4_one_lock.
";

/// Runs `cargo xtask exercise <args>`.
pub fn run(args: &[String]) -> Result {
    let (command, rest) = match args.split_first() {
        None => ("list", &[][..]),
        Some((c, rest)) => (c.as_str(), rest),
    };
    let one = || -> Result<&'static Exercise> {
        match rest {
            [name, ..] => find(name),
            [] => Err(format!("`exercise {command}` needs an exercise\n\n{USAGE}")),
        }
    };
    match command {
        "list" => list(),
        "start" => start(one()?),
        "check" => check(one()?),
        "watch" => watch(one()?),
        "hint" => {
            let n = match rest.get(1) {
                Some(n) => n
                    .parse()
                    .map_err(|_| format!("hint number `{n}`: not a number"))?,
                None => 1,
            };
            hint(one()?, n)
        }
        "solution" => solution(one()?),
        "reset" => reset(one()?),
        "verify" => verify().map(|_| ()),
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown exercise command `{other}`\n\n{USAGE}")),
    }
}

/// The exercise a student named: `c4`, `C4`, `c4_one_lock`.
pub fn find(name: &str) -> Result<&'static Exercise> {
    let name = name.to_ascii_lowercase();
    EXERCISES
        .iter()
        .find(|e| e.name == name || e.name.split('_').next() == Some(name.as_str()))
        .ok_or_else(|| {
            let all: Vec<&str> = EXERCISES.iter().map(|e| e.name).collect();
            format!("no exercise `{name}`; there are: {}", all.join(", "))
        })
}

fn dir() -> PathBuf {
    root().join("exercises")
}

fn skeleton(e: &Exercise) -> PathBuf {
    dir().join("skeletons").join(format!("{}.rs", e.name))
}

fn mine(e: &Exercise) -> PathBuf {
    dir().join("mine").join(format!("{}.rs", e.name))
}

fn hints_file(e: &Exercise) -> PathBuf {
    dir().join("hints").join(format!("{}.md", e.name))
}

/// A path as a student would type it, from the workspace root.
fn shown(path: &std::path::Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

fn short(e: &Exercise) -> String {
    e.id.to_ascii_lowercase()
}

// -- progress -------------------------------------------------------------

/// Where a passing check is remembered: one line per exercise, its name and
/// a hash of the file that passed. Editing the file afterwards makes it
/// "not yet" again until it is checked again.
fn progress_file() -> PathBuf {
    dir().join("mine").join(".progress")
}

fn hash_of(text: &str) -> String {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    format!("{:016x}", h.finish())
}

fn read_progress() -> Vec<(String, String)> {
    std::fs::read_to_string(progress_file())
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(n, h)| (n.to_string(), h.to_string()))
        .collect()
}

fn write_progress(e: &Exercise, passed: Option<&str>) -> Result {
    let mut lines: Vec<(String, String)> = read_progress()
        .into_iter()
        .filter(|(n, _)| n != e.name)
        .collect();
    if let Some(text) = passed {
        lines.push((e.name.to_string(), hash_of(text)));
    }
    let body: String = lines.iter().map(|(n, h)| format!("{n} {h}\n")).collect();
    std::fs::write(progress_file(), body).map_err(|e| format!("{}: {e}", shown(&progress_file())))
}

/// Where a student is with one exercise.
#[derive(PartialEq)]
enum Status {
    NotStarted,
    NotYet,
    Done,
}

fn status(e: &Exercise) -> Status {
    let Ok(text) = std::fs::read_to_string(mine(e)) else {
        return Status::NotStarted;
    };
    let done = read_progress()
        .iter()
        .any(|(n, h)| n == e.name && *h == hash_of(&text));
    if done { Status::Done } else { Status::NotYet }
}

// -- the commands ---------------------------------------------------------

fn list() -> Result {
    use std::io::Write;
    let done = EXERCISES
        .iter()
        .filter(|e| status(e) == Status::Done)
        .count();
    let mut text = format!("Exercises: {done} of {} done\n\n", EXERCISES.len());
    // The widest title sets the column, so no title runs into its state.
    let width = EXERCISES.iter().map(|e| e.title.len()).max().unwrap_or(0);
    for e in EXERCISES {
        let state = match status(e) {
            Status::Done => "done",
            Status::NotYet => "not yet (started)",
            Status::NotStarted => "not yet",
        };
        text += &format!(
            "  {:<4} {:<24} {:<width$}  {state}\n",
            short(e),
            e.name,
            e.title
        );
    }
    text += "\nStart one: cargo xtask exercise start <ex>   (the book's chapter has the story)\n";
    // Written, not printed: `exercise list | head -1` must not panic when
    // the pipe closes early.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(())
}

fn start(e: &Exercise) -> Result {
    let (from, to) = (skeleton(e), mine(e));
    if to.exists() {
        println!("{} already exists: your work is kept.", shown(&to));
    } else {
        std::fs::copy(&from, &to)
            .map_err(|err| format!("{} -> {}: {err}", shown(&from), shown(&to)))?;
        println!("Copied the skeleton to {}.", shown(&to));
    }
    let s = short(e);
    println!(
        "\nExercise {}: {}.\n\
         \n  edit   {}   (look for TODO({}))\
         \n  check  cargo xtask exercise check {s}\
         \n  hint   cargo xtask exercise hint {s}\
         \n  read   book/src/{}, section \"Exercise\"\
         \n  reset  cargo xtask exercise reset {s}\n",
        e.id,
        e.title,
        shown(&to),
        e.id,
        e.chapter
    );
    Ok(())
}

/// Builds and runs one exercise's check against `source`'s files
/// (`mine`, `skeleton` or `solution`).
fn run_check(e: &Exercise, source: &str) -> Result<Captured> {
    let args = [
        "test",
        "-p",
        "exercises",
        "--features",
        "check",
        "--test",
        e.name,
    ];
    // Build first, in the open: a compile error reads best as cargo prints it.
    Cmd::cargo(&args)
        .args(["--no-run"])
        .env("EXERCISE_SOURCE", source)
        .run()
        .map_err(|err| format!("{err}\n{} does not compile yet", e.name))?;
    Cmd::cargo(&args)
        .args(["-q"])
        .env("EXERCISE_SOURCE", source)
        .capture(LIMIT)
}

/// Checks the student's file now and again after every save, until
/// interrupted. The watching is `notify`'s (inotify on Linux); it watches the
/// directory, since many editors save by writing a new file and renaming it.
fn watch(e: &Exercise) -> Result {
    use notify::{RecursiveMode, Watcher};
    let path = mine(e);
    if !path.exists() {
        return Err(format!(
            "{} is not started: cargo xtask exercise start {}",
            e.name,
            short(e)
        ));
    }
    let dir = path.parent().ok_or("exercises/mine")?.to_path_buf();
    let (tx, rx) = std::sync::mpsc::channel();
    let mut watcher = notify::recommended_watcher(tx).map_err(|err| err.to_string())?;
    watcher
        .watch(&dir, RecursiveMode::NonRecursive)
        .map_err(|err| err.to_string())?;
    println!(
        "watching {}: every save runs the check again (Ctrl-C to stop)",
        path.display()
    );
    let _ = check(e);
    let name = path.file_name().map(ToOwned::to_owned);
    loop {
        let event = rx.recv().map_err(|err| err.to_string())?;
        let ours = event.is_ok_and(|ev| {
            !ev.kind.is_access() && ev.paths.iter().any(|p| p.file_name() == name.as_deref())
        });
        if !ours {
            continue;
        }
        // One save can be several events (write, rename, chmod): let them
        // settle before checking.
        while rx.recv_timeout(Duration::from_millis(300)).is_ok() {}
        println!("\n==> saved: checking {} again", e.name);
        let _ = check(e);
    }
}

fn check(e: &Exercise) -> Result {
    let source = if mine(e).exists() {
        "mine"
    } else {
        println!(
            "You have not started {} yet: checking the skeleton. `cargo xtask exercise start {}` copies it for you to edit.",
            e.name,
            short(e)
        );
        "skeleton"
    };
    let run = run_check(e, source)?;
    if run.passed() {
        if source == "mine" {
            let text = std::fs::read_to_string(mine(e)).map_err(|err| err.to_string())?;
            write_progress(e, Some(&text))?;
        }
        println!(
            "\n  done: {} passes its check ({}).\n\n\
             Compare with the stage's fixed version: cargo xtask exercise solution {}",
            e.name,
            secs(run.took),
            short(e)
        );
        return Ok(());
    }
    let messages = red_messages(&run.output);
    println!();
    if messages.is_empty() {
        println!("{}", run.output);
    }
    for m in &messages {
        println!("  {}", red(m));
    }
    if run.status.is_none() {
        println!(
            "  (the check was still running after {}: stopped)",
            secs(LIMIT)
        );
    }
    Err(format!(
        "not yet: {} fails its check ({}). Hints: cargo xtask exercise hint {}",
        e.name,
        run.how(),
        short(e)
    ))
}

/// The hints of an exercise: the `<details>` blocks of its hints file, as
/// (summary, body) pairs. The book includes the same file.
pub fn hints(e: &Exercise) -> Result<Vec<(String, String)>> {
    let text = std::fs::read_to_string(hints_file(e))
        .map_err(|err| format!("{}: {err}", shown(&hints_file(e))))?;
    let mut out = Vec::new();
    for block in text.split("<details>").skip(1) {
        let block = block.split("</details>").next().unwrap_or_default();
        let summary = block
            .split_once("<summary>")
            .and_then(|(_, s)| s.split_once("</summary>"))
            .map(|(s, _)| s.trim().to_string())
            .unwrap_or_default();
        let body = block
            .split_once("</summary>")
            .map_or(block, |(_, b)| b)
            .trim()
            .to_string();
        out.push((summary, body));
    }
    Ok(out)
}

fn hint(e: &Exercise, n: usize) -> Result {
    let all = hints(e)?;
    let Some((summary, body)) = n.checked_sub(1).and_then(|i| all.get(i)) else {
        return Err(format!("{} has hints 1 to {}", e.name, all.len()));
    };
    println!("{summary} (of {})\n\n{body}\n", all.len());
    if n < all.len() {
        println!("Next: cargo xtask exercise hint {} {}", short(e), n + 1);
    } else {
        println!(
            "That was the last. The solution: cargo xtask exercise solution {}",
            short(e)
        );
    }
    Ok(())
}

fn solution(e: &Exercise) -> Result {
    let file = root().join(e.solution_file);
    let text = std::fs::read_to_string(&file).map_err(|err| format!("{}: {err}", shown(&file)))?;
    println!(
        "The solution is the stage's fixed version, {}:\n",
        e.solution_file
    );
    for line in text.lines().filter(|l| !l.contains("ANCHOR")) {
        println!("{line}");
    }
    println!(
        "\n(The book walks through it in book/src/{}.) There is often more than one good fix.",
        e.chapter
    );
    Ok(())
}

fn reset(e: &Exercise) -> Result {
    std::fs::copy(skeleton(e), mine(e))
        .map_err(|err| format!("{} -> {}: {err}", shown(&skeleton(e)), shown(&mine(e))))?;
    write_progress(e, None)?;
    println!("{} is the skeleton again.", shown(&mine(e)));
    Ok(())
}

/// CI's check of every exercise, both ways: the skeleton has its `TODO`,
/// at least two hints, and fails its check naming its bug; the stage's
/// fixed version passes the very same check. Returns how many exercises.
pub fn verify() -> Result<usize> {
    banner("exercises, both ways: every skeleton fails its check, every solution passes");
    let mut problems = Vec::new();
    for e in EXERCISES {
        let skeleton_text = std::fs::read_to_string(skeleton(e)).unwrap_or_default();
        if !skeleton_text.contains(&format!("TODO({})", e.id)) {
            problems.push(format!("{}: the skeleton has no `TODO({})`", e.name, e.id));
        }
        match hints(e) {
            Ok(h) if h.len() >= 2 => {}
            Ok(h) => problems.push(format!(
                "{}: {} hint(s); give at least two",
                e.name,
                h.len()
            )),
            Err(err) => problems.push(err),
        }
        let unsolved = run_check(e, "skeleton")?;
        let messages = red_messages(&unsolved.output);
        if unsolved.passed() {
            problems.push(format!(
                "{}: its check passes on the skeleton, unsolved",
                e.name
            ));
        } else if !messages.iter().any(|m| m.starts_with(e.shows)) {
            problems.push(format!(
                "{}: its check fails on the skeleton ({}) without naming {}: {messages:?}",
                e.name,
                unsolved.how(),
                e.shows
            ));
        } else {
            for m in &messages {
                println!("  skeleton  {:<24} {}", e.name, red(m));
            }
        }
        let solved = run_check(e, "solution")?;
        if solved.passed() {
            println!("  solution  {:<24} passes ({})", e.name, e.solution);
        } else {
            problems.push(format!(
                "{}: its check fails on the solution {} ({}): {:?}",
                e.name,
                e.solution,
                solved.how(),
                red_messages(&solved.output)
            ));
        }
    }
    if problems.is_empty() {
        println!("exercises: {} checked both ways", EXERCISES.len());
        Ok(EXERCISES.len())
    } else {
        Err(format!(
            "{} problem(s) with the exercises:\n  {}",
            problems.len(),
            problems.join("\n  ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exercises_are_found_by_their_start() {
        assert_eq!(find("c4").unwrap().name, "c4_one_lock");
        assert_eq!(find("C4").unwrap().name, "c4_one_lock");
        assert_eq!(find("c4_one_lock").unwrap().name, "c4_one_lock");
        assert!(find("c9").is_err());
    }

    #[test]
    fn every_exercise_has_its_files() {
        for e in EXERCISES {
            assert!(skeleton(e).exists(), "{}", shown(&skeleton(e)));
            assert!(hints_file(e).exists(), "{}", shown(&hints_file(e)));
            assert!(root().join(e.solution_file).exists(), "{}", e.solution_file);
            assert!(
                root().join("book/src").join(e.chapter).exists(),
                "{}",
                e.chapter
            );
            assert!(e.name.starts_with(&short(e)), "{}", e.name);
        }
    }
}
