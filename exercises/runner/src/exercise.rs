//! `cargo xtask exercise`: a student's exercises, one command each, in the
//! spirit of rustlings.
//!
//! Every exercise is a row of `exercises/list.rs`, of one of four kinds:
//!
//! - **fix it**: a skeleton (`exercises/skeletons/<name>.rs`) that the
//!   student copies to `exercises/mine/<name>.rs` and fixes; its check is a
//!   test target of the `exercises` crate (`exercises/tests/<name>.rs`),
//!   behind the `check` feature;
//! - **catch it**: a skeleton *test* the student completes, graded against a
//!   buggy and a fixed version behind one API (`catch.rs`, `grade.rs`);
//! - **find it**: the same, for a bug the exercise does not name, graded
//!   the same way;
//! - **model it**: a loom model, in the `exercise-models` crate
//!   (`exercises/exercise-models/`); `cargo xtask model-check` grades it.
//!
//! `EXERCISE_CHECK` and `EXERCISE_SOURCE` tell the `exercises` crate's build
//! script whose file to compile (see `exercises/build.rs`): a student's file
//! is compiled only under that one exercise's check. No Cargo file is edited
//! and no lesson's file is touched.

mod catch;
mod class;
mod grade;
pub mod source;

use crate::cmd::{Captured, Cmd, Result, banner, root, secs};
use crate::ftf::{panic_messages as red_messages, red};
use devkit::markdown::md_table;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod list {
    include!("../../list.rs");
}
pub use list::{EXERCISES, Exercise, Kind, SLOTS};

/// How long one fix-it check may run before it counts as hanging.
const LIMIT: Duration = Duration::from_secs(120);

/// The usage of `cargo xtask exercise`.
pub const USAGE: &str = "\
cargo xtask exercise <command> [exercise]

  list                 every exercise by chapter and kind, done or not yet (the default)
  start <ex>           copy the skeleton to exercises/mine/ and say what to do
  check <ex>           fix it: run the stage's checks against your file;
                       catch it: run your test against the buggy and the fixed version
  watch <ex>           check it again every time you save it (Ctrl-C to stop)
  hint <ex> [N]        hint N (default: 1); the book has them all
  solution <ex>        the stage's fixed version (catch it: the reference test)
  reset <ex>           put the skeleton back in your file (your last version is kept)
  verify [catch]       CI: every skeleton fails its check naming its bug, every solution passes;
                       every catch-it's reference test is caught on every version, its wrong
                       tests rejected (`verify catch`: the catch-its alone; `verify --only <ex>`:
                       one catch-it or find-it)

  versions [--write]   every catch-it's and find-it's versions of the timer, as the page
                       Exercises shows them (--write: book/src/generated/exercise-versions.md)
  grade DIR [--chaffs D] [--out D]
                       a teacher's table: DIR holds a folder per student (a copy of their
                       exercises/mine/); every catch-it and find-it test graded; --chaffs adds
                       your own buggy versions (the page Exercises, section \"Grading a class\")

<ex> is the exercise's name or its key: n1, s1, c4 (fix it), c1-catch (catch it), f2-find (find it),
or c4_one_lock.
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
        "grade" => class::run(rest),
        "versions" => versions(rest.first().map(String::as_str) == Some("--write")),
        "reset" => reset(one()?),
        "verify" => {
            let which = match rest {
                [] => Verify::All,
                [c] if c == "catch" => Verify::Catch,
                [o, name] if o == "--only" => Verify::Only(find(name)?),
                _ => {
                    return Err(format!(
                        "`verify {}`: verify all, `verify catch` or `verify --only <ex>`",
                        rest.join(" ")
                    ));
                }
            };
            println!("\n{}", verify(which)?);
            Ok(())
        }
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown exercise command `{other}`\n\n{USAGE}")),
    }
}

/// The key a student types: a fix-it's ID (`c4`), another kind's ID and
/// kind (`c1-catch`).
pub fn key(e: &Exercise) -> String {
    let id = e.id.to_ascii_lowercase();
    match e.kind {
        Kind::Fix => id,
        kind => format!("{id}-{}", kind_word(kind)),
    }
}

/// The kind's word in keys and names: `catch`.
fn kind_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Fix => "fix",
        Kind::Catch => "catch",
        Kind::Model => "model",
        Kind::Find => "find",
    }
}

/// The kind as the list shows it: `catch it`.
fn kind_label(kind: Kind) -> String {
    format!("{} it", kind_word(kind))
}

/// The exercise a student named: `c4`, `C4`, `c4_one_lock`, `c1-catch`,
/// `c1_catch`.
pub fn find(name: &str) -> Result<&'static Exercise> {
    let name = name.to_ascii_lowercase().replace('_', "-");
    EXERCISES
        .iter()
        .find(|e| e.name.replace('_', "-") == name || key(e) == name)
        .ok_or_else(|| {
            let all: Vec<String> = EXERCISES.iter().map(key).collect();
            format!("no exercise `{name}`; there are: {}", all.join(", "))
        })
}

fn dir() -> PathBuf {
    root().join("exercises")
}

/// Where an exercise's own files live: a model-it's in its crate,
/// `exercises/exercise-models/` (`cargo xtask model-check` reads them there
/// too).
fn home(e: &Exercise) -> PathBuf {
    match e.kind {
        Kind::Model => dir().join("exercise-models"),
        _ => dir(),
    }
}

fn skeleton(e: &Exercise) -> PathBuf {
    home(e).join("skeletons").join(format!("{}.rs", e.name))
}

/// What `start` and `reset` put in the student's file: the skeleton.
fn skeleton_text(e: &Exercise) -> Result<String> {
    let from = skeleton(e);
    std::fs::read_to_string(&from).map_err(|err| format!("{}: {err}", shown(&from)))
}

fn mine(e: &Exercise) -> PathBuf {
    dir().join("mine").join(format!("{}.rs", e.name))
}

/// Where `reset` keeps the student's last version.
fn backup(e: &Exercise) -> PathBuf {
    dir()
        .join("mine")
        .join("backup")
        .join(format!("{}.rs", e.name))
}

fn hints_file(e: &Exercise) -> PathBuf {
    home(e).join("hints").join(format!("{}.md", e.name))
}

/// A path as a student would type it, from the workspace root.
fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// A chapter's title, the first heading of its page: what the book's
/// sidebar shows, and what messages name a chapter by.
pub fn chapter_title(chapter: &str) -> String {
    std::fs::read_to_string(root().join("book/src").join(chapter))
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("# ").map(|t| t.trim().to_string()))
        })
        .unwrap_or_else(|| chapter.to_string())
}

/// The known mistakes of `e` that `text` (a student's file) makes: what the
/// check says about each.
pub fn mistakes_in(e: &Exercise, text: &str) -> Vec<&'static str> {
    // Read as Rust: a comment or a string never holds a mistake. A file
    // that does not parse yet holds none that can be named.
    let statements = source::statements(text).unwrap_or_default();
    e.mistakes
        .iter()
        .filter(|m| {
            statements
                .iter()
                .any(|s| m.holds.iter().all(|piece| s.contains(piece)))
        })
        .map(|m| m.says)
        .collect()
}

// -- progress -------------------------------------------------------------

/// Where a passing check is remembered: one line per exercise, its name and
/// a hash of the file that passed. Editing the file afterwards makes it
/// "not yet" again until it is checked again.
fn progress_file() -> PathBuf {
    dir().join("mine").join(".progress")
}

/// A hash of a file's text that every toolchain computes alike (std's
/// `DefaultHasher` promises no such thing): 64-bit FNV-1a over its bytes,
/// named in the value so that a later change of hash reads as "not yet",
/// never as a false "done". Eight lines of a public algorithm, for a
/// "did the file change" check: no crate needed.
fn hash_of(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        h ^= u64::from(byte);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x}")
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
    let mut text = format!("Exercises: {done} of {} done\n", EXERCISES.len());
    // The widest key and title set the columns, so nothing runs into its
    // state.
    let key_width = EXERCISES.iter().map(|e| key(e).len()).max().unwrap_or(0);
    let width = EXERCISES.iter().map(|e| e.title.len()).max().unwrap_or(0);
    // Chapters in teaching order (their first exercise's place), and in
    // each, the kinds in order: fix it, catch it, model it, find it.
    let mut chapters: Vec<&str> = Vec::new();
    for e in EXERCISES {
        if !chapters.contains(&e.chapter) {
            chapters.push(e.chapter);
        }
    }
    for chapter in chapters {
        text += &format!("\n{}\n", chapter_title(chapter));
        for kind in [Kind::Fix, Kind::Catch, Kind::Model, Kind::Find] {
            for e in EXERCISES
                .iter()
                .filter(|e| e.chapter == chapter && e.kind == kind)
            {
                let state = match status(e) {
                    Status::Done => "done",
                    Status::NotYet => "not yet (started)",
                    Status::NotStarted => "not yet",
                };
                text += &format!(
                    "  {:<key_width$}  {:<8}  {:<width$}  {state}\n",
                    key(e),
                    kind_label(kind),
                    e.title
                );
            }
        }
    }
    text += "\nStart one: cargo xtask exercise start <ex>   (fix it: mend a timer; catch it: \
             write the test that catches its bug; model it: write the loom model that finds \
             it; find it: find the bug nobody named, and catch it)\n";
    // Written, not printed: `exercise list | head -1` must not panic when
    // the pipe closes early.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(())
}

fn start(e: &Exercise) -> Result {
    let to = mine(e);
    if to.exists() {
        println!("{} already exists: your work is kept.", shown(&to));
    } else {
        std::fs::write(&to, skeleton_text(e)?).map_err(|err| format!("{}: {err}", shown(&to)))?;
        println!("Copied the skeleton to {}.", shown(&to));
    }
    let k = key(e);
    let read = match e.kind {
        Kind::Fix => format!(
            "the chapter \"{}\", its section \"Exercise\"",
            chapter_title(e.chapter)
        ),
        Kind::Find => format!(
            "{} (the page \"{}\", section \"Find it\")",
            e.versions
                .iter()
                .find(|v| v.bug == Some(e.shows))
                .map_or("?", |v| v.file),
            chapter_title("exercises.md")
        ),
        Kind::Model => format!(
            "the chapter \"{}\", where loom finds {}",
            chapter_title(e.chapter),
            e.id
        ),
        _ => format!(
            "the page \"{}\", section \"Catch it\" (the bug: \"{}\")",
            chapter_title("exercises.md"),
            chapter_title(e.chapter)
        ),
    };
    let what = match e.kind {
        Kind::Fix => format!("edit   {}   (look for TODO({}))", shown(&to), e.id),
        Kind::Find => format!(
            "write  your test in {}   (look for TODO({}))\
             \n  api    `use {}::...`: the scheduler's public items, its pause points among them",
            shown(&to),
            e.id,
            e.solution
        ),
        Kind::Model => format!(
            "write  your loom model in {}   (look for TODO({}))\
             \n  api    {}, one type for both versions (racy: {}; fixed: {})",
            shown(&to),
            e.id,
            e.solution,
            crate::model_check::find(e.name).map_or("?", |m| m.racy),
            crate::model_check::find(e.name).map_or("?", |m| m.fixed)
        ),
        _ => format!(
            "write  your test in {}   (look for TODO({}))\
             \n  api    {}: one type for every version{} ({} versions: correct ones, and buggy \
             ones, among them the one with {})",
            shown(&to),
            e.id,
            e.solution,
            if e.forced { ", WINDOW and Pause" } else { "" },
            e.versions.len(),
            e.shows
        ),
    };
    println!(
        "\nExercise {} ({}): {}.\n\
         \n  {what}\
         \n  check  cargo xtask exercise check {k}\
         \n  hint   cargo xtask exercise hint {k}\
         \n  read   {read}\
         \n  reset  cargo xtask exercise reset {k}\n",
        e.id,
        kind_label(e.kind),
        e.title,
    );
    Ok(())
}

/// Builds and runs one fix-it exercise's check against `source`'s files
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
    // Only the exercise under check is compiled from the student's file.
    let with_env = |cmd: Cmd| {
        let cmd = cmd.env("EXERCISE_SOURCE", source);
        if source == "mine" {
            cmd.env("EXERCISE_CHECK", e.name)
        } else {
            cmd
        }
    };
    // Build first, in the open: a compile error reads best as cargo prints it.
    with_env(Cmd::cargo(&args).args(["--no-run"]))
        .run()
        .map_err(|err| format!("{err}\n{} does not compile yet", e.name))?;
    with_env(Cmd::cargo(&args).args(["-q"])).capture(LIMIT)
}

/// Checks the student's file now and again after every save, until
/// interrupted. The watching is `notify`'s (inotify on Linux); it watches the
/// directory, since many editors save by writing a new file and renaming it.
fn watch(e: &'static Exercise) -> Result {
    use notify::{RecursiveMode, Watcher};
    let path = mine(e);
    if !path.exists() {
        return Err(format!(
            "{} is not started: cargo xtask exercise start {}",
            e.name,
            key(e)
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

fn check(e: &'static Exercise) -> Result {
    match e.kind {
        Kind::Fix => check_fix(e),
        Kind::Catch | Kind::Find => {
            // A known mistake can also be why the file does not compile.
            let grade = catch::check(e).inspect_err(|_| known_mistakes(e))?;
            catch::print(e, &grade);
            if grade.verdict == grade::Verdict::Caught {
                if mine(e).exists() {
                    let text = std::fs::read_to_string(mine(e)).map_err(|err| err.to_string())?;
                    write_progress(e, Some(&text))?;
                }
                println!(
                    "\n  done: {} catches {}.\n\n\
                     Compare with the reference test: cargo xtask exercise solution {}",
                    e.name,
                    e.shows,
                    key(e)
                );
                return Ok(());
            }
            known_mistakes(e);
            Err(format!(
                "not yet: {} does not catch {} yet ({}). Hints: cargo xtask exercise hint {}",
                e.name,
                e.shows,
                grade.verdict.word(),
                key(e)
            ))
        }
        Kind::Model => check_model(e),
    }
}

/// A model-it's check: its grader (`cargo xtask model-check`) on the
/// student's copy, or on the skeleton before `start`. The model runs once on
/// the racy version (loom must find the bug) and once on the fixed one
/// (every execution must pass), each in its own process.
fn check_model(e: &Exercise) -> Result {
    let model = crate::model_check::find(e.name)?;
    let file = if mine(e).exists() {
        mine(e)
    } else {
        println!(
            "You have not started {} yet: checking the skeleton. `cargo xtask exercise start {}` \
             copies it for you to edit.",
            e.name,
            key(e)
        );
        skeleton(e)
    };
    let verdict = crate::model_check::check(model, &file)?;
    print!("{}", verdict.report(model));
    let Some(mistake) = verdict.mistake else {
        if file == mine(e) {
            let text = std::fs::read_to_string(&file).map_err(|err| err.to_string())?;
            write_progress(e, Some(&text))?;
        }
        println!(
            "\n  done: {} finds {} and passes the fix.\n\n\
             Compare with the reference model: cargo xtask exercise solution {}",
            e.name,
            e.shows,
            key(e)
        );
        return Ok(());
    };
    Err(format!(
        "not yet: {} ({}). Hints: cargo xtask exercise hint {}",
        e.name,
        mistake.word(),
        key(e)
    ))
}

/// Prints what the check knows about the mistakes in the student's file.
fn known_mistakes(e: &Exercise) {
    let Ok(text) = std::fs::read_to_string(mine(e)) else {
        return;
    };
    for says in mistakes_in(e, &text) {
        println!("\n  Known mistake: {says}");
    }
}

fn check_fix(e: &Exercise) -> Result {
    let source = if mine(e).exists() {
        "mine"
    } else {
        println!(
            "You have not started {} yet: checking the skeleton. `cargo xtask exercise start {}` copies it for you to edit.",
            e.name,
            key(e)
        );
        "skeleton"
    };
    let run = run_check(e, source).inspect_err(|_| known_mistakes(e))?;
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
            key(e)
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
    if source == "mine" {
        known_mistakes(e);
    }
    Err(format!(
        "not yet: {} fails its check ({}). Hints: cargo xtask exercise hint {}",
        e.name,
        run.how(),
        key(e)
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
    if e.kind == Kind::Find && !hints_file(e).exists() {
        return Err(format!("{} has no hints: find it on your own", e.name));
    }
    let all = hints(e)?;
    let Some((summary, body)) = n.checked_sub(1).and_then(|i| all.get(i)) else {
        return Err(format!("{} has hints 1 to {}", e.name, all.len()));
    };
    println!("{summary} (of {})\n\n{body}\n", all.len());
    if n < all.len() {
        println!("Next: cargo xtask exercise hint {} {}", key(e), n + 1);
    } else {
        println!(
            "That was the last. The solution: cargo xtask exercise solution {}",
            key(e)
        );
    }
    Ok(())
}

fn solution(e: &Exercise) -> Result {
    let file = root().join(e.solution_file);
    let text = std::fs::read_to_string(&file).map_err(|err| format!("{}: {err}", shown(&file)))?;
    match e.kind {
        Kind::Fix => println!(
            "The solution is the stage's fixed version, {}:\n",
            e.solution_file
        ),
        Kind::Model => println!(
            "The solution is a reference model, {}: loom finds {} in it on the racy version, \
             and every execution passes on the fixed one.\n",
            e.solution_file, e.id
        ),
        _ => println!(
            "The solution is a reference test, {}: it fails on the version with {} every time \
             and passes on every correct version every time. There is more than one good \
             test.\n",
            e.solution_file, e.shows
        ),
    }
    for line in text.lines().filter(|l| !l.contains("ANCHOR")) {
        println!("{line}");
    }
    match e.kind {
        Kind::Fix => println!(
            "\n(The book walks through it in \"{}\".) There is often more than one good fix.",
            chapter_title(e.chapter)
        ),
        Kind::Model => println!(
            "\n(The bug and loom are told in \"{}\".) There is more than one good model; a \
             passing one proves the interleavings loom explored, with the threads it has.",
            chapter_title(e.chapter)
        ),
        _ => println!(
            "\n(The bug is told in \"{}\"; the book's page \"{}\" says what the check \
             proves.) There is more than one good test.",
            chapter_title(e.chapter),
            chapter_title("exercises.md")
        ),
    }
    Ok(())
}

/// Puts the skeleton back, keeping the student's last version (one, the
/// last: a second reset overwrites it).
fn reset(e: &Exercise) -> Result {
    let (to, kept) = (mine(e), backup(e));
    let skeleton_text = skeleton_text(e)?;
    let worked = std::fs::read_to_string(&to).is_ok_and(|text| text != skeleton_text);
    if worked {
        if let Some(parent) = kept.parent() {
            std::fs::create_dir_all(parent).map_err(|err| format!("{}: {err}", shown(parent)))?;
        }
        std::fs::copy(&to, &kept)
            .map_err(|err| format!("{} -> {}: {err}", shown(&to), shown(&kept)))?;
    }
    std::fs::write(&to, skeleton_text).map_err(|err| format!("{}: {err}", shown(&to)))?;
    write_progress(e, None)?;
    println!("{} is the skeleton again.", shown(&to));
    if worked {
        println!(
            "Your last version is kept in {} (the next reset replaces it).",
            shown(&kept)
        );
    }
    Ok(())
}

/// Which exercises `verify` checks.
#[derive(Clone, Copy)]
pub enum Verify {
    /// Every one: what CI runs.
    All,
    /// The catch-its and find-its alone.
    Catch,
    /// One catch-it or find-it.
    Only(&'static Exercise),
}

/// CI's check of every exercise, both ways. A fix-it's skeleton has its
/// `TODO`, at least two hints, and fails its check naming its bug; the
/// stage's fixed version passes the very same check. A catch-it's
/// reference test is caught, and each of its wrong tests is rejected for
/// the reason it declares. Returns a line for CI's summary.
pub fn verify(which: Verify) -> Result<String> {
    banner("exercises, both ways: every skeleton fails its check, every solution passes");
    let start = Instant::now();
    let mut problems = Vec::new();
    let fixes: Vec<&Exercise> = EXERCISES
        .iter()
        .filter(|e| e.kind == Kind::Fix && matches!(which, Verify::All))
        .collect();
    for e in &fixes {
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
    }
    // Every skeleton, then every solution: the crate is built twice, not
    // once per exercise and side.
    for e in &fixes {
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
    }
    for e in &fixes {
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
    let fixes_took = start.elapsed();
    let only = match which {
        Verify::Only(e) if catch::graded_here(e) => Some(e),
        Verify::Only(e) => {
            return Err(format!(
                "{}: `verify --only` takes a catch-it or a find-it",
                e.name
            ));
        }
        _ => None,
    };
    let catches = catch::verify(&mut problems, only)?;
    if matches!(which, Verify::All | Verify::Catch) {
        problems.extend(class::verify()?);
    }
    let catches_took = start.elapsed() - fixes_took;
    if !problems.is_empty() {
        return Err(format!(
            "{} problem(s) with the exercises:\n  {}",
            problems.len(),
            problems.join("\n  ")
        ));
    }
    Ok(format!(
        "fix it: {} skeletons fail, solutions pass ({}); catch it: {} reference tests caught, \
         {} wrong tests and skeletons rejected ({})",
        fixes.len(),
        secs(fixes_took),
        catches.exercises,
        catches.rejected,
        secs(catches_took)
    ))
}

/// Where the page "Exercises" includes the table of versions from.
fn versions_file() -> PathBuf {
    root().join("book/src/generated/exercise-versions.md")
}

/// The table of every catch-it's and find-it's versions, from the list.
pub fn versions_table() -> String {
    let mut rows = Vec::new();
    for e in EXERCISES.iter().filter(|e| catch::graded_here(e)) {
        let name = |v: &list::Version| format!("`{}`", v.name);
        let wheats: Vec<String> = e
            .versions
            .iter()
            .filter(|v| v.bug.is_none())
            .map(name)
            .collect();
        let chaffs: Vec<String> = e
            .versions
            .iter()
            .filter_map(|v| v.bug.map(|bug| format!("{bug} `{}`", v.name)))
            .collect();
        rows.push(vec![
            format!("`{}`", key(e)),
            e.shows.to_owned(),
            wheats.join(", "),
            chaffs.join(", "),
        ]);
    }
    let header = [
        "Exercise",
        "The bug to catch",
        "Correct versions",
        "Buggy versions",
    ];
    md_table(&header, &rows)
}

/// `exercise versions`: prints the table, or writes it for the book.
fn versions(write: bool) -> Result {
    let table = versions_table();
    if write {
        let file = versions_file();
        std::fs::write(&file, &table).map_err(|e| format!("{}: {e}", file.display()))?;
        println!("wrote {}", shown(&file));
    } else {
        print!("{table}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_books_table_of_versions_is_the_lists() {
        let written = std::fs::read_to_string(versions_file()).unwrap_or_default();
        assert!(
            written == versions_table(),
            "book/src/generated/exercise-versions.md is not the list's table: run \
             `cargo xtask exercise versions --write`"
        );
    }

    #[test]
    fn model_rows_are_the_graders_exercises() {
        let rows: Vec<&Exercise> = EXERCISES.iter().filter(|e| e.kind == Kind::Model).collect();
        assert_eq!(rows.len(), crate::model_check::EXERCISES.len());
        for e in rows {
            let model = crate::model_check::find(e.name).unwrap();
            assert_eq!((e.id, e.chapter), (model.id, model.chapter), "{}", e.name);
            assert_eq!(
                root().join(e.solution_file),
                crate::model_check::reference(model)
            );
            assert_eq!(skeleton(e), crate::model_check::skeleton(model));
            assert_eq!(find(&format!("{}-model", e.id)).unwrap().name, e.name);
        }
    }

    #[test]
    fn exercises_are_found_by_their_key() {
        assert_eq!(find("c4").unwrap().name, "c4_one_lock");
        assert_eq!(find("C4").unwrap().name, "c4_one_lock");
        assert_eq!(find("c4_one_lock").unwrap().name, "c4_one_lock");
        assert_eq!(find("s1").unwrap().name, "s1_notice_earlier_task");
        assert_eq!(find("s1-catch").unwrap().name, "s1_catch_missed_task");
        assert_eq!(find("S1_catch").unwrap().name, "s1_catch_missed_task");
        assert_eq!(find("c1-catch").unwrap().name, "c1_catch_lost_wakeup");
        assert!(find("c9").is_err());
        assert!(find("c1").is_err(), "C1 has no fix-it: c4 fixes it");
    }

    #[test]
    fn keys_are_unique_and_names_start_with_them() {
        let keys: Vec<String> = EXERCISES.iter().map(key).collect();
        for (i, k) in keys.iter().enumerate() {
            assert!(!keys[..i].contains(k), "two exercises are `{k}`");
        }
        for e in EXERCISES {
            assert!(
                e.name.replace('_', "-").starts_with(&key(e)),
                "{} does not start with {}",
                e.name,
                key(e)
            );
        }
    }

    #[test]
    fn every_exercise_has_its_files() {
        for e in EXERCISES {
            assert!(skeleton(e).exists(), "{}", shown(&skeleton(e)));
            if e.kind == Kind::Find && !hints_file(e).exists() {
                continue; // a find-it's hints are optional: an exam has none
            }
            assert!(hints_file(e).exists(), "{}", shown(&hints_file(e)));
            assert!(root().join(e.solution_file).exists(), "{}", e.solution_file);
            assert!(
                root().join("book/src").join(e.chapter).exists(),
                "{}",
                e.chapter
            );
            assert!(
                hints(e).is_ok_and(|h| h.len() >= 2),
                "{}: at least two hints",
                e.name
            );
        }
    }

    #[test]
    fn the_progress_hash_is_fnv1a_and_the_same_on_every_toolchain() {
        // FNV-1a's published test vectors.
        assert_eq!(hash_of(""), "fnv1a64:cbf29ce484222325");
        assert_eq!(hash_of("a"), "fnv1a64:af63dc4c8601ec8c");
        assert_eq!(hash_of("foobar"), "fnv1a64:85944171f73967e8");
    }

    #[test]
    fn chapters_are_named_by_their_titles() {
        assert_eq!(
            chapter_title("ch02-sleep-based.md"),
            "A timer that oversleeps"
        );
        assert_eq!(chapter_title("exercises.md"), "Exercises");
    }

    #[test]
    fn kits_own_pause_is_a_known_mistake_of_every_catch_it() {
        // A catch-it with no window (N1, I6) arms no pause at all.
        for e in EXERCISES
            .iter()
            .filter(|e| e.kind == Kind::Catch && e.forced)
        {
            let text = "use kit::pause::Pause;\n#[test]\nfn t() {\n    let p = Pause::arm(\"x\", &name);\n}\n";
            let commented = "// not kit::pause::Pause, the exercise's\n#[test]\nfn t() {}\n";
            assert!(mistakes_in(e, commented).is_empty(), "{}", e.name);
            assert_eq!(mistakes_in(e, text).len(), 1, "{}", e.name);
            let skeleton_text = std::fs::read_to_string(skeleton(e)).unwrap();
            assert!(mistakes_in(e, &skeleton_text).is_empty(), "{}", e.name);
        }
    }

    #[test]
    fn a_dropped_guard_is_a_known_mistake_of_i1() {
        let i1 = find("i1").unwrap();
        let dropped =
            "fn take() {\n    let _ = token.block_on(Arc::clone(&s) as Arc<dyn Wake>)?;\n}";
        let kept =
            "fn take() {\n    let _blocked = token.block_on(Arc::clone(&s) as Arc<dyn Wake>)?;\n}";
        let commented =
            "// let _ = token.block_on(waker) would drop it\nlet _blocked = token.block_on(w)?;";
        assert_eq!(mistakes_in(i1, dropped).len(), 1);
        assert!(mistakes_in(i1, dropped)[0].contains("let _blocked"));
        assert!(mistakes_in(i1, kept).is_empty());
        assert!(mistakes_in(i1, commented).is_empty());
        let skeleton_text = std::fs::read_to_string(skeleton(i1)).unwrap();
        assert!(mistakes_in(i1, &skeleton_text).is_empty());
    }
}
