//! Running the demos as written ([`run`]) and building what they will
//! build ([`prepare`]).

use super::{Demo, HANG, Outcome, demos};
use crate::cmd::{Result, root, secs, target_dir};
use std::fs::File;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long one demo command may run before it counts as hung.
const LIMIT: Duration = Duration::from_secs(600);

/// `cargo xtask demos`: every demo, built first, then run as written and
/// judged; each command's time after the build is printed.
pub fn run() -> Result<String> {
    let demos = demos()?;
    let mut problems = named_but_not_shown(&demos)?;
    let (mut ran, mut skipped) = (0, 0);
    for demo in &demos {
        let at = format!("{}:{}", demo.page, demo.line);
        for show in &demo.shows {
            if !demo.quoted.contains(show.as_str()) {
                problems.push(format!(
                    "{at}: expects \"{show}\" but the page does not quote it"
                ));
            }
        }
        if let Outcome::NotRun(why) = &demo.outcome {
            println!(
                "  --    {at}: {} (not run: {why})",
                demo.commands.join("; ")
            );
            skipped += 1;
            continue;
        }
        let last = demo.commands.len().saturating_sub(1);
        for (i, command) in demo.commands.iter().enumerate() {
            if let Some(build) = build_form(command) {
                shell(&build, LIMIT)?;
            }
            let expected = if i == last {
                &demo.outcome
            } else {
                &Outcome::Passes
            };
            let run = shell(
                command,
                if *expected == Outcome::Hangs {
                    HANG
                } else {
                    LIMIT
                },
            )?;
            let verdict = judge(&run, expected, if i == last { &demo.shows } else { &[] });
            match verdict {
                Ok(()) => println!("  ok    {at}: {command} ({})", secs(run.took)),
                Err(e) => {
                    println!("  FAIL  {at}: {command}: {e}");
                    problems.push(format!("{at}: `{command}`: {e}"));
                }
            }
            ran += 1;
        }
    }
    if problems.is_empty() {
        Ok(format!(
            "{ran} command(s) ran as the pages say; {skipped} block(s) not run (each says why)"
        ))
    } else {
        Err(format!(
            "{} problem(s) with the teachers' demos:\n  {}",
            problems.len(),
            problems.join("\n  ")
        ))
    }
}

fn judge(run: &Ran, expected: &Outcome, shows: &[String]) -> Result {
    let ok = match (expected, run.exit) {
        (Outcome::Hangs, Exit::StillRunning) => true,
        (Outcome::Passes, Exit::Code(0)) => true,
        (Outcome::Fails, Exit::Code(c)) => c != 0,
        _ => false,
    };
    if !ok {
        return Err(format!(
            "expected it to {}, it {}; its last lines:\n{}",
            match expected {
                Outcome::Passes => "pass",
                Outcome::Fails => "fail",
                Outcome::Hangs => "hang",
                Outcome::NotRun(_) => "not run",
            },
            run.exit.describe(),
            tail(&run.output, 12)
        ));
    }
    let missing: Vec<&String> = shows
        .iter()
        .filter(|s| !run.output.contains(s.as_str()))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the output does not show {missing:?}; its last lines:\n{}",
            tail(&run.output, 12)
        ))
    }
}

fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Each `cargo ...` command in a table of the teachers' page (the live
/// demo of each session) must be a demo of a teacher's note, so that the
/// page's table and the chapters' notes name the same demos.
fn named_but_not_shown(demos: &[Demo]) -> Result<Vec<String>> {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let path = root().join("book/src/teachers.md");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let all: Vec<&String> = demos.iter().flat_map(|d| &d.commands).collect();
    let mut in_cell = false;
    let mut named = Vec::new();
    for event in Parser::new_ext(&text, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::TableCell) => in_cell = true,
            Event::End(TagEnd::TableCell) => in_cell = false,
            Event::Code(code) if in_cell && code.starts_with("cargo ") => {
                named.push(code.to_string());
            }
            _ => {}
        }
    }
    Ok(named
        .into_iter()
        .filter(|code| !all.contains(&code))
        .map(|code| format!("teachers.md names `{code}`, which no teacher's note shows as a demo"))
        .collect())
}

/// What `cargo xtask prepare` builds, and the build that stands for a
/// command: `cargo test ... -- x` is `cargo test ... --no-run`, `cargo
/// run ... -- x` is `cargo build ...`, `cargo bench` gets `--no-run`,
/// `cargo xtask loom P M` gets `--no-run`; a command with nothing to
/// build has none. The command's leading `NAME=value` words stay (the
/// build must see the same `RUSTFLAGS`).
pub fn build_form(command: &str) -> Option<String> {
    let words = shell_words(command);
    let at = words.iter().position(|w| !is_assignment(w))?;
    let (env, rest) = words.split_at(at);
    if rest.first().map(String::as_str) != Some("cargo") {
        return None;
    }
    let args: Vec<&str> = rest[1..]
        .iter()
        .map(String::as_str)
        .take_while(|w| *w != "--")
        .collect();
    let built: Vec<&str> = match args.split_first() {
        Some((&"test" | &"bench", _)) => args.iter().copied().chain(["--no-run"]).collect(),
        Some((&"run", tail)) => ["build"].into_iter().chain(tail.iter().copied()).collect(),
        Some((&"build", _)) => args.clone(),
        Some((&"xtask", tail)) if tail.first() == Some(&"loom") && tail.len() >= 3 => {
            args.iter().copied().chain(["--no-run"]).collect()
        }
        Some((&"xtask", _)) => vec!["build", "-p", "xtask"],
        _ => return None,
    };
    let mut out: Vec<String> = env.to_vec();
    out.push("cargo".to_string());
    out.extend(built.iter().map(|w| w.to_string()));
    Some(out.join(" "))
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
    })
}

/// Splits a command into words at spaces outside quotes; each word keeps
/// its quotes, so joining the words again gives a command the shell reads
/// the same way.
fn shell_words(command: &str) -> Vec<String> {
    let (mut words, mut word, mut quote) = (Vec::new(), String::new(), None);
    for c in command.chars() {
        match (quote, c) {
            (None, ' ' | '\t') => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                continue;
            }
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
        word.push(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// `cargo xtask prepare`: builds what the demos and the exercises will
/// build, so that nothing compiles in class: the workspace's tests and
/// examples, each demo's own build (a package built alone can resolve its
/// features differently, and a loom build is a build of its own), and the
/// exercises' checks (every version slot of the catch-its, the fix-its'
/// checks, the model-its' loom builds).
pub fn prepare() -> Result<String> {
    let start = Instant::now();
    let mut builds: Vec<String> = vec!["cargo test --workspace --no-run".to_string()];
    for demo in demos()? {
        builds.extend(demo.commands.iter().filter_map(|c| build_form(c)));
    }
    builds.push("cargo test -p exercises --features check --tests --no-run".to_string());
    for slot in 0..course_runner::exercise::SLOTS {
        let features = match slot {
            0 => "check".to_string(),
            k => format!("check,exercises/slot-{k}"),
        };
        builds.push(format!(
            "cargo test -p exercises-catch --features {features} --test catch --no-run"
        ));
    }
    builds.push(format!(
        "RUSTFLAGS=\"--cfg loom\" cargo test --release --target-dir {} -p {} --tests --no-run",
        crate::loom::target_dir(),
        course_runner::model_check::PACKAGE
    ));
    let mut seen = Vec::new();
    for build in builds {
        if seen.contains(&build) {
            continue;
        }
        println!("$ {build}");
        let ran = shell(&build, LIMIT)?;
        if ran.exit != Exit::Code(0) {
            return Err(format!("`{build}` failed:\n{}", tail(&ran.output, 30)));
        }
        seen.push(build);
    }
    Ok(format!(
        "prepared: {} builds in {}; every demo and exercise check now starts at once",
        seen.len(),
        secs(start.elapsed())
    ))
}

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Exit {
    Code(i32),
    /// Ended by a signal.
    Signal,
    /// Still running at the limit (then stopped).
    StillRunning,
}

impl Exit {
    fn describe(self) -> String {
        match self {
            Exit::Code(0) => "passed".to_string(),
            Exit::Code(c) => format!("exited with {c}"),
            Exit::Signal => "was killed by a signal".to_string(),
            Exit::StillRunning => "was still running".to_string(),
        }
    }
}

/// One command's run.
struct Ran {
    exit: Exit,
    output: String,
    took: Duration,
}

/// How long a stopped group gets after each signal before the next.
const GRACE: Duration = Duration::from_secs(2);

/// Runs `command` with `sh -c` from the workspace's top, as a teacher
/// would type it (no `RUST_BACKTRACE` from this environment), in a process
/// group of its own: at `limit` the whole group gets Ctrl-C's signal, then
/// a terminate, then a kill, [`GRACE`] apart, so a hanging example dies
/// with the cargo that ran it (a group started in the background ignores
/// Ctrl-C's signal, as a shell's `&` leaves it); the shell is always
/// reaped.
fn shell(command: &str, limit: Duration) -> Result<Ran> {
    shell_with(command, limit, GRACE)
}

fn shell_with(command: &str, limit: Duration, grace: Duration) -> Result<Ran> {
    let dir = target_dir().join("xtask");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("demo-{}.log", std::process::id()));
    let file = File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let err = file.try_clone().map_err(|e| e.to_string())?;
    let start = Instant::now();
    let mut child = Command::new("sh")
        .args(["-c", command])
        .current_dir(root())
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(err)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("could not start `{command}`: {e}"))?;
    let exit = wait_or_stop(&mut child, limit, grace)?;
    let took = start.elapsed();
    let output = std::fs::read(&path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let _ = std::fs::remove_file(&path);
    Ok(Ran { exit, output, took })
}

fn wait_or_stop(child: &mut Child, limit: Duration, grace: Duration) -> Result<Exit> {
    if let Some(exit) = wait_up_to(child, limit)? {
        return Ok(exit);
    }
    // The group is the shell's own pid (process_group(0)).
    let group = format!("-{}", child.id());
    for signal in ["-INT", "-TERM"] {
        let _ = Command::new("kill").args([signal, "--", &group]).status();
        if wait_up_to(child, grace)?.is_some() {
            return Ok(Exit::StillRunning);
        }
    }
    let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
    child.wait().map_err(|e| e.to_string())?;
    Ok(Exit::StillRunning)
}

/// The child's exit, if it ends within `limit`.
fn wait_up_to(child: &mut Child, limit: Duration) -> Result<Option<Exit>> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            return Ok(Some(status.code().map_or(Exit::Signal, Exit::Code)));
        }
        if start.elapsed() >= limit {
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_stand_for_commands() {
        assert_eq!(
            build_form("cargo test -p naive --test n1_busy_wait -- --ignored").as_deref(),
            Some("cargo test -p naive --test n1_busy_wait --no-run")
        );
        assert_eq!(
            build_form("KIT_TIME_SCALE=10 cargo run -p naive --example two_tasks").as_deref(),
            Some("KIT_TIME_SCALE=10 cargo build -p naive --example two_tasks")
        );
        assert_eq!(
            build_form("cargo run -p async-timer --example async_races -- a1").as_deref(),
            Some("cargo build -p async-timer --example async_races")
        );
        assert_eq!(
            build_form("cargo xtask loom condvar-timer loom_racy").as_deref(),
            Some("cargo xtask loom condvar-timer loom_racy --no-run")
        );
        assert_eq!(
            build_form(r#"RUSTFLAGS="--cfg loom" cargo bench -p perf"#).as_deref(),
            Some(r#"RUSTFLAGS="--cfg loom" cargo bench -p perf --no-run"#)
        );
        assert_eq!(
            build_form("cargo xtask stress --runs 3").as_deref(),
            Some("cargo build -p xtask")
        );
        assert_eq!(build_form(r#"top -H -p "$(pgrep -x two_tasks)""#), None);
    }

    #[test]
    fn a_hanging_command_is_stopped_and_reaped() {
        // Short graces: a test run in the background ignores SIGINT.
        let ran = shell_with(
            "sleep 30",
            Duration::from_millis(100),
            Duration::from_millis(50),
        )
        .unwrap();
        assert_eq!(ran.exit, Exit::StillRunning);
        assert!(ran.took < Duration::from_secs(20), "{:?}", ran.took);
        let ran = shell("echo hi; exit 3", LIMIT).unwrap();
        assert_eq!((ran.exit, ran.output.as_str()), (Exit::Code(3), "hi\n"));
    }
}
