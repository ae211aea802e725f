//! `cargo xtask jdk [--write]`: the book's claims about the JDK, checked by
//! running the JDK.
//!
//! `jdk/java/SideBySide.java` and the `jdk-side-by-side` binary run the same
//! scenarios, one on the JDK (`javac`/`java` from the PATH; Debian's
//! `openjdk-17-jdk-headless` is installed when `java` is missing), one on
//! our finished Timer and pool, and each prints `<scenario> | <outcome>`.
//! The two are shown side by side. Any difference fails, except those
//! listed in [`BY_DESIGN`] with their reason; a listed difference that has
//! gone away fails too, so the list cannot go stale. The table goes to
//! `book/src/generated/jdk-side-by-side.md` with `--write`; without it, the
//! committed table must equal a fresh run's, so the book cannot drift.

use crate::cmd::{Cmd, Result, banner, root};

/// The table the book includes.
const TABLE: &str = "book/src/generated/jdk-side-by-side.md";

/// Where the Java classes are compiled to, never the source tree.
const CLASSES: &str = "target/jdk";

/// Scenarios where ours differs from the JDK on purpose, and why.
const BY_DESIGN: &[(&str, &str)] = &[
    (
        "timer: schedule after a task threw",
        "a panicking task is caught and reported, and the timer goes on (I6)",
    ),
    (
        "pool: execute after shutdown, policy caller runs",
        "the task comes back to the caller instead of being dropped: nothing accepted is lost",
    ),
];

/// Runs both sides; fails on any difference not listed, or on a table the
/// book holds that a fresh run does not reproduce (unless `write`).
pub fn run(write: bool) -> Result {
    banner("the JDK side by side: the same scenarios on the JDK and on ours");
    ensure_java()?;
    let classes = root().join(CLASSES);
    std::fs::create_dir_all(&classes).map_err(|e| format!("{CLASSES}: {e}"))?;
    Cmd::new("javac", &["-d", CLASSES, "jdk/java/SideBySide.java"])
        .dir(&root())
        .run()?;
    let jdk = Cmd::new("java", &["-cp", CLASSES, "SideBySide"])
        .dir(&root())
        .read()?;
    let ours = Cmd::cargo(&["run", "-q", "-p", "jdk-side-by-side"]).read()?;
    let (jdk, ours) = (lines(&jdk)?, lines(&ours)?);
    let scenarios: Vec<&str> = jdk.iter().map(|(s, _)| s.as_str()).collect();
    let ours_scenarios: Vec<&str> = ours.iter().map(|(s, _)| s.as_str()).collect();
    if scenarios != ours_scenarios {
        return Err(format!(
            "the two sides ran different scenarios:\n  JDK:  {scenarios:?}\n  ours: {ours_scenarios:?}"
        ));
    }
    let mut table = String::from("| scenario | the JDK (17) | ours | |\n|---|---|---|---|\n");
    let mut problems = Vec::new();
    for ((scenario, theirs), (_, mine)) in jdk.iter().zip(&ours) {
        let reason = BY_DESIGN
            .iter()
            .find(|(s, _)| s == scenario)
            .map(|(_, why)| *why);
        let verdict = match (theirs == mine, reason) {
            (true, None) => "same".to_string(),
            (false, Some(why)) => format!("differs by design: {why}"),
            (false, None) => {
                problems.push(format!(
                    "{scenario}: the JDK says {theirs:?}, ours {mine:?}"
                ));
                "**DIFFERS**".to_string()
            }
            (true, Some(_)) => {
                problems.push(format!(
                    "{scenario}: listed as differing by design, but both say {theirs:?}"
                ));
                "same (listed as differing)".to_string()
            }
        };
        println!("  {scenario}\n      JDK:  {theirs}\n      ours: {mine}\n      {verdict}");
        table.push_str(&format!("| {scenario} | {theirs} | {mine} | {verdict} |\n"));
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
                "{TABLE} is not what a fresh run gives; run `cargo xtask jdk --write` and commit it"
            ));
        }
        println!("{TABLE} matches this run");
    }
    Ok(())
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

/// `java` and `javac` on the PATH, installing Debian's JDK 17 if missing.
fn ensure_java() -> Result {
    let have = |tool: &str| Cmd::new(tool, &["-version"]).read().is_ok();
    if have("java") && have("javac") {
        return Ok(());
    }
    println!("java or javac is missing: installing Debian's openjdk-17-jdk-headless");
    let root_user = Cmd::new("id", &["-u"])
        .read()
        .is_ok_and(|id| id.trim() == "0");
    let apt = |args: &[&str]| {
        if root_user {
            Cmd::new("apt-get", args).run()
        } else {
            let mut with_sudo = vec!["apt-get"];
            with_sudo.extend_from_slice(args);
            Cmd::new("sudo", &with_sudo).run()
        }
    };
    apt(&["update"])?;
    apt(&["install", "-y", "openjdk-17-jdk-headless"])?;
    if have("java") && have("javac") {
        Ok(())
    } else {
        Err("installed openjdk-17-jdk-headless, but java or javac is still not on the PATH".into())
    }
}
