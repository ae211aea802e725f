//! What the real JDK did, as `cargo xtask jdk` last recorded it: the
//! book's comparison tables read their "run" cells from here, so that no
//! claim about the JDK's behaviour in them is typed by hand.
//!
//! `cargo xtask jdk --write` writes `book/src/generated/jdk-side-by-side.md`
//! from a run of `jdk-side-by-side/java/SideBySide.java` on the JDK and of the
//! same scenarios on ours; CI fails if a fresh run differs from that file.
//! This module reads the JDK's column of it back.

use std::collections::HashMap;
use std::path::PathBuf;

/// The table `cargo xtask jdk --write` writes.
pub fn table_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../book/src/generated/jdk-side-by-side.md")
}

/// The JDK's side of the last recorded run.
#[derive(Debug, Clone)]
pub struct JdkRun {
    /// The JDK's version, as its header says: `17`.
    pub version: String,
    outcomes: HashMap<String, String>,
}

impl JdkRun {
    /// Reads the recorded table.
    ///
    /// # Errors
    /// If the file cannot be read, or has no header naming the JDK.
    pub fn load() -> Result<JdkRun, String> {
        let path = table_path();
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("{}: {e} (run `cargo xtask jdk --write`)", path.display()))?;
        JdkRun::parse(&text)
    }

    /// Parses a table: `| scenario | the JDK (17) | ours | same? |`, then
    /// one row per scenario.
    ///
    /// # Errors
    /// If no header names the JDK's version.
    pub fn parse(text: &str) -> Result<JdkRun, String> {
        let mut version = None;
        let mut outcomes = HashMap::new();
        for line in text.lines() {
            let cells: Vec<&str> = line
                .trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect();
            if cells.len() != 4 || cells[0].starts_with("---") {
                continue;
            }
            if cells[0] == "scenario" {
                version = cells[1]
                    .strip_prefix("the JDK (")
                    .and_then(|v| v.strip_suffix(')'))
                    .map(str::to_owned);
            } else {
                outcomes.insert(cells[0].to_owned(), cells[1].to_owned());
            }
        }
        let version = version.ok_or("no header `| scenario | the JDK (N) | ...`")?;
        Ok(JdkRun { version, outcomes })
    }

    /// What the JDK did in `scenario`.
    ///
    /// # Errors
    /// If the run has no such scenario.
    pub fn outcome(&self, scenario: &str) -> Result<&str, String> {
        self.outcomes
            .get(scenario)
            .map(String::as_str)
            .ok_or_else(|| format!("the JDK run has no scenario {scenario:?}"))
    }

    /// One cell: each scenario and what the JDK did in it, `<br>` between
    /// them (`scenario`: *outcome*).
    ///
    /// # Errors
    /// If the run lacks one of them.
    pub fn cell(&self, scenarios: &[&str]) -> Result<String, String> {
        let parts: Result<Vec<String>, String> = scenarios
            .iter()
            .map(|s| Ok(format!("{}: *{}*", short(s), self.outcome(s)?)))
            .collect();
        Ok(parts?.join("<br>"))
    }
}

/// A scenario's name without its `timer: `, `pool: ` or `scheduled pool: `
/// prefix, which the table's column already says.
fn short(scenario: &str) -> &str {
    ["timer: ", "pool: ", "scheduled pool: "]
        .iter()
        .find_map(|prefix| scenario.strip_prefix(prefix))
        .unwrap_or(scenario)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "\
| scenario | the JDK (17) | ours | same? |
|---|---|---|---|
| timer: schedule after cancel | refused (Timer already cancelled.) | refused (Timer already cancelled.) | same |
| timer: purge after 3 of 5 cancelled, not the head | removed 3 | removed 3 | same |
";

    #[test]
    fn reads_the_version_and_the_jdks_column() {
        let run = JdkRun::parse(TABLE).unwrap();
        assert_eq!(run.version, "17");
        assert_eq!(
            run.outcome("timer: schedule after cancel").unwrap(),
            "refused (Timer already cancelled.)"
        );
        assert_eq!(
            run.cell(&[
                "timer: schedule after cancel",
                "timer: purge after 3 of 5 cancelled, not the head"
            ])
            .unwrap(),
            "schedule after cancel: *refused (Timer already cancelled.)*<br>\
             purge after 3 of 5 cancelled, not the head: *removed 3*"
        );
        assert!(run.outcome("timer: no such thing").is_err());
    }

    #[test]
    fn a_table_without_its_header_is_an_error() {
        assert!(JdkRun::parse("| a | b | c | d |").is_err());
    }

    #[test]
    fn the_recorded_run_is_there() {
        let run = JdkRun::load().unwrap();
        assert!(run.outcome("timer: schedule after cancel").is_ok());
    }
}
