//! `cargo xtask jdk [--write]`: the book's claims about the JDK, checked by
//! running the JDK.
//!
//! `jdk-side-by-side/java/SideBySide.java` and the `jdk-side-by-side` binary
//! run the same scenarios, one on the JDK (`javac`/`java` from the PATH;
//! Debian's `openjdk-17-jdk-headless` is installed when either is missing),
//! one on our finished Timer and pools, and each prints `<scenario> |
//! <outcome>`. The two are shown side by side. Any difference fails, except
//! those listed in [`KNOWN`] with their reason; a listed difference that has
//! gone away fails too, so the list cannot go stale. The table and the list go
//! to `book/src/generated/jdk-side-by-side.md` with `--write`; without it, the
//! committed file must equal a fresh run's, so the book cannot drift.

use std::time::{Duration, Instant};

use crate::cmd::{Cmd, Result, banner, root, secs};
use devkit::markdown::md_table;

/// The table the book includes.
const TABLE: &str = "book/src/generated/jdk-side-by-side.md";

/// Where the Java classes are compiled to, never the source tree.
const CLASSES: &str = "target/jdk";

/// The Java side's first line names the JDK it ran on: `jdk | 17`.
const VERSION_LINE: &str = "jdk";

/// Scenarios where ours differs from the JDK on purpose, and why. The book
/// shows this list under the table.
const KNOWN: &[(&str, &str)] = &[
    (
        "timer: schedule after a task threw",
        "a task that throws kills a java.util.Timer; ours catches the panic, reports it \
         to the task's handle, and goes on, as the JDK's executors do (*A timer you can interrupt*, I6)",
    ),
    (
        "pool: execute after shutdown, policy caller runs",
        "the JDK's CallerRunsPolicy drops a task offered after shutdown without a word; \
         ours hands it back in the Err, so nothing a caller gives us is lost silently \
         (*A pool of workers*, T3)",
    ),
    (
        "scheduled pool: cancel a task due in an hour",
        "remove-on-cancel is off by default in the JDK, so a cancelled task stays queued \
         until its time (JDK-6602600); ours is on by default and removes it at once \
         (*Timers on a pool*, T14)",
    ),
];

/// Runs both sides; fails on any difference not listed, or on a table the
/// book holds that a fresh run does not reproduce (unless `write`). Returns
/// a one-line summary.
pub fn run(write: bool) -> Result<String> {
    banner("the JDK side by side: the same scenarios on the JDK and on ours");
    let start = Instant::now();
    ensure_java()?;
    std::fs::create_dir_all(root().join(CLASSES)).map_err(|e| format!("{CLASSES}: {e}"))?;
    Cmd::new(
        "javac",
        &["-d", CLASSES, "jdk-side-by-side/java/SideBySide.java"],
    )
    .run()?;
    // One JVM for every scenario: a JVM takes half a second to start.
    let jdk = read(Cmd::new("java", &["-cp", CLASSES, "SideBySide"]))?;
    let ours = read(Cmd::cargo(&["run", "-q", "-p", "jdk-side-by-side"]))?;
    let (mut jdk, ours) = (lines(&jdk)?, lines(&ours)?);
    let version = match jdk.first() {
        Some((first, version)) if first == VERSION_LINE => version.clone(),
        _ => {
            return Err(format!(
                "the Java side did not begin with `{VERSION_LINE} | <version>`"
            ));
        }
    };
    jdk.remove(0);
    let theirs: Vec<&str> = jdk.iter().map(|(s, _)| s.as_str()).collect();
    let mine: Vec<&str> = ours.iter().map(|(s, _)| s.as_str()).collect();
    if theirs != mine {
        return Err(format!(
            "the two sides ran different scenarios:\n  JDK:  {theirs:?}\n  ours: {mine:?}"
        ));
    }
    let (table, problems) = compare(&version, &jdk, &ours);
    println!("\nknown differences, by design:");
    for (scenario, why) in KNOWN {
        println!("  - {scenario}: {why}");
    }
    if !problems.is_empty() {
        return Err(format!(
            "the JDK and ours differ:\n  {}",
            problems.join("\n  ")
        ));
    }
    let path = root().join(TABLE);
    if write {
        std::fs::write(&path, &table).map_err(|e| format!("{TABLE}: {e}"))?;
        println!("wrote {TABLE}");
    } else {
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != table {
            return Err(format!(
                "{TABLE} is not what this run gives (the JDK here is {version}); \
                 run `cargo xtask jdk --write` and commit it"
            ));
        }
        println!("{TABLE} matches this run");
    }
    let summary = format!(
        "{} lines, the same on both sides but for {} known differences, on JDK {version}",
        jdk.len(),
        KNOWN.len(),
    );
    println!("{summary} ({})", secs(start.elapsed()));
    Ok(summary)
}

/// Prints each scenario's two outcomes and a verdict; returns the book's
/// table (with the known differences under it) and what went wrong.
fn compare(
    version: &str,
    jdk: &[(String, String)],
    ours: &[(String, String)],
) -> (String, Vec<String>) {
    let mut rows = Vec::new();
    let mut problems = Vec::new();
    for ((scenario, theirs), (_, mine)) in jdk.iter().zip(ours) {
        let known = KNOWN.iter().any(|(s, _)| s == scenario);
        let verdict = match (theirs == mine, known) {
            (true, false) => "same",
            (false, true) => "known difference",
            (false, false) => {
                problems.push(format!(
                    "{scenario}:\n      JDK:  {theirs}\n      ours: {mine}"
                ));
                "**DIFFERS**"
            }
            (true, true) => {
                problems.push(format!(
                    "{scenario}: listed as a known difference, but both say {theirs:?}"
                ));
                "same, but listed as a known difference"
            }
        };
        println!("  {scenario}\n      JDK:  {theirs}\n      ours: {mine}\n      {verdict}");
        rows.push(vec![scenario.as_str(), theirs, mine, verdict]);
    }
    let the_jdk = format!("the JDK ({version})");
    let mut table = md_table(&["scenario", &the_jdk, "ours", "same?"], &rows);
    table.push_str("\nKnown differences, by design:\n\n");
    for (scenario, why) in KNOWN {
        table.push_str(&format!("- *{scenario}*: {why}.\n"));
    }
    (table, problems)
}

/// Prints the command, then runs it and returns its standard output.
fn read(cmd: Cmd) -> Result<String> {
    println!("$ {}", cmd.display());
    cmd.read()
}

/// `<scenario> | <outcome>` lines, in order.
fn lines(output: &str) -> Result<Vec<(String, String)>> {
    output
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split_once(" | ")
                .map(|(s, o)| (s.trim().to_string(), o.trim().to_string()))
                .ok_or_else(|| format!("not `<scenario> | <outcome>`: {l:?}"))
        })
        .collect()
}

/// `java` and `javac` on the PATH, installing Debian's JDK 17 if either is
/// missing.
fn ensure_java() -> Result {
    // `-version` prints to standard error: captured, not shown.
    let have = |tool: &str| {
        Cmd::new(tool, &["-version"])
            .capture(Duration::from_secs(60))
            .is_ok_and(|run| run.passed())
    };
    if have("java") && have("javac") {
        return Ok(());
    }
    println!("java or javac is not on the PATH: installing Debian's openjdk-17-jdk-headless");
    crate::cmd::apt_install(&["openjdk-17-jdk-headless"])?;
    if have("java") && have("javac") {
        Ok(())
    } else {
        Err("installed openjdk-17-jdk-headless, but java or javac is still not on the PATH".into())
    }
}
