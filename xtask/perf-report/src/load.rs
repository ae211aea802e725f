//! What the last run measured: criterion's estimates and the perf benches'
//! rows, read back; the names the benches give their subjects; a fair
//! bench's spread over its rounds.

use std::collections::BTreeMap;
use std::path::Path;

use devkit::cmd::Result;
use serde_json::Value;

/// What the last run measured.
pub(crate) struct Run {
    /// Criterion's median estimate, in ns, by full id
    /// (`group/function/parameter`).
    pub(crate) criterion: BTreeMap<String, f64>,
    /// The perf benches' rows, by (bench, group, subject, stat).
    pub(crate) rows: BTreeMap<(String, String, String, String), f64>,
    /// Whether the perf benches ran in quick mode.
    pub(crate) quick: bool,
}

impl Run {
    pub(crate) fn load() -> Result<Run> {
        let target = devkit::cmd::target_dir();
        let mut criterion = BTreeMap::new();
        collect_criterion(&target.join("criterion"), &mut criterion);
        let mut rows = BTreeMap::new();
        let mut quick = false;
        if let Ok(dir) = std::fs::read_dir(target.join("bench-results")) {
            for entry in dir.flatten() {
                let Ok(text) = std::fs::read_to_string(entry.path()) else {
                    continue;
                };
                let Ok(doc) = serde_json::from_str::<Value>(&text) else {
                    continue;
                };
                let bench = doc["bench"].as_str().unwrap_or_default().to_owned();
                quick |= doc["quick"].as_bool().unwrap_or(false);
                for row in doc["rows"].as_array().into_iter().flatten() {
                    let key = ["group", "subject", "stat"]
                        .map(|k| row[k].as_str().unwrap_or("").to_owned());
                    let [group, subject, stat] = key;
                    if let Some(v) = row["value"].as_f64() {
                        rows.insert((bench.clone(), group, subject, stat), v);
                    }
                }
            }
        }
        if criterion.is_empty() && rows.is_empty() {
            return Err("no benchmark results: run `cargo bench -p perf` first".into());
        }
        Ok(Run {
            criterion,
            rows,
            quick,
        })
    }

    pub(crate) fn ns(&self, id: &str) -> Option<f64> {
        self.criterion.get(id).copied()
    }

    pub(crate) fn row(&self, bench: &str, group: &str, subject: &str, stat: &str) -> Option<f64> {
        self.rows
            .get(&(bench.into(), group.into(), subject.into(), stat.into()))
            .copied()
    }
}

/// Every `new/benchmark.json` under `dir`, with its `estimates.json`.
pub(crate) fn collect_criterion(dir: &Path, out: &mut BTreeMap<String, f64>) {
    // No criterion directory: no criterion results.
    for file in devkit::files::under(dir).unwrap_or_default() {
        if !file.ends_with("new/benchmark.json") {
            continue;
        }
        let id = read_json(&file).and_then(|b| b["full_id"].as_str().map(str::to_owned));
        let median = read_json(&file.with_file_name("estimates.json"))
            .and_then(|e| e["median"]["point_estimate"].as_f64());
        if let (Some(id), Some(median)) = (id, median) {
            out.insert(id, median);
        }
    }
}

pub(crate) fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

pub(crate) const DELAYS: [&str; 3] = ["100us", "1ms", "10ms"];
pub(crate) const TIMER: &str = "Timer (stage 5)";
pub(crate) const POOL: &str = "ScheduledThreadPool (stage 6)";
pub(crate) const PEER: &str = "scheduled-thread-pool";
/// The herd bench's row for the finished pool's way of waiting.
pub(crate) const SUCCESSOR: &str = "ours: leader and successor";
/// The hierarchical wheel's insert, in `wheel_schedule` and `instructions`.
pub(crate) const LEVELS: &str = "HierarchicalWheel's levels (stage 7)";
/// The hashed wheel's insert, in `wheel_schedule`.
pub(crate) const HASHED_CORE: &str = "HashedWheel's core (stage 7)";
/// The peer crate's plain wheel, which cannot cancel.
pub(crate) const QUAD: &str = "hierarchical_hash_wheel_timer's quad wheel";
/// The peer crate's wheel that can cancel, the one its timer thread runs.
pub(crate) const CANCELLABLE: &str = "hierarchical_hash_wheel_timer's cancellable wheel";

/// The sizes the fair schedule and cancel benches run at, as their groups
/// name them (`"random, 10^5 pending"`).
pub(crate) const FAIR_SIZES: [&str; 3] = ["10^3", "10^5", "10^6"];
/// The wheel bench's sizes, as its groups name them.
pub(crate) const FAIR_WHEEL_SIZES: [&str; 4] = ["10^3", "10^4", "10^5", "10^6"];
/// The `Timer`'s floor in `timer_schedule` and `instructions`.
pub(crate) const TIMER_FLOOR: &str = "floor: clock, lock, box, heap push";
/// The scheduled pool's floor, one shared allocation per task, in
/// `scheduled_pool` and `instructions`.
pub(crate) const POOL_FLOOR: &str = "floor: clock, lock, box, Arc, heap push";
/// The bare heap push the wheels' insert is set against.
pub(crate) const HEAP_PUSH: &str = "bare heap push";
/// The pools of `pool_throughput`.
pub(crate) const THROUGHPUT_OURS: &str = "ours (stage 6)";
pub(crate) const THROUGHPUT_CHANNEL: &str = "crossbeam-channel pool";
pub(crate) const THROUGHPUT_CRATE: &str = "threadpool";

/// Stage 9's claims (`durable`): the stores, as its groups begin.
pub(crate) const DURABLE_STORES: [&str; 2] = ["SQLite", "PostgreSQL"];
/// The shapes of its tables, as its groups end (`"SQLite, 10^3 jobs, all
/// due"`).
pub(crate) const DURABLE_SHAPES: [&str; 3] = [
    "10^2 jobs, all due",
    "10^3 jobs, all due",
    "10^4 jobs, 10^2 due",
];
/// Its counts of nodes, as it names them.
pub(crate) const DURABLE_NODES: [&str; 3] = ["1 node", "2 nodes", "4 nodes"];
/// Its floor: one conditional UPDATE by id, on one connection.
pub(crate) const DURABLE_FLOOR: &str = "floor: UPDATE … RETURNING by id, 1 connection";

/// The inputs of the schedule benches, as their groups name them.
pub(crate) const SCHEDULE_INPUTS: [&str; 2] = ["best case", "random"];
/// The inputs of the wheel bench, as its groups name them.
pub(crate) const WHEEL_INPUTS: [&str; 2] = ["empty job", "job captures"];

/// What a fair bench (`perf::rounds`) wrote for one subject or ratio: the
/// median of its rounds and their range.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Spread {
    pub(crate) median: f64,
    pub(crate) min: f64,
    pub(crate) max: f64,
}

impl Spread {
    /// `subject`'s spread in `bench`'s `group`, if the last run wrote it.
    pub(crate) fn of(run: &Run, bench: &str, group: &str, subject: &str) -> Option<Spread> {
        let stat = |s: &str| run.row(bench, group, subject, s);
        Some(Spread {
            median: stat("median")?,
            min: stat("min")?,
            max: stat("max")?,
        })
    }

    /// The spread of `a`'s time over `b`'s, round by round.
    pub(crate) fn ratio(run: &Run, bench: &str, group: &str, a: &str, b: &str) -> Option<Spread> {
        Spread::of(run, bench, group, &format!("{a} / {b}"))
    }

    /// "0.88× (0.80–0.97)": the median, then the least and the greatest
    /// round.
    pub(crate) fn times(&self) -> String {
        format!("{:.2}× ({:.2}–{:.2})", self.median, self.min, self.max)
    }

    /// "412 (380–470)", or "7.8 (6.4–10.2)" below 100: a time in ns whose
    /// unit the table's header gives.
    pub(crate) fn bare_ns(&self) -> String {
        let digits = if self.median < 100.0 { 1 } else { 0 };
        format!(
            "{:.digits$} ({:.digits$}–{:.digits$})",
            self.median, self.min, self.max
        )
    }

    /// "3952 (2870–4410)": a time per operation in ns as operations per
    /// second, the median's, then the slowest and the fastest round's.
    pub(crate) fn per_second(&self) -> String {
        let rate = |ns: f64| 1e9 / ns;
        format!(
            "{:.0} ({:.0}–{:.0})",
            rate(self.median),
            rate(self.max),
            rate(self.min)
        )
    }

    /// "412 ns (380–470)".
    pub(crate) fn ns(&self) -> String {
        let bare = self.bare_ns();
        match bare.split_once(' ') {
            Some((median, range)) => format!("{median} ns {range}"),
            None => bare,
        }
    }
}

/// How many rounds the fair benches ran, if the last run says (every
/// contest writes its count; a run has one count for all).
pub(crate) fn rounds(run: &Run) -> Option<f64> {
    run.rows
        .iter()
        .filter(|((_, _, subject, stat), _)| subject == "rounds" && stat == "count")
        .map(|(_, v)| *v)
        .reduce(f64::max)
}
