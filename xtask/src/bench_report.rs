//! `cargo xtask bench-report [--write]`: one table from the last benchmark
//! run (criterion's estimates under `target/criterion`, the perf benches'
//! results under `target/bench-results`): every figure as a ratio against
//! a peer or a floor measured in the same run, and each of issue 13's
//! targets with its verdict, missed ones too. `--write` also writes the
//! table and the performance chapter's plots to `book/src/generated/perf/`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use plotters::prelude::*;
use serde_json::Value;

use crate::cmd::{Cmd, Result, root};

/// Where `--write` puts the table and the plots.
const OUT: &str = "book/src/generated/perf";

/// What the last run measured.
struct Run {
    /// Criterion's median estimate, in ns, by full id
    /// (`group/function/parameter`).
    criterion: BTreeMap<String, f64>,
    /// The perf benches' rows, by (bench, group, subject, stat).
    rows: BTreeMap<(String, String, String, String), f64>,
    /// Whether the perf benches ran in quick mode.
    quick: bool,
}

impl Run {
    fn load() -> Result<Run> {
        let target = root().join("target");
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
            return Err("no benchmark results: run `cargo bench --workspace` first".into());
        }
        Ok(Run {
            criterion,
            rows,
            quick,
        })
    }

    fn ns(&self, id: &str) -> Option<f64> {
        self.criterion.get(id).copied()
    }

    fn row(&self, bench: &str, group: &str, subject: &str, stat: &str) -> Option<f64> {
        self.rows
            .get(&(bench.into(), group.into(), subject.into(), stat.into()))
            .copied()
    }
}

/// Every `new/benchmark.json` under `dir`, with its `estimates.json`.
fn collect_criterion(dir: &Path, out: &mut BTreeMap<String, f64>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "new") {
                let id = read_json(&path.join("benchmark.json"))
                    .and_then(|b| b["full_id"].as_str().map(str::to_owned));
                let median = read_json(&path.join("estimates.json"))
                    .and_then(|e| e["median"]["point_estimate"].as_f64());
                if let (Some(id), Some(median)) = (id, median) {
                    out.insert(id, median);
                }
            } else {
                collect_criterion(&path, out);
            }
        }
    }
}

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// A target's outcome.
enum Verdict {
    Met,
    Missed,
    NotMeasured,
}

struct Line {
    target: String,
    measured: String,
    verdict: Verdict,
}

fn line(target: impl Into<String>, measured: Option<(String, bool)>) -> Line {
    let target = target.into();
    match measured {
        Some((measured, ok)) => Line {
            target,
            measured,
            verdict: if ok { Verdict::Met } else { Verdict::Missed },
        },
        None => Line {
            target,
            measured: "not in the last run".into(),
            verdict: Verdict::NotMeasured,
        },
    }
}

/// `a / b`, printed.
fn ratio(a: f64, b: f64) -> String {
    format!("{:.2}x", a / b)
}

const TIMER_SIZES: [usize; 3] = [1025, 131_073, 1_048_577];
const POOL_SIZES: [usize; 4] = [1000, 10_000, 100_000, 1_000_000];
const WHEEL_SIZES: [usize; 4] = [1025, 8193, 131_073, 1_048_577];
const TIMER: &str = "Timer (stage 5)";
const POOL: &str = "ScheduledThreadPool (stage 6)";
const PEER: &str = "scheduled-thread-pool";

fn targets(run: &Run) -> Vec<Line> {
    let mut out = Vec::new();
    // Schedule.
    for n in TIMER_SIZES {
        let g = format!("timer_schedule/pending_{n}");
        let ours = run.ns(&format!("{g}/interrupt_cancel_timer"));
        let peer = run.ns(&format!("{g}/scheduled_thread_pool"));
        let floor = run.ns(&format!("{g}/floor"));
        out.push(line(
            format!("Timer schedule, {n} pending: at most 0.6x scheduled-thread-pool"),
            ours.zip(peer).map(|(o, p)| {
                (
                    format!("{o:.1} ns vs {p:.1} ns: {}", ratio(o, p)),
                    o <= 0.6 * p,
                )
            }),
        ));
        out.push(line(
            format!("Timer schedule, {n} pending: within 1.5x of the floor"),
            ours.zip(floor).map(|(o, f)| {
                (
                    format!("{o:.1} ns vs {f:.1} ns: {}", ratio(o, f)),
                    o <= 1.5 * f,
                )
            }),
        ));
    }
    for n in POOL_SIZES {
        let ours = run.ns(&format!("schedule/threadpool_executor/{n}"));
        let peer = run.ns(&format!("schedule/scheduled_thread_pool/{n}"));
        out.push(line(
            format!("scheduled pool schedule, {n} pending: at most 0.6x scheduled-thread-pool"),
            ours.zip(peer).map(|(o, p)| {
                (
                    format!("{o:.1} ns vs {p:.1} ns: {}", ratio(o, p)),
                    o <= 0.6 * p,
                )
            }),
        ));
    }
    let control = run.row(
        "syscalls",
        "futex calls per schedule",
        "Timer (stage 5), every task a new head",
        "futex calls",
    );
    for who in [TIMER, POOL] {
        let futex = run.row("syscalls", "futex calls per schedule", who, "futex calls");
        out.push(line(
            format!("{who}: no system call when the new task is not the head"),
            futex.zip(control).map(|(f, c)| {
                (
                    format!("{f:.3} futex calls per schedule (each a new head: {c:.2})"),
                    f == 0.0 && c > 0.5,
                )
            }),
        ));
    }
    // The hierarchical wheel.
    let levels = |n: usize| run.ns(&format!("wheel_schedule/pending_{n}/levels_insert"));
    let (small, large) = (WHEEL_SIZES[0], WHEEL_SIZES[3]);
    out.push(line(
        "hierarchical wheel: flat (10^6 pending at most 2x 10^3)",
        levels(small).zip(levels(large)).map(|(a, b)| {
            (
                format!("{a:.1} ns to {b:.1} ns: {}", ratio(b, a)),
                b <= 2.0 * a,
            )
        }),
    ));
    let heap = run.ns(&format!(
        "wheel_schedule/pending_{large}/heap_timer_schedule"
    ));
    out.push(line(
        "hierarchical wheel: at least 5x cheaper than the heap Timer at 10^6",
        heap.zip(levels(large)).map(|(h, l)| {
            (
                format!("{h:.1} ns vs {l:.1} ns: {}", ratio(h, l)),
                h >= 5.0 * l,
            )
        }),
    ));
    for n in WHEEL_SIZES {
        let peer = run.ns(&format!(
            "wheel_schedule/pending_{n}/peer_quad_wheel_insert"
        ));
        out.push(line(
            format!(
                "hierarchical wheel, {n} pending: within 1.2x of hierarchical_hash_wheel_timer"
            ),
            levels(n).zip(peer).map(|(l, p)| {
                (
                    format!("{l:.1} ns vs {p:.1} ns: {}", ratio(l, p)),
                    l <= 1.2 * p,
                )
            }),
        ));
    }
    // Cancel.
    for n in [100_000, 1_000_000] {
        let cancel = run.ns(&format!(
            "cancel_cost/cancel, scheduled pool, remove on cancel/{n}"
        ));
        let push = run.ns(&format!(
            "cancel_cost/schedule, scheduled pool, remove on cancel/{n}"
        ));
        out.push(line(
            format!("indexed heap, {n} pending: a cancel under 2x a push"),
            cancel.zip(push).map(|(c, p)| {
                (
                    format!("{c:.1} ns vs {p:.1} ns: {}", ratio(c, p)),
                    c < 2.0 * p,
                )
            }),
        ));
    }
    let held = run.row(
        "cancel_cost",
        "held after cancelling a tenth",
        "scheduled pool, remove on cancel",
        "entries",
    );
    out.push(line(
        "remove-on-cancel: no cancelled entry retained",
        held.map(|h| (format!("{h} held"), h == 0.0)),
    ));
    // Fire latency.
    for delay in ["100us", "1ms", "10ms"] {
        let g = format!("one at a time {delay}");
        let floor50 = run.row("fire_latency", &g, "park_timeout", "p50");
        let floor99 = run.row("fire_latency", &g, "park_timeout", "p99");
        for who in [TIMER, POOL] {
            let p50 = run.row("fire_latency", &g, who, "p50");
            out.push(line(
                format!("{who}, {delay}: p50 within 10 us of the timed wait's overshoot"),
                p50.zip(floor50)
                    .map(|(p, f)| (format!("{p:.1} us vs {f:.1} us"), p - f <= 10.0)),
            ));
            let p99 = run.row("fire_latency", &g, who, "p99");
            out.push(line(
                format!("{who}, {delay}: p99 within 2x of the timed wait's"),
                p99.zip(floor99).map(|(p, f)| {
                    (
                        format!("{p:.1} us vs {f:.1} us: {}", ratio(p, f)),
                        p <= 2.0 * f,
                    )
                }),
            ));
        }
    }
    for who in [TIMER, POOL] {
        let low = run.row(
            "fire_latency",
            "one at a time 1ms",
            &format!("{who}, slack 1 ns"),
            "p50",
        );
        out.push(line(
            format!("{who}, slack lowered, 1 ms: p50 under 25 us"),
            low.map(|p| (format!("{p:.1} us"), p < 25.0)),
        ));
        let ours = run.row("fire_latency", "under load", who, "p99");
        let peer = run.row("fire_latency", "under load", PEER, "p99");
        out.push(line(
            format!("{who}, under load: p99 at most 1/5 of scheduled-thread-pool's"),
            ours.zip(peer).map(|(o, p)| {
                (
                    format!("{o:.1} us vs {p:.1} us: {}", ratio(o, p)),
                    o <= p / 5.0,
                )
            }),
        ));
    }
    // Preempting wake-up, herd, idle.
    let floor = run.row(
        "preempt_wakeup",
        "schedule to run",
        "park/unpark (floor)",
        "p50",
    );
    for who in [TIMER, POOL] {
        let ours = run.row("preempt_wakeup", "schedule to run", who, "p50");
        out.push(line(
            format!("{who}: preempting wake-up at most 1.3x park/unpark"),
            ours.zip(floor).map(|(o, f)| {
                (
                    format!("{o:.1} us vs {f:.1} us: {}", ratio(o, f)),
                    o <= 1.3 * f,
                )
            }),
        ));
    }
    for workers in [4, 8] {
        let w = run.row(
            "herd",
            &format!("{workers} workers"),
            "ours: leader and successor",
            "wakeups/task",
        );
        out.push(line(
            format!("herd, {workers} workers: at most 1.1 wake-ups per fired task"),
            w.map(|w| (format!("{w:.2}"), w <= 1.1)),
        ));
    }
    for who in [
        "interrupt-cancel::timer",
        "threadpool-executor::scheduled",
        "wheel::hierarchical, 1 ms",
    ] {
        let w = run.row("idle_cost", "one task pending", who, "wakeups");
        out.push(line(
            format!("idle, {who}: zero wake-ups"),
            w.map(|w| (format!("{w:.0} /s"), w == 0.0)),
        ));
    }
    // The same targets in instructions (callgrind): one figure per call,
    // the same on every run.
    let ins = |who: &str, group: &str| run.row("instructions", group, who, "instructions");
    let (timer, pool, peer, floor) = (
        ins(TIMER, "schedule"),
        ins(POOL, "schedule"),
        ins(PEER, "schedule"),
        ins("floor: clock, lock, box, heap push", "schedule"),
    );
    for (who, ours) in [(TIMER, timer), (POOL, pool)] {
        out.push(line(
            format!("{who} schedule, in instructions: at most 0.6x scheduled-thread-pool"),
            ours.zip(peer)
                .map(|(o, p)| (format!("{o:.0} vs {p:.0}: {}", ratio(o, p)), o <= 0.6 * p)),
        ));
        out.push(line(
            format!("{who} schedule, in instructions: within 1.5x of the floor"),
            ours.zip(floor)
                .map(|(o, f)| (format!("{o:.0} vs {f:.0}: {}", ratio(o, f)), o <= 1.5 * f)),
        ));
    }
    let cancel = ins("ScheduledThreadPool, remove on cancel (stage 6)", "cancel");
    out.push(line(
        "indexed heap, in instructions: a cancel under 2x a push (its schedule)",
        cancel
            .zip(pool)
            .map(|(c, p)| (format!("{c:.0} vs {p:.0}: {}", ratio(c, p)), c < 2.0 * p)),
    ));
    let levels = ins("HierarchicalWheel's levels (stage 7)", "insert");
    let quad = ins("hierarchical_hash_wheel_timer's quad wheel", "insert");
    out.push(line(
        "hierarchical wheel insert, in instructions: within 1.2x of hierarchical_hash_wheel_timer",
        levels
            .zip(quad)
            .map(|(l, q)| (format!("{l:.0} vs {q:.0}: {}", ratio(l, q)), l <= 1.2 * q)),
    ));
    // Periodic drift and throughput.
    let expected = run.row("periodic_drift", "expected", "every period", "runs");
    for who in [TIMER, POOL] {
        let runs = run.row("periodic_drift", "fixed rate", who, "runs");
        out.push(line(
            format!("{who}: fixed rate every 1 ms, the count of periods +-1"),
            runs.zip(expected)
                .map(|(r, e)| (format!("{r:.0} of {e:.0}"), (r - e).abs() <= 1.0)),
        ));
    }
    let ours = run.ns("pool_throughput/2_workers/threadpool_executor");
    let reference = run.ns("pool_throughput/2_workers/crossbeam_channel");
    out.push(line(
        "pool throughput at least the crossbeam-channel reference pool's",
        ours.zip(reference)
            .map(|(o, r)| (format!("{:.2}x its throughput", r / o), o <= r)),
    ));
    out
}

fn table(run: &Run, lines: &[Line]) -> String {
    let mut out = String::new();
    let (met, missed, absent) = lines
        .iter()
        .fold((0, 0, 0), |(m, x, a), l| match l.verdict {
            Verdict::Met => (m + 1, x, a),
            Verdict::Missed => (m, x + 1, a),
            Verdict::NotMeasured => (m, x, a + 1),
        });
    let _ = writeln!(
        out,
        "{met} targets met, {missed} missed, {absent} not measured{}.\n",
        if run.quick {
            " (the workload benches ran in quick mode)"
        } else {
            ""
        }
    );
    out += "| target | measured | verdict |\n|---|---|---|\n";
    for l in lines {
        let verdict = match l.verdict {
            Verdict::Met => "met",
            Verdict::Missed => "**missed**",
            Verdict::NotMeasured => "not measured",
        };
        let _ = writeln!(out, "| {} | {} | {verdict} |", l.target, l.measured);
    }
    out
}

/// Every bench once, small: the workload benches in quick mode
/// (`PERF_QUICK=1`), criterion's with `--quick` and short warm-up and
/// measurement times; then the report (not written: a quick run's numbers
/// are not the book's). CI's check that every bench runs and the report
/// reads them all.
pub fn quick() -> Result<String> {
    Cmd::cargo(&[
        "bench",
        "--workspace",
        // Bench targets only: libtest's harness in the libraries' own
        // targets knows none of criterion's flags.
        "--bench",
        "*",
        "--",
        "--quick",
        "--warm-up-time",
        "0.05",
        "--measurement-time",
        "0.1",
    ])
    .env("PERF_QUICK", "1")
    .run()?;
    run(false)?;
    Ok("every bench once; the report read them".to_owned())
}

/// Prints the table; with `write`, also writes it and the plots to
/// [`OUT`].
pub fn run(write: bool) -> Result {
    let run = Run::load()?;
    let lines = targets(&run);
    let table = table(&run, &lines);
    print!("{table}");
    if write {
        let out = root().join(OUT);
        std::fs::create_dir_all(&out).map_err(|e| format!("{OUT}: {e}"))?;
        std::fs::write(out.join("targets.md"), &table)
            .map_err(|e| format!("{OUT}/targets.md: {e}"))?;
        for (name, text) in [
            ("floors.md", floors(&run)),
            ("latency.md", latency(&run)),
            ("wakeups.md", wakeups(&run)),
            ("idle.md", idle(&run)),
            ("cancel.md", cancel(&run)),
            ("instructions.md", instructions(&run)),
        ] {
            std::fs::write(out.join(name), text).map_err(|e| format!("{OUT}/{name}: {e}"))?;
        }
        plots(&run, &out)?;
        println!("wrote the tables and the plots to {OUT}");
    }
    Ok(())
}

/// A number for a table cell, or a dash.
fn cell(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "-".to_owned(), |v| format!("{v:.digits$}"))
}

/// The floors: criterion's medians from `physics`, and the timed wait's
/// overshoot from `fire_latency`.
fn floors(run: &Run) -> String {
    let mut out = String::from("| floor | median |\n|---|---|\n");
    for (label, id) in [
        ("`Instant::now`", "physics/Instant::now"),
        (
            "std `Mutex` lock and unlock, uncontended",
            "physics/std Mutex lock+unlock",
        ),
        (
            "parking_lot `Mutex` lock and unlock, uncontended",
            "physics/parking_lot Mutex lock+unlock",
        ),
        ("one compare-and-swap", "physics/compare_exchange"),
        (
            "std `Condvar::notify_one`, nobody waiting",
            "physics/std Condvar notify_one, no waiter",
        ),
        (
            "parking_lot `Condvar::notify_one`, nobody waiting",
            "physics/parking_lot Condvar notify_one, no waiter",
        ),
        (
            "unpark a parked thread, until it runs",
            "physics_handoff/park/unpark, one way",
        ),
    ] {
        let v = run.ns(id);
        let shown = match v {
            Some(ns) if ns >= 1000.0 => format!("{:.1} us", ns / 1000.0),
            Some(ns) => format!("{ns:.2} ns"),
            None => "-".to_owned(),
        };
        let _ = writeln!(out, "| {label} | {shown} |");
    }
    out += "\n| `park_timeout` ends late by | p50 | p99 |\n|---|---|---|\n";
    for delay in ["100us", "1ms", "10ms"] {
        for (who, label) in [
            ("park_timeout", "default slack"),
            ("park_timeout, slack 1 ns", "slack 1 ns"),
        ] {
            let g = format!("one at a time {delay}");
            let _ = writeln!(
                out,
                "| {delay}, {label} | {} us | {} us |",
                cell(run.row("fire_latency", &g, who, "p50"), 1),
                cell(run.row("fire_latency", &g, who, "p99"), 1)
            );
        }
    }
    out
}

/// How late tasks run: one at a time (p50 and p99 per delay), then under
/// load.
fn latency(run: &Run) -> String {
    let mut subjects: Vec<&str> = Vec::new();
    for (bench, group, subject, _) in run.rows.keys() {
        if bench == "fire_latency"
            && group == "one at a time 1ms"
            && !subjects.contains(&subject.as_str())
        {
            subjects.push(subject);
        }
    }
    let mut out = String::from(
        "| late by (us) | 100 us p50 | p99 | 1 ms p50 | p99 | 10 ms p50 | p99 |\n|---|---|---|---|---|---|---|\n",
    );
    for who in &subjects {
        let _ = write!(out, "| {who} |");
        for delay in ["100us", "1ms", "10ms"] {
            for stat in ["p50", "p99"] {
                let v = run.row("fire_latency", &format!("one at a time {delay}"), who, stat);
                let _ = write!(out, " {} |", cell(v, 1));
            }
        }
        out += "\n";
    }
    out += "\n| under load, late by (us) | p50 | p99 | max |\n|---|---|---|---|\n";
    for (bench, group, subject, stat) in run.rows.keys() {
        if bench == "fire_latency" && group == "under load" && stat == "p50" {
            let _ = writeln!(
                out,
                "| {subject} | {} | {} | {} |",
                cell(run.row(bench, group, subject, "p50"), 1),
                cell(run.row(bench, group, subject, "p99"), 1),
                cell(run.row(bench, group, subject, "max"), 1)
            );
        }
    }
    out
}

/// The herd's wake-ups per task, and the preempting wake-up.
fn wakeups(run: &Run) -> String {
    let mut out =
        String::from("| wake-ups per task fired | 4 workers | 8 workers |\n|---|---|---|\n");
    for who in [
        "ours: leader and successor",
        "the JDK's leader-follower",
        "herd (T10's bug)",
        "scheduled-thread-pool",
    ] {
        let at = |w: usize| run.row("herd", &format!("{w} workers"), who, "wakeups/task");
        let _ = writeln!(out, "| {who} | {} | {} |", cell(at(4), 2), cell(at(8), 2));
    }
    out += "\n| a task due now, while the thread sleeps on one an hour away: schedule to run (us) | p50 | p99 |\n|---|---|---|\n";
    for (bench, group, subject, stat) in run.rows.keys() {
        if bench == "preempt_wakeup" && stat == "p50" {
            let _ = writeln!(
                out,
                "| {subject} | {} | {} |",
                cell(run.row(bench, group, subject, "p50"), 1),
                cell(run.row(bench, group, subject, "p99"), 1)
            );
        }
    }
    out
}

/// Idle cost, every version.
fn idle(run: &Run) -> String {
    let mut out = String::from(
        "| one task pending, nothing due | CPU (ms/s) | wake-ups (/s) |\n|---|---|---|\n",
    );
    let mut seen = Vec::new();
    for (bench, group, subject, _) in run.rows.keys() {
        if bench == "idle_cost" && !seen.contains(subject) {
            seen.push(subject.clone());
            let _ = writeln!(
                out,
                "| `{subject}` | {} | {} |",
                cell(run.row(bench, group, subject, "cpu"), 2),
                cell(run.row(bench, group, subject, "wakeups"), 0)
            );
        }
    }
    out
}

/// Cancel and schedule at 10^5 and 10^6 pending, and what is held.
fn cancel(run: &Run) -> String {
    let mut out = String::from(
        "| ns, median | cancel, 10^5 | cancel, 10^6 | schedule, 10^5 | schedule, 10^6 | held after cancelling a tenth |\n|---|---|---|---|---|---|\n",
    );
    for who in [
        "scheduled pool, remove on cancel",
        "scheduled pool, lazy",
        "Timer",
        "HashedWheel",
        "HierarchicalWheel",
        "scheduled-thread-pool",
    ] {
        let at = |what: &str, n: usize| run.ns(&format!("cancel_cost/{what}, {who}/{n}"));
        let held = run.row(
            "cancel_cost",
            "held after cancelling a tenth",
            who,
            "entries",
        );
        let _ = writeln!(
            out,
            "| {who} | {} | {} | {} | {} | {} |",
            cell(at("cancel", 100_000), 1),
            cell(at("cancel", 1_000_000), 1),
            cell(at("schedule", 100_000), 1),
            cell(at("schedule", 1_000_000), 1),
            held.map_or_else(|| "cannot say".to_owned(), |h| format!("{h:.0}"))
        );
    }
    out
}

/// Instructions per call, from callgrind.
fn instructions(run: &Run) -> String {
    let mut out = String::from("| instructions per call (callgrind) | | |\n|---|---|---|\n");
    for ((bench, group, subject, _), v) in &run.rows {
        if bench == "instructions" {
            let _ = writeln!(out, "| {group} | {subject} | {v:.0} |");
        }
    }
    out
}

fn plots(run: &Run, out: &Path) -> Result {
    schedule_cost(run, &out.join("schedule-cost.svg"))
        .map_err(|e| format!("schedule-cost.svg: {e}"))?;
    lateness(run, &out.join("lateness.svg")).map_err(|e| format!("lateness.svg: {e}"))?;
    herd(run, &out.join("herd.svg")).map_err(|e| format!("herd.svg: {e}"))?;
    throughput(run, &out.join("throughput.svg")).map_err(|e| format!("throughput.svg: {e}"))?;
    Ok(())
}

type Plot = std::result::Result<(), Box<dyn std::error::Error>>;

const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// Schedule cost against the count pending, log-scaled: the heap Timer,
/// a bare heap push, the two wheels' inserts and the peer wheel.
fn schedule_cost(run: &Run, path: &PathBuf) -> Plot {
    let series = [
        ("heap Timer::schedule", "heap_timer_schedule"),
        ("bare BinaryHeap::push", "heap_push"),
        ("hashed wheel insert", "hashed_core_insert"),
        ("hierarchical wheel insert", "levels_insert"),
        ("hierarchical_hash_wheel_timer", "peer_quad_wheel_insert"),
    ];
    let points: Vec<(&str, Vec<(f64, f64)>)> = series
        .iter()
        .map(|(label, f)| {
            let pts = WHEEL_SIZES
                .iter()
                .filter_map(|&n| {
                    run.ns(&format!("wheel_schedule/pending_{n}/{f}"))
                        .map(|v| (n as f64, v))
                })
                .collect();
            (*label, pts)
        })
        .collect();
    let top = points
        .iter()
        .flat_map(|(_, p)| p.iter().map(|&(_, v)| v))
        .fold(10.0, f64::max)
        * 1.15;
    let root = SVGBackend::new(path, (720, 420)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "One schedule, by timers pending (ns, median)",
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d((800f64..1.3e6f64).log_scale(), 0f64..top)?;
    chart
        .configure_mesh()
        .x_desc("timers pending")
        .y_desc("ns")
        .x_label_formatter(&|x| format!("{x:.0e}"))
        .draw()?;
    for (i, (label, pts)) in points.into_iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
            });
        chart.draw_series(pts.into_iter().map(|p| Circle::new(p, 3, colour.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

/// Horizontal bars, one per (label, value), with a title and a unit.
fn bars(path: &PathBuf, title: &str, unit: &str, items: &[(String, f64)]) -> Plot {
    let height = 80 + 34 * items.len() as u32;
    let root = SVGBackend::new(path, (720, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let top = items.iter().map(|(_, v)| *v).fold(0.0, f64::max).max(1e-9) * 1.25;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(250)
        .build_cartesian_2d(0f64..top, (0..items.len()).into_segmented())?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc(unit)
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => items.get(*i).map(|(l, _)| l.clone()).unwrap_or_default(),
            _ => String::new(),
        })
        .draw()?;
    chart.draw_series(items.iter().enumerate().map(|(i, (_, v))| {
        let colour = COLOURS[i % COLOURS.len()];
        let mut bar = Rectangle::new(
            [
                (0.0, SegmentValue::Exact(i)),
                (*v, SegmentValue::Exact(i + 1)),
            ],
            colour.mix(0.8).filled(),
        );
        bar.set_margin(6, 6, 0, 0);
        bar
    }))?;
    chart.draw_series(items.iter().enumerate().map(|(i, (_, v))| {
        Text::new(
            format!("{v:.1}"),
            (*v, SegmentValue::CenterOf(i)),
            ("sans-serif", 13),
        )
    }))?;
    root.present()?;
    Ok(())
}

/// How late one task at a time fires at 1 ms, p50, with the floor.
fn lateness(run: &Run, path: &PathBuf) -> Plot {
    let who = [
        "park_timeout",
        "park_timeout, slack 1 ns",
        TIMER,
        "Timer (stage 5), slack 1 ns",
        POOL,
        PEER,
        "futures-timer",
        "crossbeam after",
        "HierarchicalWheel, 1 ms (stage 7)",
    ];
    let items: Vec<(String, f64)> = who
        .iter()
        .filter_map(|w| {
            run.row("fire_latency", "one at a time 1ms", w, "p50")
                .map(|v| ((*w).to_owned(), v))
        })
        .collect();
    bars(
        path,
        "How late a task due in 1 ms runs (p50)",
        "microseconds late",
        &items,
    )
}

fn herd(run: &Run, path: &PathBuf) -> Plot {
    let who = [
        "ours: leader and successor",
        "the JDK's leader-follower",
        "herd (T10's bug)",
        "scheduled-thread-pool",
    ];
    let items: Vec<(String, f64)> = [4, 8]
        .iter()
        .flat_map(|w| {
            who.iter().filter_map(move |s| {
                run.row("herd", &format!("{w} workers"), s, "wakeups/task")
                    .map(|v| (format!("{s}, {w} workers"), v))
            })
        })
        .collect();
    bars(
        path,
        "Worker wake-ups per task fired (a task every 1 ms)",
        "wake-ups per task",
        &items,
    )
}

fn throughput(run: &Run, path: &PathBuf) -> Plot {
    let who = [
        ("ours (stage 6)", "threadpool_executor"),
        ("crossbeam-channel pool", "crossbeam_channel"),
        ("threadpool crate", "threadpool"),
    ];
    // Criterion's time is per batch of tasks; the bench's throughput is
    // what a reader wants: batches per second, relative to the reference.
    let reference = run.ns("pool_throughput/2_workers/crossbeam_channel");
    let items: Vec<(String, f64)> = who
        .iter()
        .filter_map(|(label, f)| {
            let t = run.ns(&format!("pool_throughput/2_workers/{f}"))?;
            Some(((*label).to_owned(), reference? / t))
        })
        .collect();
    bars(
        path,
        "Pool throughput, relative to the crossbeam-channel pool",
        "x the reference's throughput",
        &items,
    )
}
