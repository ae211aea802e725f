//! The progression matrix: rows are versions, columns are scenarios.

use std::thread;

use super::pools::PoolVersion;
use super::scenarios::{Outcome, Verdict};
use super::versions::Version;

/// A scenario, and the column it fills.
pub struct Column {
    /// The column's heading.
    pub heading: &'static str,
    /// Runs the scenario against a timer; `None` if it asks nothing of one.
    pub timer: Option<fn(&Version) -> Outcome>,
    /// Runs the scenario against stage 6's pool; `None` if it asks
    /// nothing of one.
    pub pool: Option<fn(&PoolVersion) -> Outcome>,
    /// Runs the scenario against any version, timer or pool, by its name;
    /// when set, it is the only one asked.
    pub any: Option<fn(&Version) -> Outcome>,
}

impl Column {
    /// A column of timer scenarios only.
    pub const fn timer(heading: &'static str, run: fn(&Version) -> Outcome) -> Column {
        Column {
            heading,
            timer: Some(run),
            pool: None,
            any: None,
        }
    }

    /// A column of pool scenarios only.
    pub const fn pool(heading: &'static str, run: fn(&PoolVersion) -> Outcome) -> Column {
        Column {
            heading,
            timer: None,
            pool: Some(run),
            any: None,
        }
    }

    /// A column asked of every version alike.
    pub const fn any(heading: &'static str, run: fn(&Version) -> Outcome) -> Column {
        Column {
            heading,
            timer: None,
            pool: None,
            any: Some(run),
        }
    }

    /// The outcome of this column's scenario for `version`: n/a if it has
    /// none for that kind of version.
    fn run(&self, version: &Version) -> Outcome {
        let outcome = match (&version.pool, self.timer, self.pool) {
            _ if self.any.is_some() => self.any.map(|run| run(version)),
            (None, Some(run), _) => Some(run(version)),
            (Some(pool), _, Some(run)) => Some(run(pool)),
            _ => None,
        };
        outcome.unwrap_or(Outcome {
            verdict: Verdict::NotApplicable,
            detail: "not asked of this kind of version".to_owned(),
            joined: true,
        })
    }
}

/// Runs every column's scenario against every version: the versions of one
/// column run side by side (each timer has its own thread names), the
/// columns one after another (so only one busy loop burns a core at once).
pub fn run(versions: &[Version], columns: &[Column]) -> Vec<Vec<Outcome>> {
    let mut by_column = Vec::new();
    for column in columns {
        let outcomes = thread::scope(|s| {
            let runs: Vec<_> = versions
                .iter()
                .map(|v| s.spawn(move || column.run(v)))
                .collect();
            runs.into_iter()
                .map(|r| r.join().expect("a scenario panicked"))
                .collect::<Vec<_>>()
        });
        by_column.push(outcomes);
    }
    // Transpose: one row per version.
    (0..versions.len())
        .map(|v| by_column.iter().map(|col| col[v].clone()).collect())
        .collect()
}

fn cell(outcome: &Outcome) -> String {
    match outcome.verdict {
        Verdict::Bug(id) => format!("**bug {id}**"),
        Verdict::Ok => "ok".to_owned(),
        Verdict::Unclear => "unclear".to_owned(),
        Verdict::NotApplicable => "n/a".to_owned(),
        Verdict::Cost(what) => what.to_owned(),
        Verdict::Accounted(n) => format!("all {n}"),
        Verdict::Lost { lost, twice } => format!("**{lost} lost, {twice} twice**"),
    }
}

/// The matrix's columns in four tables, so that each fits a page of the
/// book (and of its PDF): a caption and how many columns each takes, in
/// order; the last takes the rest and the "joined on drop" column.
const PARTS: [(&str, usize); 4] = [
    ("Waiting and stopping", 5),
    ("Long tasks, panics, periods and the herd", 4),
    ("Queues and pools", 4),
    ("Wheels, cost and load", usize::MAX),
];

/// The matrix as Markdown tables: what the snapshot and the book hold.
/// Only verdicts go in, never measurements, so it is the same on every run.
pub fn table(versions: &[Version], columns: &[Column], rows: &[Vec<Outcome>]) -> String {
    let mut out = String::new();
    let mut first: usize = 0;
    for (p, (caption, width)) in PARTS.iter().enumerate() {
        let last = p == PARTS.len() - 1;
        let end = first.saturating_add(*width).min(columns.len());
        let part = &columns[first..end];
        if !out.is_empty() {
            out += "\n";
        }
        out += &format!("**{caption}**\n\n| version |");
        for c in part {
            out += &format!(" {} |", c.heading);
        }
        if last {
            out += " joined on drop |";
        }
        out += "\n|---|";
        out += &"---|".repeat(part.len() + usize::from(last));
        out += "\n";
        for (v, row) in versions.iter().zip(rows) {
            out += &format!("| `{}` |", v.name);
            for outcome in &row[first..end] {
                out += &format!(" {} |", cell(outcome));
            }
            if last {
                let joined = row.iter().all(|o| o.joined);
                out += if joined { " yes |" } else { " **no** |" };
            }
            out += "\n";
        }
        first = end;
    }
    out
}

/// The measurements behind each cell, one line each.
pub fn details(versions: &[Version], columns: &[Column], rows: &[Vec<Outcome>]) -> String {
    let mut out = String::new();
    for (v, row) in versions.iter().zip(rows) {
        for (c, outcome) in columns.iter().zip(row) {
            out += &format!("{:<44} {:<28} {}\n", v.name, c.heading, outcome.detail);
        }
    }
    out
}
