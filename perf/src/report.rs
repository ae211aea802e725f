//! What a workload bench measured, as JSON for `cargo xtask bench-report`,
//! and as a table on the terminal.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::rounds::Spread;

/// The directory the benches write to: `target/bench-results/`.
pub fn dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("bench-results")
}

/// One bench's measurements: rows of (group, subject, statistic, value,
/// unit), printed as they are added.
pub struct Report {
    bench: &'static str,
    rows: Vec<Value>,
}

impl Report {
    /// An empty report for `bench`.
    pub fn new(bench: &'static str) -> Report {
        println!("{bench}{}", if crate::quick() { " (quick)" } else { "" });
        Report {
            bench,
            rows: Vec::new(),
        }
    }

    /// Adds one measurement, and prints it.
    pub fn add(&mut self, group: &str, subject: &str, stat: &str, value: f64, unit: &str) {
        println!("  {group:<28} {subject:<34} {stat:<10} {value:>12.2} {unit}");
        self.push(group, subject, stat, value, unit);
    }

    /// Adds the median and range of one subject's rounds (or of a ratio's)
    /// as three rows, stats `median`, `min` and `max`, and prints them on
    /// one line.
    pub fn add_spread(&mut self, group: &str, subject: &str, spread: Spread, unit: &str) {
        println!(
            "  {group:<36} {subject:<64} median {:>9.2} {unit:<5} range {:.2} to {:.2}",
            spread.median, spread.min, spread.max
        );
        for (stat, value) in [
            ("median", spread.median),
            ("min", spread.min),
            ("max", spread.max),
        ] {
            self.push(group, subject, stat, value, unit);
        }
    }

    /// Adds one measurement without printing it.
    pub fn push(&mut self, group: &str, subject: &str, stat: &str, value: f64, unit: &str) {
        self.rows.push(json!({
            "group": group,
            "subject": subject,
            "stat": stat,
            "value": value,
            "unit": unit,
        }));
    }

    /// Writes `target/bench-results/<bench>.json`.
    ///
    /// # Panics
    /// If the file cannot be written: a bench whose results vanish must
    /// not look like it passed.
    pub fn write(self) {
        let dir = dir();
        std::fs::create_dir_all(&dir).expect("create target/bench-results");
        let path = dir.join(format!("{}.json", self.bench));
        let doc = json!({
            "bench": self.bench,
            "quick": crate::quick(),
            "rows": self.rows,
        });
        std::fs::write(&path, serde_json::to_string_pretty(&doc).expect("JSON"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!("wrote {}", path.display());
    }
}
