//! `cargo xtask bench-report [--write]`: the targets of the last benchmark
//! run (criterion's estimates under `target/criterion`, the perf benches'
//! results under `target/bench-results`), each figure as a ratio against a
//! peer or a floor measured in the same run, each target with its verdict,
//! missed ones too, grouped under headings. `--write` also writes them and
//! the performance chapter's other tables, one table per file (at most four
//! short columns, so that each fits a printed page), and its plots to
//! `book/src/generated/perf/`. The chapter includes every file by name and
//! puts its own words between them, so a new run changes no prose.

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
        let target = crate::cmd::target_dir();
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

/// The targets under one heading of the report.
struct Group {
    title: &'static str,
    lines: Vec<Line>,
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
    format!("{:.2}×", a / b)
}

/// A delay as the benches name their groups ("100us", "1ms"), as the book
/// writes it ("100 µs", "1 ms").
fn delay(label: &str) -> String {
    if let Some(n) = label.strip_suffix("us") {
        format!("{n} µs")
    } else if let Some(n) = label.strip_suffix("ms") {
        format!("{n} ms")
    } else {
        label.to_owned()
    }
}

const DELAYS: [&str; 3] = ["100us", "1ms", "10ms"];
const TIMER: &str = "Timer (stage 5)";
const POOL: &str = "ScheduledThreadPool (stage 6)";
const PEER: &str = "scheduled-thread-pool";
/// The herd bench's row for the finished pool's way of waiting.
const SUCCESSOR: &str = "ours: leader and successor";
/// The hierarchical wheel's insert, in `wheel_schedule` and `instructions`.
const LEVELS: &str = "HierarchicalWheel's levels (stage 7)";
/// The hashed wheel's insert, in `wheel_schedule`.
const HASHED_CORE: &str = "HashedWheel's core (stage 7)";
/// The peer crate's plain wheel, which cannot cancel.
const QUAD: &str = "hierarchical_hash_wheel_timer's quad wheel";
/// The peer crate's wheel that can cancel, the one its timer thread runs.
const CANCELLABLE: &str = "hierarchical_hash_wheel_timer's cancellable wheel";

/// The sizes the fair schedule and cancel benches run at, as their groups
/// name them (`"random, 10^5 pending"`).
const FAIR_SIZES: [&str; 3] = ["10^3", "10^5", "10^6"];
/// The wheel bench's sizes, as its groups name them.
const FAIR_WHEEL_SIZES: [&str; 4] = ["10^3", "10^4", "10^5", "10^6"];
/// The `Timer`'s floor in `timer_schedule` and `instructions`.
const TIMER_FLOOR: &str = "floor: clock, lock, box, heap push";
/// The scheduled pool's floor, one shared allocation per task, in
/// `scheduled_pool` and `instructions`.
const POOL_FLOOR: &str = "floor: clock, lock, box, Arc, heap push";
/// The bare heap push the wheels' insert is set against.
const HEAP_PUSH: &str = "bare heap push";
/// The pools of `pool_throughput`.
const THROUGHPUT_OURS: &str = "ours (stage 6)";
const THROUGHPUT_CHANNEL: &str = "crossbeam-channel pool";
const THROUGHPUT_CRATE: &str = "threadpool";

/// What a fair bench (`perf::rounds`) wrote for one subject or ratio: the
/// median of its rounds and their range.
#[derive(Debug, Clone, Copy)]
struct Spread {
    median: f64,
    min: f64,
    max: f64,
}

impl Spread {
    /// `subject`'s spread in `bench`'s `group`, if the last run wrote it.
    fn of(run: &Run, bench: &str, group: &str, subject: &str) -> Option<Spread> {
        let stat = |s: &str| run.row(bench, group, subject, s);
        Some(Spread {
            median: stat("median")?,
            min: stat("min")?,
            max: stat("max")?,
        })
    }

    /// The spread of `a`'s time over `b`'s, round by round.
    fn ratio(run: &Run, bench: &str, group: &str, a: &str, b: &str) -> Option<Spread> {
        Spread::of(run, bench, group, &format!("{a} / {b}"))
    }

    /// "0.88× (0.80–0.97)": the median, then the least and the greatest
    /// round.
    fn times(&self) -> String {
        format!("{:.2}× ({:.2}–{:.2})", self.median, self.min, self.max)
    }

    /// "412 (380–470)", or "7.8 (6.4–10.2)" below 100: a time in ns whose
    /// unit the table's header gives.
    fn bare_ns(&self) -> String {
        let digits = if self.median < 100.0 { 1 } else { 0 };
        format!(
            "{:.digits$} ({:.digits$}–{:.digits$})",
            self.median, self.min, self.max
        )
    }

    /// "412 ns (380–470)".
    fn ns(&self) -> String {
        let bare = self.bare_ns();
        match bare.split_once(' ') {
            Some((median, range)) => format!("{median} ns {range}"),
            None => bare,
        }
    }
}

/// How many rounds the fair benches ran, if the last run says (every
/// contest writes its count; a run has one count for all).
fn rounds(run: &Run) -> Option<f64> {
    run.rows
        .iter()
        .filter(|((_, _, subject, stat), _)| subject == "rounds" && stat == "count")
        .map(|(_, v)| *v)
        .reduce(f64::max)
}

/// A target met when a fair ratio's median is at most `limit`.
fn median_at_most(target: String, spread: Option<Spread>, limit: f64) -> Line {
    line(target, spread.map(|s| (s.times(), s.median <= limit)))
}

/// A target met when a fair ratio's median is at least `limit`.
fn median_at_least(target: String, spread: Option<Spread>, limit: f64) -> Line {
    line(target, spread.map(|s| (s.times(), s.median >= limit)))
}

/// Every target, under the heading of what it measures, in the order the
/// chapter explains them. A quick run (`PERF_QUICK=1`, a smoke run) gets
/// no verdict: its figures are shown, every target "not measured".
fn targets(run: &Run) -> Vec<Group> {
    let mut groups = vec![
        Group {
            title: "Scheduling",
            lines: schedule_targets(run),
        },
        Group {
            title: "The hierarchical wheel",
            lines: wheel_targets(run),
        },
        Group {
            title: "Cancelling",
            lines: cancel_targets(run),
        },
        Group {
            title: "How late a task runs",
            lines: lateness_targets(run),
        },
        Group {
            title: "Wake-ups and idle",
            lines: wakeup_targets(run),
        },
        Group {
            title: "In instructions",
            lines: instruction_targets(run),
        },
        Group {
            title: "Periodic runs and throughput",
            lines: periodic_targets(run),
        },
        Group {
            title: "Timers for futures",
            lines: async_targets(run),
        },
    ];
    if run.quick {
        for l in groups.iter_mut().flat_map(|g| &mut g.lines) {
            if !matches!(l.verdict, Verdict::NotMeasured) {
                l.measured = format!("{}; a quick run: no verdict", l.measured);
                l.verdict = Verdict::NotMeasured;
            }
        }
    }
    groups
}

/// One `schedule` against the peer and the floor, in time, in the fair
/// benches' interleaved rounds on random inputs (deadlines over an hour,
/// a closure that captures); and whether a schedule that does not change
/// the head makes a system call.
fn schedule_targets(run: &Run) -> Vec<Line> {
    let mut out = Vec::new();
    for size in FAIR_SIZES {
        let g = format!("random, {size} pending");
        let mut lead = median_at_most(
            format!("{POOL}, random, {size} pending: at most 0.9× {PEER}"),
            Spread::ratio(run, "scheduled_pool", &g, POOL, PEER),
            0.9,
        );
        // Beside it, the floor against the same peer: a pool that does
        // no more than hand out a handle sharing the task with its queue.
        // A target below the floor's own ratio asks for less than that.
        if let (Verdict::Met | Verdict::Missed, Some(floor)) = (
            &lead.verdict,
            Spread::ratio(run, "scheduled_pool", &g, POOL_FLOOR, PEER),
        ) {
            lead.measured = format!("{}; the floor itself: {}", lead.measured, floor.times());
        }
        out.push(lead);
        out.push(median_at_most(
            format!(
                "{POOL}, random, {size} pending: at most 1.2× a floor with one shared \
                 allocation"
            ),
            Spread::ratio(run, "scheduled_pool", &g, POOL, POOL_FLOOR),
            1.2,
        ));
    }
    for size in FAIR_SIZES {
        let g = format!("random, {size} pending");
        out.push(median_at_most(
            format!("{TIMER}, random, {size} pending: at most 1.15× the floor"),
            Spread::ratio(run, "timer_schedule", &g, TIMER, TIMER_FLOOR),
            1.15,
        ));
        out.push(median_at_most(
            format!("{TIMER}, random, {size} pending: at most 0.85× {PEER}"),
            Spread::ratio(run, "timer_schedule", &g, TIMER, PEER),
            0.85,
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
    out
}

/// The hierarchical wheel's insert (an empty job: the structure's own
/// cost): flat, against the peer's plain wheel, against a bare heap push.
fn wheel_targets(run: &Run) -> Vec<Line> {
    let mut out = Vec::new();
    let group = |size: &str| format!("empty job, {size} pending");
    let levels = |size: &str| Spread::of(run, "wheel_schedule", &group(size), LEVELS);
    let (small, large) = (FAIR_WHEEL_SIZES[0], FAIR_WHEEL_SIZES[3]);
    out.push(line(
        format!("flat: {large} pending at most 2× {small}"),
        levels(small).zip(levels(large)).map(|(a, b)| {
            (
                format!(
                    "{} vs {}: {} (medians)",
                    b.ns(),
                    a.ns(),
                    ratio(b.median, a.median)
                ),
                b.median <= 2.0 * a.median,
            )
        }),
    ));
    for size in FAIR_WHEEL_SIZES {
        out.push(median_at_most(
            format!("{size} pending: at most 1.0× hierarchical_hash_wheel_timer's plain wheel"),
            Spread::ratio(run, "wheel_schedule", &group(size), LEVELS, QUAD),
            1.0,
        ));
    }
    out.push(median_at_most(
        format!("{large} pending: at most 0.6× a bare heap push"),
        Spread::ratio(run, "wheel_schedule", &group(large), LEVELS, HEAP_PUSH),
        0.6,
    ));
    out
}

/// A cancel of a random standing task at 10^6 pending, and what a cancel
/// leaves.
fn cancel_targets(run: &Run) -> Vec<Line> {
    let mut out = Vec::new();
    let g = "random standing task, 10^6 pending";
    for who in ["indexed heap", "scheduled pool, remove on cancel"] {
        let s = Spread::of(run, "cancel_cost", g, who);
        out.push(line(
            format!("{who}: a random standing task cancelled in at most 300 ns at 10^6 pending"),
            s.map(|s| (s.ns(), s.median <= 300.0)),
        ));
    }
    for who in ["indexed heap", "scheduled pool, remove on cancel"] {
        let held = run.row(
            "cancel_cost",
            "held after cancelling a tenth",
            who,
            "entries",
        );
        out.push(line(
            format!("{who}: no cancelled entry retained"),
            held.map(|h| (format!("{h} held"), h == 0.0)),
        ));
    }
    out
}

/// How late a task runs (p50) against the bare timed wait measured in the
/// same run, with the default slack and with it lowered.
fn lateness_targets(run: &Run) -> Vec<Line> {
    let mut out = Vec::new();
    for label in DELAYS {
        let g = format!("one at a time {label}");
        let d = delay(label);
        let floor = run.row("fire_latency", &g, "park_timeout", "p50");
        for who in [TIMER, POOL] {
            let p50 = run.row("fire_latency", &g, who, "p50");
            out.push(line(
                format!("{who}, {d}: p50 at most the timed wait's + 5 µs"),
                p50.zip(floor)
                    .map(|(p, f)| (format!("{p:.1} µs vs {f:.1} µs"), p <= f + 5.0)),
            ));
        }
    }
    let g = "one at a time 1ms";
    let floor = run.row("fire_latency", g, "park_timeout, slack 1 ns", "p50");
    for who in [TIMER, POOL] {
        let low = run.row("fire_latency", g, &format!("{who}, slack 1 ns"), "p50");
        out.push(line(
            format!("{who}, slack lowered, 1 ms: p50 at most the timed wait's (same slack) + 5 µs"),
            low.zip(floor)
                .map(|(p, f)| (format!("{p:.1} µs vs {f:.1} µs"), p <= f + 5.0)),
        ));
    }
    out
}

/// The preempting wake-up, the pool's wake-ups per task, and idle
/// wake-ups.
fn wakeup_targets(run: &Run) -> Vec<Line> {
    let mut out = Vec::new();
    let floor = run.row(
        "preempt_wakeup",
        "schedule to run",
        "park/unpark (floor)",
        "p50",
    );
    for who in [TIMER, POOL] {
        let ours = run.row("preempt_wakeup", "schedule to run", who, "p50");
        out.push(line(
            format!("{who}: preempting wake-up at most 1.3× park/unpark"),
            ours.zip(floor).map(|(o, f)| {
                (
                    format!("{o:.1} µs vs {f:.1} µs: {}", ratio(o, f)),
                    o <= 1.3 * f,
                )
            }),
        ));
    }
    for workers in [4, 8] {
        let w = run.row(
            "herd",
            &format!("{workers} workers"),
            SUCCESSOR,
            "wakeups/task",
        );
        out.push(line(
            format!(
                "{POOL}, leader and successor, {workers} workers: \
                 at most 1.1 wake-ups per task fired"
            ),
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
    out
}

/// The targets finer than a shared machine's ±15 % in time, judged again
/// in instructions (callgrind): one figure per call, the same on every
/// run. The same calls as the time benches make, on random inputs.
fn instruction_targets(run: &Run) -> Vec<Line> {
    let mut out = Vec::new();
    let ins = |group: &str, who: &str| run.row("instructions", group, who, "instructions");
    let against = |target: String, ours: Option<f64>, theirs: Option<f64>, limit: f64| {
        line(
            target,
            ours.zip(theirs)
                .map(|(o, t)| (format!("{o:.0} vs {t:.0}: {}", ratio(o, t)), o <= limit * t)),
        )
    };
    let g = "schedule, random";
    out.push(against(
        format!("{POOL} schedule: at most 0.9× {PEER}"),
        ins(g, POOL),
        ins(g, PEER),
        0.9,
    ));
    out.push(against(
        format!("{POOL} schedule: at most 1.2× a floor with one shared allocation"),
        ins(g, POOL),
        ins(g, POOL_FLOOR),
        1.2,
    ));
    out.push(against(
        format!("{TIMER} schedule: at most 1.15× the floor"),
        ins(g, TIMER),
        ins(g, TIMER_FLOOR),
        1.15,
    ));
    out.push(against(
        format!("{TIMER} schedule: at most 0.85× {PEER}"),
        ins(g, TIMER),
        ins(g, PEER),
        0.85,
    ));
    out.push(against(
        "hierarchical wheel insert: at most 1.0× hierarchical_hash_wheel_timer's plain wheel"
            .to_owned(),
        ins("insert", LEVELS),
        ins("insert", QUAD),
        1.0,
    ));
    out
}

/// A fixed-rate task's count of runs, and the pool's throughput against
/// the two reference pools, in interleaved rounds, tasks whose closure
/// captures (a box that allocates, on every side).
fn periodic_targets(run: &Run) -> Vec<Line> {
    let mut out = Vec::new();
    let expected = run.row("periodic_drift", "expected", "every period", "runs");
    for who in [TIMER, POOL] {
        let runs = run.row("periodic_drift", "fixed rate", who, "runs");
        out.push(line(
            format!("{who}: fixed rate every 1 ms, the count of periods ±1"),
            runs.zip(expected)
                .map(|(r, e)| (format!("{r:.0} of {e:.0}"), (r - e).abs() <= 1.0)),
        ));
    }
    let g = "random, 2 workers";
    let throughput = |reference: &str| {
        Spread::of(
            run,
            "pool_throughput",
            g,
            &format!("throughput, {THROUGHPUT_OURS} / {reference}"),
        )
    };
    out.push(median_at_least(
        "pool throughput at least 0.9× the crossbeam-channel pool's".to_owned(),
        throughput(THROUGHPUT_CHANNEL),
        0.9,
    ));
    out.push(median_at_least(
        "pool throughput at least 1.5× the threadpool crate's".to_owned(),
        throughput(THROUGHPUT_CRATE),
        1.5,
    ));
    out
}

/// Stage 8's timer beside tokio's (`async_timers`): a sleep made, polled
/// once and dropped, in interleaved rounds; the heap a pending sleep
/// holds, in fresh processes; and how late a 1 ms sleep wakes its task,
/// all three on tokio's current-thread runtime.
fn async_targets(run: &Run) -> Vec<Line> {
    const BENCH: &str = "async_timers";
    const OURS: &str = "async-timer (stage 8)";
    const TOKIO: &str = "tokio::time";
    let mut out = vec![median_at_most(
        format!("{OURS}: a sleep made, polled once and dropped, at most 1.0× {TOKIO}"),
        Spread::ratio(run, BENCH, "create, poll once, drop", OURS, TOKIO),
        1.0,
    )];
    let g = "bytes per pending sleep, 10^5 pending";
    let bytes = |who: &str| run.row(BENCH, g, who, "median");
    out.push(line(
        format!("{OURS}: bytes per pending sleep at 10^5 pending at most {TOKIO}'s"),
        bytes(OURS)
            .zip(bytes(TOKIO))
            .map(|(o, t)| (format!("{o:.0} B vs {t:.0} B: {}", ratio(o, t)), o <= t)),
    ));
    let g = "lateness 1ms, current-thread runtime";
    let p50 = |who: &str| run.row(BENCH, g, who, "p50");
    out.push(line(
        format!("{OURS}, 1 ms: p50 at most {TOKIO}'s + 10 µs"),
        p50(OURS)
            .zip(p50(TOKIO))
            .map(|(o, t)| (format!("{o:.1} µs vs {t:.1} µs"), o <= t + 10.0)),
    ));
    out
}

/// The count of verdicts, then one table of targets per group, each under
/// its own heading (the chapter includes this under a `##` heading).
fn table(run: &Run, groups: &[Group]) -> String {
    let mut out = String::new();
    let (met, missed, absent) =
        groups
            .iter()
            .flat_map(|g| &g.lines)
            .fold((0, 0, 0), |(m, x, a), l| match l.verdict {
                Verdict::Met => (m + 1, x, a),
                Verdict::Missed => (m, x + 1, a),
                Verdict::NotMeasured => (m, x, a + 1),
            });
    let _ = writeln!(
        out,
        "{met} targets met, {missed} missed, {absent} not measured{}.",
        if run.quick {
            " (the workload benches ran in quick mode)"
        } else {
            ""
        }
    );
    if let Some(rounds) = rounds(run) {
        let _ = writeln!(
            out,
            "\nA figure from the interleaved rounds ({rounds:.0} of them) is their median, \
             with the least and the greatest round in brackets; a verdict judges the median."
        );
    }
    for group in groups {
        let _ = write!(
            out,
            "\n### {}\n\n| target | measured | verdict |\n|---|---|---|\n",
            group.title
        );
        for l in &group.lines {
            let verdict = match l.verdict {
                Verdict::Met => "met",
                Verdict::Missed => "**missed**",
                Verdict::NotMeasured => "not measured",
            };
            let _ = writeln!(out, "| {} | {} | {verdict} |", l.target, l.measured);
        }
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
        // `perf` alone: a command that also builds a stage's tests or
        // benches turns kit's pause points on for everything it builds
        // (feature unification), and the benches refuse to time that.
        "--package",
        "perf",
        // Bench targets only: libtest's harness in the library's own
        // target knows none of criterion's flags.
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
    run(false, None)?;
    refuses_pause_points()?;
    Ok("every bench once; the report read them; one built with pause points refused".to_owned())
}

/// What `perf::require_shipped_build` prints before it refuses.
const REFUSAL: &str = "kit was built with its `pause-points` feature";

/// Builds one bench with kit's pause points on, as a command that also
/// builds a stage's tests would, and checks that it refuses to time that
/// build, with its own message: the benches time what users get, and a
/// check that never fires would not show it.
fn refuses_pause_points() -> Result {
    let bench = Cmd::cargo(&[
        "bench",
        "--package",
        "perf",
        "--bench",
        "scheduled_pool",
        "--features",
        "kit/pause-points",
    ])
    .env("PERF_QUICK", "1");
    let ran = bench.capture(std::time::Duration::from_secs(1200))?;
    if ran.passed() || !ran.output.contains(REFUSAL) {
        return Err(format!(
            "`{}` should refuse to time a build with pause points ({REFUSAL}); it ended with {}:\n{}",
            bench.display(),
            ran.how(),
            ran.output
        ));
    }
    println!(
        "a bench built with pause points refused, as it must ({})",
        ran.how()
    );
    Ok(())
}

/// Every table `--write` puts in [`OUT`] besides `targets.md`, by file
/// name: one table per file, so that the chapter puts its own heading and
/// words between them and a new run changes no prose.
fn tables(run: &Run) -> Vec<(&'static str, String)> {
    vec![
        ("summary-timer.md", summary_timer(run)),
        ("summary-pool.md", summary_pool(run)),
        ("summary-wheel.md", summary_wheel(run)),
        ("floors.md", floors(run)),
        ("timed-wait.md", timed_wait(run)),
        ("latency.md", lateness_table(run, "p50")),
        ("latency-p99.md", lateness_table(run, "p99")),
        ("load.md", load(run)),
        ("wakeups.md", wakeups(run)),
        ("preempt.md", preempt(run)),
        ("idle.md", idle(run)),
        ("schedule-timer.md", schedule_timer(run)),
        ("schedule-pool.md", schedule_pool(run)),
        ("insert.md", insert(run)),
        (
            "cancel.md",
            cancel_table(run, "random standing task", &CANCELLERS),
        ),
        (
            "cancel-newest.md",
            cancel_table(run, "newest task", &NEWEST_CANCELLERS),
        ),
        ("cancel-held.md", cancel_held(run)),
        ("throughput.md", throughput_table(run)),
        ("instructions.md", instructions(run)),
        ("async-timers.md", async_table(run)),
    ]
}

/// Stage 8's timer, tokio's and futures-timer's, measure by measure
/// (`async_timers`): times in interleaved rounds (median and range), the
/// bytes a pending sleep holds, and how late a 1 ms sleep wakes its task.
fn async_table(run: &Run) -> String {
    const BENCH: &str = "async_timers";
    const WHO: [&str; 3] = ["async-timer (stage 8)", "tokio::time", "futures-timer"];
    let mut out = format!(
        "| per sleep | {} | {} | {} |\n|---|---|---|---|\n",
        WHO[0], WHO[1], WHO[2]
    );
    for (label, group) in [
        ("made, polled once, dropped", "create, poll once, drop"),
        ("reset, 10^3 pending", "reset, 10^3 pending"),
        (
            "made and polled, 10^5 pending",
            "10^5 pending, each made and polled",
        ),
    ] {
        let cells =
            WHO.map(|who| Spread::of(run, BENCH, group, who).map_or("-".into(), |s| s.ns()));
        let _ = writeln!(
            out,
            "| {label} | {} | {} | {} |",
            cells[0], cells[1], cells[2]
        );
    }
    let bytes = WHO.map(|who| {
        run.row(
            BENCH,
            "bytes per pending sleep, 10^5 pending",
            who,
            "median",
        )
        .map_or("-".into(), |b| format!("{b:.0} B"))
    });
    let _ = writeln!(
        out,
        "| heap held, 10^5 pending | {} | {} | {} |",
        bytes[0], bytes[1], bytes[2]
    );
    for stat in ["p50", "p99"] {
        let late = WHO.map(|who| {
            run.row(BENCH, "lateness 1ms, current-thread runtime", who, stat)
                .map_or("-".into(), |us| format!("{us:.0} µs"))
        });
        let _ = writeln!(
            out,
            "| a 1 ms sleep's lateness, {stat} | {} | {} | {} |",
            late[0], late[1], late[2]
        );
    }
    out
}

/// Prints the targets; with `write`, also writes them, the other tables
/// and the plots to [`OUT`].
pub fn run(write: bool, only: Option<&str>) -> Result {
    let run = Run::load()?;
    let groups = targets(&run);
    let table = table(&run, &groups);
    print!("{table}");
    if !write {
        return Ok(());
    }
    let out = root().join(OUT);
    std::fs::create_dir_all(&out).map_err(|e| format!("{OUT}: {e}"))?;
    let mut all = vec![("targets.md", table)];
    all.extend(tables(&run));
    if let Some(only) = only
        && !all.iter().any(|(name, _)| *name == only)
    {
        let names: Vec<&str> = all.iter().map(|(name, _)| *name).collect();
        return Err(format!(
            "--only {only}: no such table ({})",
            names.join(", ")
        ));
    }
    for (name, text) in all {
        if only.is_some_and(|o| o != name) {
            continue;
        }
        // A table of dashes would leave the chapter's prose pointing at
        // nothing: the run did not measure it, so the last one stands.
        if crate::prose::figureless(&text) {
            println!("{OUT}/{name}: this run measured none of it; the one there is kept");
            continue;
        }
        std::fs::write(out.join(name), text).map_err(|e| format!("{OUT}/{name}: {e}"))?;
        println!("wrote {OUT}/{name}");
    }
    if only.is_none() {
        plots(&run, &out)?;
        println!("wrote the plots to {OUT}");
    }
    Ok(())
}

/// A number for a table cell, or a dash.
fn cell(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "-".to_owned(), |v| format!("{v:.digits$}"))
}

/// A three-column table: what was measured, beside what, and the result
/// (a dash where the last run did not measure it).
fn glance(rows: &[(String, &str, Option<String>)]) -> String {
    let mut out = String::from("| measured | beside | result |\n|---|---|---|\n");
    for (what, beside, result) in rows {
        let result = result.as_deref().unwrap_or("-");
        let _ = writeln!(out, "| {what} | {beside} | {result} |");
    }
    out
}

/// The largest size the schedule, cancel and insert benches run at, as
/// their groups name it: the at-a-glance tables read it.
const LARGEST: &str = "10^6";

/// `ours`' instructions per call over `theirs'`, in `instructions`' `group`.
fn instruction_ratio(run: &Run, group: &str, ours: &str, theirs: &str) -> Option<String> {
    let at = |who: &str| run.row("instructions", group, who, "instructions");
    at(ours).zip(at(theirs)).map(|(o, t)| ratio(o, t))
}

fn idle_wakeups(run: &Run, who: &str) -> Option<f64> {
    run.row("idle_cost", "one task pending", who, "wakeups")
}

/// "0 /s vs 999 /s": a finished version's idle wake-ups beside a hashed
/// wheel's.
fn idle_beside_hashed(run: &Run, who: &str) -> Option<String> {
    idle_wakeups(run, who)
        .zip(idle_wakeups(run, "wheel::hashed, 1 ms"))
        .map(|(o, h)| format!("{o:.0} /s vs {h:.0} /s"))
}

/// A task due in 1 ms, p50 lateness, beside the bare timed wait's.
fn late_beside_wait(run: &Run, who: &str) -> Option<String> {
    let g = "one at a time 1ms";
    run.row("fire_latency", g, who, "p50")
        .zip(run.row("fire_latency", g, "park_timeout", "p50"))
        .map(|(o, f)| format!("{o:.1} µs vs {f:.1} µs"))
}

/// The preempting wake-up's p50 over the park/unpark hand-off's.
fn preempt_ratio(run: &Run, who: &str) -> Option<String> {
    let at = |s: &str| run.row("preempt_wakeup", "schedule to run", s, "p50");
    at(who)
        .zip(at("park/unpark (floor)"))
        .map(|(o, f)| ratio(o, f))
}

/// The p99 under load over the peer's.
fn load_ratio(run: &Run, who: &str) -> Option<String> {
    let at = |s: &str| run.row("fire_latency", "under load", s, "p99");
    at(who).zip(at(PEER)).map(|(o, p)| ratio(o, p))
}

/// How the tables name the `Timer`'s floor.
const TIMER_FLOOR_LABEL: &str = "its floor: clock, lock, box, heap push";
/// How the tables name the scheduled pool's floor.
const POOL_FLOOR_LABEL: &str = "its floor: clock, lock, box, `Arc`, heap push";

/// Stage 5's `Timer` beside its peer and its floors: one schedule on
/// random inputs at the largest size, in time (median and range of the
/// per-round ratio) and in instructions, then lateness, wake-ups and idle.
fn summary_timer(run: &Run) -> String {
    let g = format!("random, {LARGEST} pending");
    let time =
        |theirs: &str| Spread::ratio(run, "timer_schedule", &g, TIMER, theirs).map(|s| s.times());
    let ins = |theirs: &str| instruction_ratio(run, "schedule, random", TIMER, theirs);
    let schedule = format!("one schedule, {LARGEST} pending, time");
    glance(&[
        (schedule.clone(), PEER, time(PEER)),
        (schedule, TIMER_FLOOR_LABEL, time(TIMER_FLOOR)),
        ("one schedule, instructions".into(), PEER, ins(PEER)),
        (
            "one schedule, instructions".into(),
            TIMER_FLOOR_LABEL,
            ins(TIMER_FLOOR),
        ),
        (
            "a task due in 1 ms, late by (p50)".into(),
            "a bare `park_timeout`",
            late_beside_wait(run, TIMER),
        ),
        (
            "a task due now, while it sleeps (p50)".into(),
            "park/unpark",
            preempt_ratio(run, TIMER),
        ),
        (
            "under load, late by (p99)".into(),
            PEER,
            load_ratio(run, TIMER),
        ),
        (
            "wake-ups while idle".into(),
            "a hashed wheel, 1 ms tick",
            idle_beside_hashed(run, "interrupt-cancel::timer"),
        ),
    ])
}

/// Stage 6's scheduled pool beside its peers and its floors.
fn summary_pool(run: &Run) -> String {
    let g = format!("random, {LARGEST} pending");
    let time =
        |theirs: &str| Spread::ratio(run, "scheduled_pool", &g, POOL, theirs).map(|s| s.times());
    let ins = |theirs: &str| instruction_ratio(run, "schedule, random", POOL, theirs);
    let wakes = |who: &str| run.row("herd", "8 workers", who, "wakeups/task");
    let vs_wakes = |who: &str| {
        wakes(SUCCESSOR)
            .zip(wakes(who))
            .map(|(o, t)| format!("{o:.2} vs {t:.2}"))
    };
    let held = |who: &str| {
        run.row(
            "cancel_cost",
            "held after cancelling a tenth",
            who,
            "entries",
        )
    };
    let cancel_group = format!("random standing task, {LARGEST} pending");
    let cancel = |who: &str| Spread::of(run, "cancel_cost", &cancel_group, who);
    let throughput = |reference: &str| {
        Spread::of(
            run,
            "pool_throughput",
            "random, 2 workers",
            &format!("throughput, {THROUGHPUT_OURS} / {reference}"),
        )
        .map(|s| s.times())
    };
    let schedule = format!("one schedule, {LARGEST} pending, time");
    glance(&[
        (schedule.clone(), PEER, time(PEER)),
        (schedule, POOL_FLOOR_LABEL, time(POOL_FLOOR)),
        ("one schedule, instructions".into(), PEER, ins(PEER)),
        (
            "one schedule, instructions".into(),
            POOL_FLOOR_LABEL,
            ins(POOL_FLOOR),
        ),
        (
            format!("one cancel, a random task of {LARGEST} pending"),
            "scheduled-thread-pool, which only flags it",
            cancel("scheduled pool, remove on cancel")
                .zip(cancel(PEER))
                .map(|(o, p)| format!("{} vs {}", o.ns(), p.ns())),
        ),
        (
            "entries held after cancelling a tenth".into(),
            "the same pool, cancelling lazily",
            held("scheduled pool, remove on cancel")
                .zip(held("scheduled pool, lazy"))
                .map(|(o, l)| format!("{o:.0} vs {l:.0}")),
        ),
        (
            "a task due in 1 ms, late by (p50)".into(),
            "a bare `park_timeout`",
            late_beside_wait(run, POOL),
        ),
        (
            "a task due now, while it sleeps (p50)".into(),
            "park/unpark",
            preempt_ratio(run, POOL),
        ),
        (
            "under load, late by (p99)".into(),
            PEER,
            load_ratio(run, POOL),
        ),
        (
            "worker wake-ups per task, 8 workers".into(),
            "the JDK's leader-follower",
            vs_wakes("the JDK's leader-follower"),
        ),
        (
            "worker wake-ups per task, 8 workers".into(),
            PEER,
            vs_wakes(PEER),
        ),
        (
            "throughput, 2 workers".into(),
            "a pool on a crossbeam channel",
            throughput(THROUGHPUT_CHANNEL),
        ),
        (
            "throughput, 2 workers".into(),
            "the `threadpool` crate",
            throughput(THROUGHPUT_CRATE),
        ),
        (
            "wake-ups while idle".into(),
            "a hashed wheel, 1 ms tick",
            idle_beside_hashed(run, "threadpool-executor::scheduled"),
        ),
    ])
}

/// Stage 7's hierarchical wheel beside its peer's wheels and a bare heap
/// push: the structure's own insert (an empty job) at the largest size.
fn summary_wheel(run: &Run) -> String {
    let group = |size: &str| format!("empty job, {size} pending");
    let time = |theirs: &str| {
        Spread::ratio(run, "wheel_schedule", &group(LARGEST), LEVELS, theirs).map(|s| s.times())
    };
    let levels = |size: &str| Spread::of(run, "wheel_schedule", &group(size), LEVELS);
    let smallest = FAIR_WHEEL_SIZES[0];
    let insert = format!("one insert, {LARGEST} pending, time");
    glance(&[
        (
            insert.clone(),
            "hierarchical_hash_wheel_timer's plain wheel",
            time(QUAD),
        ),
        (
            insert.clone(),
            "the same crate's wheel that can cancel",
            time(CANCELLABLE),
        ),
        (insert.clone(), "a bare heap push", time(HEAP_PUSH)),
        (
            insert,
            "itself at 10^3 pending",
            levels(LARGEST)
                .zip(levels(smallest))
                .map(|(l, s)| format!("{} vs {}", l.ns(), s.ns())),
        ),
        (
            "one insert, instructions".into(),
            "hierarchical_hash_wheel_timer's plain wheel",
            instruction_ratio(run, "insert", LEVELS, QUAD),
        ),
        (
            "a task due in 1 ms, late by (p50)".into(),
            "its tick, 1 ms",
            run.row(
                "fire_latency",
                "one at a time 1ms",
                "HierarchicalWheel, 1 ms (stage 7)",
                "p50",
            )
            .map(|v| format!("{v:.1} µs")),
        ),
        (
            "wake-ups while idle".into(),
            "a hashed wheel, 1 ms tick",
            idle_beside_hashed(run, "wheel::hierarchical, 1 ms"),
        ),
    ])
}

/// `ours` over each reference (its name in the bench, its name in the
/// table), a row per reference and size, a column per input (its name in
/// the bench's groups): each cell the median of the per-round ratio and
/// its range.
fn ratio_table(
    run: &Run,
    bench: &str,
    header: &str,
    ours: &str,
    references: &[(&str, &str)],
    sizes: &[&str],
    inputs: [&str; 2],
) -> String {
    let mut out = format!(
        "| {header} | pending | {} | {} |\n|---|---|---|---|\n",
        inputs[0], inputs[1]
    );
    for (reference, label) in references {
        for size in sizes {
            let at = |input: &str| {
                let g = format!("{input}, {size} pending");
                Spread::ratio(run, bench, &g, ours, reference)
                    .map_or_else(|| "-".to_owned(), |s| s.times())
            };
            let _ = writeln!(
                out,
                "| {label} | {size} | {} | {} |",
                at(inputs[0]),
                at(inputs[1])
            );
        }
    }
    out
}

/// The inputs of the schedule benches, as their groups name them.
const SCHEDULE_INPUTS: [&str; 2] = ["best case", "random"];
/// The inputs of the wheel bench, as its groups name them.
const WHEEL_INPUTS: [&str; 2] = ["empty job", "job captures"];

/// The `Timer`'s schedule over its peer's and its floor's.
fn schedule_timer(run: &Run) -> String {
    ratio_table(
        run,
        "timer_schedule",
        "the `Timer`'s schedule over",
        TIMER,
        &[(PEER, PEER), (TIMER_FLOOR, TIMER_FLOOR_LABEL)],
        &FAIR_SIZES,
        SCHEDULE_INPUTS,
    )
}

/// The scheduled pool's schedule over its peer's and its floor's.
fn schedule_pool(run: &Run) -> String {
    ratio_table(
        run,
        "scheduled_pool",
        "the pool's schedule over",
        POOL,
        &[(PEER, PEER), (POOL_FLOOR, POOL_FLOOR_LABEL)],
        &FAIR_SIZES,
        SCHEDULE_INPUTS,
    )
}

/// The hierarchical wheel's insert over the peer's two wheels and a bare
/// heap push.
fn insert(run: &Run) -> String {
    ratio_table(
        run,
        "wheel_schedule",
        "the levels' insert over",
        LEVELS,
        &[
            (QUAD, "the peer's plain wheel"),
            (CANCELLABLE, "the peer's wheel that can cancel"),
            (HEAP_PUSH, "a bare heap push"),
        ],
        &FAIR_WHEEL_SIZES,
        WHEEL_INPUTS,
    )
}

/// Ours' throughput over the two reference pools', per input.
fn throughput_table(run: &Run) -> String {
    let mut out = format!(
        "| our pool's throughput over | {} | {} |\n|---|---|---|\n",
        SCHEDULE_INPUTS[0], SCHEDULE_INPUTS[1]
    );
    for (reference, label) in [
        (THROUGHPUT_CHANNEL, "a pool on a crossbeam channel"),
        (THROUGHPUT_CRATE, "the `threadpool` crate"),
    ] {
        let at = |input: &str| {
            Spread::of(
                run,
                "pool_throughput",
                &format!("{input}, 2 workers"),
                &format!("throughput, {THROUGHPUT_OURS} / {reference}"),
            )
            .map_or_else(|| "-".to_owned(), |s| s.times())
        };
        let _ = writeln!(
            out,
            "| {label} | {} | {} |",
            at(SCHEDULE_INPUTS[0]),
            at(SCHEDULE_INPUTS[1])
        );
    }
    out
}

/// The floors: criterion's medians from `physics`.
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
            "unpark a parked thread until it runs, a mean",
            "physics_handoff/park/unpark, one way",
        ),
    ] {
        let v = run.ns(id);
        let shown = match v {
            Some(ns) if ns >= 1000.0 => format!("{:.1} µs", ns / 1000.0),
            Some(ns) => format!("{ns:.2} ns"),
            None => "-".to_owned(),
        };
        let _ = writeln!(out, "| {label} | {shown} |");
    }
    out
}

/// The timed wait's overshoot (`fire_latency`), with the default slack
/// and with it lowered.
fn timed_wait(run: &Run) -> String {
    let mut out = String::from("| `park_timeout` ends late by | p50 | p99 |\n|---|---|---|\n");
    for label in DELAYS {
        for (who, slack) in [
            ("park_timeout", "default slack"),
            ("park_timeout, slack 1 ns", "slack 1 ns"),
        ] {
            let g = format!("one at a time {label}");
            let _ = writeln!(
                out,
                "| {}, {slack} | {} µs | {} µs |",
                delay(label),
                cell(run.row("fire_latency", &g, who, "p50"), 1),
                cell(run.row("fire_latency", &g, who, "p99"), 1)
            );
        }
    }
    out
}

/// How late tasks run one at a time: one statistic (`p50` or `p99`), a
/// column per delay.
fn lateness_table(run: &Run, stat: &str) -> String {
    let mut subjects: Vec<&str> = Vec::new();
    for (bench, group, subject, _) in run.rows.keys() {
        if bench == "fire_latency"
            && group == "one at a time 1ms"
            && !subjects.contains(&subject.as_str())
        {
            subjects.push(subject);
        }
    }
    let mut out = format!("| late by, {stat} (µs) |");
    for label in DELAYS {
        let _ = write!(out, " {} |", delay(label));
    }
    out += "\n|---|---|---|---|\n";
    for who in &subjects {
        let _ = write!(out, "| {who} |");
        for label in DELAYS {
            let v = run.row("fire_latency", &format!("one at a time {label}"), who, stat);
            let _ = write!(out, " {} |", cell(v, 1));
        }
        out += "\n";
    }
    out
}

/// How late tasks run under load.
fn load(run: &Run) -> String {
    let mut out =
        String::from("| under load, late by (µs) | p50 | p99 | max |\n|---|---|---|---|\n");
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

/// The pools' wake-ups per task fired.
fn wakeups(run: &Run) -> String {
    let mut out =
        String::from("| wake-ups per task fired | 4 workers | 8 workers |\n|---|---|---|\n");
    for who in [
        SUCCESSOR,
        "the JDK's leader-follower",
        "herd (T10's bug)",
        PEER,
    ] {
        let at = |w: usize| run.row("herd", &format!("{w} workers"), who, "wakeups/task");
        let _ = writeln!(out, "| {who} | {} | {} |", cell(at(4), 2), cell(at(8), 2));
    }
    out
}

/// The preempting wake-up, and its floors.
fn preempt(run: &Run) -> String {
    let mut out = String::from("| schedule to run (µs) | p50 | p99 |\n|---|---|---|\n");
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

/// The timers `cancel_cost` cancels a random standing task on, in its
/// order.
const CANCELLERS: [&str; 7] = [
    "indexed heap",
    "scheduled pool, remove on cancel",
    "scheduled pool, lazy",
    "Timer",
    "HashedWheel",
    "HierarchicalWheel",
    "scheduled-thread-pool",
];

/// The timers `cancel_cost` cancels the newest task on (not the wheels).
const NEWEST_CANCELLERS: [&str; 5] = [
    "indexed heap",
    "scheduled pool, remove on cancel",
    "scheduled pool, lazy",
    "Timer",
    "scheduled-thread-pool",
];

/// The timers whose count of entries held `cancel_cost` can read.
const HOLDERS: [&str; 4] = [
    "indexed heap",
    "scheduled pool, remove on cancel",
    "scheduled pool, lazy",
    "Timer",
];

/// One cancel, in ns per cancel, by the count pending: `case` is the
/// bench's group before its size ("random standing task", "newest task").
fn cancel_table(run: &Run, case: &str, who: &[&str]) -> String {
    let mut out = format!("| {case}, one cancel (ns) |");
    for size in FAIR_SIZES {
        let _ = write!(out, " {size} pending |");
    }
    out += "\n|---|---|---|---|\n";
    for subject in who {
        let _ = write!(out, "| {subject} |");
        for size in FAIR_SIZES {
            let s = Spread::of(
                run,
                "cancel_cost",
                &format!("{case}, {size} pending"),
                subject,
            );
            let _ = write!(
                out,
                " {} |",
                s.map_or_else(|| "-".to_owned(), |s| s.bare_ns())
            );
        }
        out += "\n";
    }
    out
}

/// What a cancel leaves behind: entries held beyond the live ones.
fn cancel_held(run: &Run) -> String {
    let mut out = String::from("| held after cancelling a tenth | entries |\n|---|---|\n");
    for who in HOLDERS {
        let held = run.row(
            "cancel_cost",
            "held after cancelling a tenth",
            who,
            "entries",
        );
        let _ = writeln!(out, "| {who} | {} |", cell(held, 0));
    }
    out
}

/// The groups of `instructions`, in the chapter's order.
const INSTRUCTION_GROUPS: [&str; 4] = [
    "schedule, best case",
    "schedule, random",
    "cancel, random standing task",
    "insert",
];

/// Instructions per call, from callgrind, a group at a time.
fn instructions(run: &Run) -> String {
    let mut out = String::from("| call | version | instructions (callgrind) |\n|---|---|---|\n");
    for group in INSTRUCTION_GROUPS {
        for ((bench, g, subject, stat), v) in &run.rows {
            if bench == "instructions" && g == group && stat == "instructions" {
                let _ = writeln!(out, "| {group} | {subject} | {v:.0} |");
            }
        }
    }
    out
}

fn plots(run: &Run, out: &Path) -> Result {
    schedule_cost(run, &out.join("schedule-cost.svg"))
        .map_err(|e| format!("schedule-cost.svg: {e}"))?;
    insert_cost(run, &out.join("insert-cost.svg")).map_err(|e| format!("insert-cost.svg: {e}"))?;
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

/// "10^5" as a count: 100000.
fn pending(size: &str) -> Option<f64> {
    let power: i32 = size.strip_prefix("10^")?.parse().ok()?;
    Some(10f64.powi(power))
}

/// One line per series: (label, (count pending, its spread) at each size
/// the run measured).
type Series = Vec<(String, Vec<(f64, Spread)>)>;

/// `subject`'s spreads in `bench`, at each of `sizes`, in the group
/// `"<input>, <size> pending"`.
fn by_size(
    run: &Run,
    bench: &str,
    input: &str,
    subject: &str,
    sizes: &[&str],
) -> Vec<(f64, Spread)> {
    sizes
        .iter()
        .filter_map(|size| {
            let g = format!("{input}, {size} pending");
            Some((pending(size)?, Spread::of(run, bench, &g, subject)?))
        })
        .collect()
}

/// Time per call against the count pending (log-scaled): each series'
/// median as a line, each size's range over the rounds as a bar from
/// the least round to the greatest. `log_time` scales the time axis too,
/// for series an order of magnitude apart.
fn pending_plot(path: &PathBuf, title: &str, series: Series, log_time: bool) -> Plot {
    let spreads = || series.iter().flat_map(|(_, p)| p.iter().map(|(_, s)| *s));
    let top = spreads().map(|s| s.max).fold(10.0, f64::max) * 1.1;
    let bottom = spreads().map(|s| s.min).fold(top, f64::min) * 0.8;
    let root = SVGBackend::new(path, (720, 440)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut builder = ChartBuilder::on(&root);
    builder
        .caption(title, TITLE_FONT)
        .margin(12)
        .x_label_area_size(48)
        .y_label_area_size(64);
    let x = (600f64..1.6e6f64).log_scale();
    if log_time {
        let chart = builder.build_cartesian_2d(x, (bottom.max(0.1)..top).log_scale())?;
        draw_pending(chart, series)?;
    } else {
        let chart = builder.build_cartesian_2d(x, 0f64..top)?;
        draw_pending(chart, series)?;
    }
    root.present()?;
    Ok(())
}

/// The lines, points, ranges and legend of [`pending_plot`], on either
/// time axis.
fn draw_pending<'a, Y>(
    mut chart: ChartContext<'a, SVGBackend<'a>, Cartesian2d<LogCoord<f64>, Y>>,
    series: Series,
) -> Plot
where
    Y: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
{
    chart
        .configure_mesh()
        .label_style(LABEL_FONT)
        .axis_desc_style(LABEL_FONT)
        .x_desc("timers pending")
        .y_desc("ns per call")
        .x_label_formatter(&|x| format!("10^{:.0}", x.log10()))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()?;
    let count = series.len() as f64;
    for (i, (label, points)) in series.into_iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        // Each series a little to the side of the others, so that their
        // ranges do not hide one another.
        let shift = 1.0 + 0.06 * (i as f64 - (count - 1.0) / 2.0);
        let medians: Vec<(f64, f64)> = points.iter().map(|(n, s)| (n * shift, s.median)).collect();
        chart
            .draw_series(LineSeries::new(medians.clone(), colour.stroke_width(2)))?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
            });
        chart.draw_series(
            medians
                .into_iter()
                .map(|p| Circle::new(p, 3, colour.filled())),
        )?;
        chart.draw_series(points.iter().map(|(n, s)| {
            PathElement::new(
                vec![(n * shift, s.min), (n * shift, s.max)],
                colour.stroke_width(1),
            )
        }))?;
    }
    chart
        .configure_series_labels()
        .label_font(LABEL_FONT)
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// One schedule on random inputs against the count pending: the two heap
/// timers, their floors, and the peer (the one measured beside the
/// `Timer`).
fn schedule_cost(run: &Run, path: &PathBuf) -> Plot {
    let series = [
        (TIMER, "timer_schedule", TIMER),
        ("its floor", "timer_schedule", TIMER_FLOOR),
        (POOL, "scheduled_pool", POOL),
        ("its floor, with an Arc", "scheduled_pool", POOL_FLOOR),
        (PEER, "timer_schedule", PEER),
    ]
    .into_iter()
    .map(|(label, bench, subject)| {
        (
            label.to_owned(),
            by_size(run, bench, "random", subject, &FAIR_SIZES),
        )
    })
    .collect();
    pending_plot(
        path,
        "One schedule, random inputs (ns: median, range of the rounds)",
        series,
        false,
    )
}

/// One insert (an empty job) into each wheel and a bare heap, against the
/// count pending.
fn insert_cost(run: &Run, path: &PathBuf) -> Plot {
    let series = [
        ("hierarchical wheel's levels (stage 7)", LEVELS),
        ("hashed wheel's core (stage 7)", HASHED_CORE),
        ("hierarchical_hash_wheel_timer, plain", QUAD),
        ("hierarchical_hash_wheel_timer, cancellable", CANCELLABLE),
        ("bare BinaryHeap::push", HEAP_PUSH),
    ]
    .into_iter()
    .map(|(label, subject)| {
        (
            label.to_owned(),
            by_size(
                run,
                "wheel_schedule",
                "empty job",
                subject,
                &FAIR_WHEEL_SIZES,
            ),
        )
    })
    .collect();
    pending_plot(
        path,
        "One insert, an empty job (ns, log scale: median, range of the rounds)",
        series,
        true,
    )
}

/// A horizontal bar: its label, its value, and the range to draw over it
/// (the least and the greatest round), if it has one.
struct Bar {
    label: String,
    value: f64,
    range: Option<(f64, f64)>,
}

impl Bar {
    fn plain(label: String, value: f64) -> Bar {
        Bar {
            label,
            value,
            range: None,
        }
    }
}

/// The charts' title font. Plotters sets a size of 20 at about 16 px in
/// its SVG, the size of the book's prose.
const TITLE_FONT: (&str, u32) = ("sans-serif", 20);

/// The font of the charts' labels, legends and values: about 13 px in the
/// SVG, the book's code size. Plotters' default came out under 10 px, and
/// smaller still once the browser fitted the chart to the column.
const LABEL_FONT: (&str, u32) = ("sans-serif", 16);

/// Horizontal bars, one per item, with a title and a unit; a bar with a
/// range gets a line from its least to its greatest round.
fn bars(path: &PathBuf, title: &str, unit: &str, items: &[Bar]) -> Plot {
    let height = 90 + 36 * items.len() as u32;
    let root = SVGBackend::new(path, (720, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let top = items
        .iter()
        .map(|b| b.range.map_or(b.value, |(_, hi)| hi.max(b.value)))
        .fold(0.0, f64::max)
        .max(1e-9)
        * 1.25;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, TITLE_FONT)
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(290)
        .build_cartesian_2d(0f64..top, (0..items.len()).into_segmented())?;
    chart
        .configure_mesh()
        .label_style(LABEL_FONT)
        .axis_desc_style(LABEL_FONT)
        .disable_y_mesh()
        .x_desc(unit)
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => items.get(*i).map(|b| b.label.clone()).unwrap_or_default(),
            _ => String::new(),
        })
        .draw()?;
    chart.draw_series(items.iter().enumerate().map(|(i, b)| {
        let colour = COLOURS[i % COLOURS.len()];
        let mut bar = Rectangle::new(
            [
                (0.0, SegmentValue::Exact(i)),
                (b.value, SegmentValue::Exact(i + 1)),
            ],
            colour.mix(0.8).filled(),
        );
        bar.set_margin(6, 6, 0, 0);
        bar
    }))?;
    chart.draw_series(items.iter().enumerate().filter_map(|(i, b)| {
        b.range.map(|(lo, hi)| {
            PathElement::new(
                vec![
                    (lo, SegmentValue::CenterOf(i)),
                    (hi, SegmentValue::CenterOf(i)),
                ],
                BLACK.stroke_width(2),
            )
        })
    }))?;
    chart.draw_series(items.iter().enumerate().map(|(i, b)| {
        let at = b.range.map_or(b.value, |(_, hi)| hi.max(b.value));
        Text::new(
            format!(" {:.1}", b.value),
            (at, SegmentValue::CenterOf(i)),
            LABEL_FONT,
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
    let items: Vec<Bar> = who
        .iter()
        .filter_map(|w| {
            run.row("fire_latency", "one at a time 1ms", w, "p50")
                .map(|v| Bar::plain((*w).to_owned(), v))
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
    let items: Vec<Bar> = [4, 8]
        .iter()
        .flat_map(|w| {
            who.iter().filter_map(move |s| {
                run.row("herd", &format!("{w} workers"), s, "wakeups/task")
                    .map(|v| Bar::plain(format!("{s}, {w} workers"), v))
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

/// Each pool's throughput, in millions of tasks a second (a thousand over
/// its ns per task), per input, with the range of its rounds.
fn throughput(run: &Run, path: &PathBuf) -> Plot {
    let mut items = Vec::new();
    for input in SCHEDULE_INPUTS {
        for (subject, label) in [
            (THROUGHPUT_OURS, "ours (stage 6)"),
            (THROUGHPUT_CHANNEL, "crossbeam-channel pool"),
            (THROUGHPUT_CRATE, "threadpool crate"),
        ] {
            let g = format!("{input}, 2 workers");
            if let Some(s) = Spread::of(run, "pool_throughput", &g, subject) {
                items.push(Bar {
                    label: format!("{label}, {input}"),
                    value: 1000.0 / s.median,
                    range: Some((1000.0 / s.max, 1000.0 / s.min)),
                });
            }
        }
    }
    bars(
        path,
        "Pool throughput, 2 workers (median, range of the rounds)",
        "million tasks a second",
        &items,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run with one figure for every key the report reads: `criterion`
    /// by id, `rows` by (bench, group, subject, stat).
    fn run_of(criterion: &[(String, f64)], rows: &[([&str; 4], f64)]) -> Run {
        Run {
            criterion: criterion.iter().cloned().collect(),
            rows: rows
                .iter()
                .map(|(k, v)| (k.map(str::to_owned).into(), *v))
                .collect(),
            quick: false,
        }
    }

    /// A fair bench's spread rows (`perf::rounds`): median, least,
    /// greatest, and the rounds' count.
    fn spread_rows(
        bench: &str,
        group: &str,
        subject: &str,
        [median, min, max]: [f64; 3],
    ) -> Vec<([String; 4], f64)> {
        let key = |subject: &str, stat: &str| [bench, group, subject, stat].map(str::to_owned);
        vec![
            (key(subject, "median"), median),
            (key(subject, "min"), min),
            (key(subject, "max"), max),
            (key("rounds", "count"), 11.0),
        ]
    }

    /// Every bench's figures, made up but shaped like a real run's: each
    /// fair bench's subjects and ratios in every group it writes.
    fn full() -> Run {
        let mut c = Vec::new();
        for id in [
            "physics/Instant::now",
            "physics/std Mutex lock+unlock",
            "physics/parking_lot Mutex lock+unlock",
            "physics/compare_exchange",
            "physics/std Condvar notify_one, no waiter",
            "physics/parking_lot Condvar notify_one, no waiter",
        ] {
            c.push((id.to_owned(), 20.0));
        }
        c.push(("physics_handoff/park/unpark, one way".to_owned(), 13_300.0));
        let mut fair: Vec<([String; 4], f64)> = Vec::new();
        for size in FAIR_SIZES {
            for input in SCHEDULE_INPUTS {
                let g = format!("{input}, {size} pending");
                for (bench, ours, floor) in [
                    ("timer_schedule", TIMER, TIMER_FLOOR),
                    ("scheduled_pool", POOL, POOL_FLOOR),
                ] {
                    fair.extend(spread_rows(bench, &g, ours, [50.0, 45.0, 60.0]));
                    fair.extend(spread_rows(bench, &g, PEER, [62.5, 55.0, 70.0]));
                    fair.extend(spread_rows(bench, &g, floor, [40.0, 38.0, 44.0]));
                    let r = |a: &str, b: &str| format!("{a} / {b}");
                    fair.extend(spread_rows(bench, &g, &r(ours, PEER), [0.8, 0.7, 0.95]));
                    fair.extend(spread_rows(bench, &g, &r(ours, floor), [1.25, 1.1, 1.4]));
                }
            }
            for case in ["random standing task", "newest task"] {
                let g = format!("{case}, {size} pending");
                for who in CANCELLERS {
                    let ns = if who == PEER { 8.0 } else { 150.0 };
                    fair.extend(spread_rows(
                        "cancel_cost",
                        &g,
                        who,
                        [ns, ns - 1.0, ns + 2.0],
                    ));
                }
            }
        }
        for size in FAIR_WHEEL_SIZES {
            for input in WHEEL_INPUTS {
                let g = format!("{input}, {size} pending");
                for (who, ns) in [
                    (LEVELS, 14.0),
                    (HASHED_CORE, 16.0),
                    (QUAD, 12.0),
                    (CANCELLABLE, 28.0),
                    (HEAP_PUSH, 20.0),
                ] {
                    fair.extend(spread_rows(
                        "wheel_schedule",
                        &g,
                        who,
                        [ns, ns - 1.0, ns + 3.0],
                    ));
                }
                for (theirs, r) in [(QUAD, 1.17), (CANCELLABLE, 0.5), (HEAP_PUSH, 0.7)] {
                    let name = format!("{LEVELS} / {theirs}");
                    fair.extend(spread_rows(
                        "wheel_schedule",
                        &g,
                        &name,
                        [r, r - 0.1, r + 0.2],
                    ));
                }
            }
        }
        for input in SCHEDULE_INPUTS {
            let g = format!("{input}, 2 workers");
            for (who, ns) in [
                (THROUGHPUT_OURS, 50.0),
                (THROUGHPUT_CHANNEL, 40.0),
                (THROUGHPUT_CRATE, 100.0),
            ] {
                fair.extend(spread_rows(
                    "pool_throughput",
                    &g,
                    who,
                    [ns, ns - 5.0, ns + 10.0],
                ));
            }
            for (reference, r) in [(THROUGHPUT_CHANNEL, 0.8), (THROUGHPUT_CRATE, 2.0)] {
                let name = format!("throughput, {THROUGHPUT_OURS} / {reference}");
                fair.extend(spread_rows(
                    "pool_throughput",
                    &g,
                    &name,
                    [r, r - 0.1, r + 0.1],
                ));
            }
        }
        let stage8 = ["async-timer (stage 8)", "tokio::time", "futures-timer"];
        for (g, ns) in [
            ("create, poll once, drop", 140.0),
            ("reset, 10^3 pending", 120.0),
            ("10^5 pending, each made and polled", 130.0),
        ] {
            for who in stage8 {
                fair.extend(spread_rows(
                    "async_timers",
                    g,
                    who,
                    [ns, ns - 5.0, ns + 5.0],
                ));
            }
            let name = format!("{} / {}", stage8[0], stage8[1]);
            fair.extend(spread_rows("async_timers", g, &name, [1.3, 1.2, 1.4]));
        }
        let mut r: Vec<([&str; 4], f64)> = Vec::new();
        for who in stage8 {
            let bytes = "bytes per pending sleep, 10^5 pending";
            r.push((["async_timers", bytes, who, "median"], 200.0));
            let late = "lateness 1ms, current-thread runtime";
            r.push((["async_timers", late, who, "p50"], 1000.0));
            r.push((["async_timers", late, who, "p99"], 1060.0));
        }
        let late = [
            "park_timeout",
            "park_timeout, slack 1 ns",
            TIMER,
            "Timer (stage 5), slack 1 ns",
            POOL,
            "ScheduledThreadPool (stage 6), slack 1 ns",
            PEER,
            "HierarchicalWheel, 1 ms (stage 7)",
        ];
        for g in [
            "one at a time 100us",
            "one at a time 1ms",
            "one at a time 10ms",
        ] {
            for who in late {
                r.push((["fire_latency", g, who, "p50"], 70.0));
                r.push((["fire_latency", g, who, "p99"], 100.0));
            }
        }
        for who in [TIMER, POOL, PEER] {
            for stat in ["p50", "p99", "max"] {
                r.push((["fire_latency", "under load", who, stat], 80.0));
            }
        }
        for who in [TIMER, POOL, "park/unpark (floor)"] {
            r.push((["preempt_wakeup", "schedule to run", who, "p50"], 5.5));
            r.push((["preempt_wakeup", "schedule to run", who, "p99"], 12.0));
        }
        for (who, at_4, at_8) in [
            (SUCCESSOR, 1.0, 1.0),
            ("the JDK's leader-follower", 2.0, 2.0),
            ("herd (T10's bug)", 4.0, 8.0),
            (PEER, 4.0, 8.0),
        ] {
            r.push((["herd", "4 workers", who, "wakeups/task"], at_4));
            r.push((["herd", "8 workers", who, "wakeups/task"], at_8));
        }
        for (who, w) in [
            ("interrupt-cancel::timer", 0.0),
            ("threadpool-executor::scheduled", 0.0),
            ("wheel::hierarchical, 1 ms", 0.0),
            ("wheel::hashed, 1 ms", 999.0),
        ] {
            r.push((["idle_cost", "one task pending", who, "cpu"], w / 50.0));
            r.push((["idle_cost", "one task pending", who, "wakeups"], w));
        }
        for (group, who, n) in [
            ("schedule, best case", TIMER, 241.0),
            ("schedule, random", TIMER, 502.0),
            ("schedule, random", POOL, 674.0),
            ("schedule, random", PEER, 685.0),
            ("schedule, random", TIMER_FLOOR, 357.0),
            ("schedule, random", POOL_FLOOR, 536.0),
            (
                "cancel, random standing task",
                "scheduled pool, remove on cancel",
                332.0,
            ),
            ("insert", LEVELS, 151.0),
            ("insert", QUAD, 145.0),
            ("insert", HEAP_PUSH, 115.0),
        ] {
            r.push((["instructions", group, who, "instructions"], n));
        }
        for who in [TIMER, POOL] {
            r.push((
                ["syscalls", "futex calls per schedule", who, "futex calls"],
                0.0,
            ));
            r.push((["periodic_drift", "fixed rate", who, "runs"], 10_000.0));
        }
        r.push((
            [
                "syscalls",
                "futex calls per schedule",
                "Timer (stage 5), every task a new head",
                "futex calls",
            ],
            1.0,
        ));
        r.push((
            ["periodic_drift", "expected", "every period", "runs"],
            10_000.0,
        ));
        for (who, held) in [
            ("indexed heap", 0.0),
            ("scheduled pool, remove on cancel", 0.0),
            ("scheduled pool, lazy", 10_000.0),
            ("Timer", 10_000.0),
        ] {
            r.push((
                [
                    "cancel_cost",
                    "held after cancelling a tenth",
                    who,
                    "entries",
                ],
                held,
            ));
        }
        let mut run = run_of(&c, &r);
        run.rows
            .extend(fair.into_iter().map(|(k, v)| (k.into(), v)));
        run
    }

    /// Every file `--write` writes, with its text.
    fn written(run: &Run) -> Vec<(&'static str, String)> {
        let mut all = tables(run);
        all.push(("targets.md", table(run, &targets(run))));
        all
    }

    /// What `--write` wrote for the book (the last full run's tables), and
    /// what it writes for a made-up run: the rules below hold for both.
    fn written_and_committed() -> Vec<(String, String)> {
        let mut all: Vec<(String, String)> = written(&full())
            .into_iter()
            .map(|(name, text)| (name.to_owned(), text))
            .collect();
        for (name, _) in written(&full()) {
            let path = root().join(OUT).join(name);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            all.push((format!("{OUT}/{name}"), text));
        }
        all
    }

    #[test]
    fn a_spread_prints_its_median_then_its_range() {
        let s = Spread {
            median: 1.0612,
            min: 0.97,
            max: 1.704,
        };
        assert_eq!(s.times(), "1.06× (0.97–1.70)");
        let s = Spread {
            median: 412.4,
            min: 380.0,
            max: 470.2,
        };
        assert_eq!(s.ns(), "412 ns (380–470)");
        assert_eq!(s.bare_ns(), "412 (380–470)");
        // Below 100 ns, a decimal, for the median and the range alike.
        let s = Spread {
            median: 7.76,
            min: 6.41,
            max: 10.18,
        };
        assert_eq!(s.ns(), "7.8 ns (6.4–10.2)");
        assert_eq!(ratio(61.0, 100.0), "0.61×");
    }

    #[test]
    fn delays_read_as_the_book_writes_them() {
        assert_eq!(delay("100us"), "100 µs");
        assert_eq!(delay("1ms"), "1 ms");
        assert_eq!(delay("10ms"), "10 ms");
    }

    #[test]
    fn sizes_read_as_counts() {
        assert_eq!(pending("10^3"), Some(1000.0));
        assert_eq!(pending("10^6"), Some(1e6));
        assert_eq!(pending("1ms"), None);
    }

    #[test]
    fn the_wake_up_target_names_the_pool_it_measures() {
        let run = full();
        let groups = targets(&run);
        let lines: Vec<&Line> = groups.iter().flat_map(|g| &g.lines).collect();
        let wakes: Vec<&&Line> = lines
            .iter()
            .filter(|l| l.target.contains("wake-ups per task"))
            .collect();
        assert_eq!(wakes.len(), 2, "one target per worker count");
        for l in wakes {
            // It reads the leader-and-successor row (1.00 here), not the
            // herd's (4.00 or 8.00), and says so.
            assert!(l.target.contains(POOL) && l.target.contains("leader and successor"));
            assert_eq!(l.measured, "1.00");
            assert!(matches!(l.verdict, Verdict::Met));
        }
        assert!(!lines.iter().any(|l| l.target.starts_with("herd")));
    }

    #[test]
    fn every_table_writes_micro_and_times_signs() {
        for (name, text) in written_and_committed() {
            let words = text.split(|c: char| !c.is_alphanumeric());
            for word in words {
                assert!(word != "us", "{name} writes \"us\" for µs:\n{text}");
            }
            for (i, line) in text.lines().enumerate() {
                // A ratio is "0.61×", never "0.61x".
                let ascii_times = line.split(' ').any(|w| {
                    w.trim_end_matches(['|', ',', ':']).ends_with('x')
                        && w.chars().next().is_some_and(|c| c.is_ascii_digit())
                });
                assert!(!ascii_times, "{name}:{} writes x for ×: {line}", i + 1);
            }
        }
    }

    #[test]
    fn no_table_is_wider_than_four_columns() {
        for (name, text) in written_and_committed() {
            for line in text.lines().filter(|l| l.starts_with("|---")) {
                let columns = line.matches("---").count();
                assert!(columns <= 4, "{name} has {columns} columns");
            }
        }
    }

    #[test]
    fn no_table_shows_a_dash_for_a_full_run() {
        // Every cell of every table reads a row the made-up run has, as a
        // real full run has them: a renderer reading a stale key shows "-".
        for (name, text) in written(&full()) {
            for line in text.lines().filter(|l| l.starts_with("| ")) {
                assert!(!line.contains("| - |"), "{name}: {line}");
            }
        }
    }

    #[test]
    fn tables_are_separated_by_headings() {
        let run = full();
        let text = table(&run, &targets(&run));
        // A header row comes right after a heading (and its blank line),
        // never right after another table.
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.starts_with("| target |") {
                assert!(i >= 2 && lines[i - 1].is_empty() && lines[i - 2].starts_with("### "));
            }
        }
        assert_eq!(text.matches("### ").count(), targets(&run).len());
        for (name, text) in tables(&run) {
            let tables = text.lines().filter(|l| l.starts_with("|---")).count();
            assert_eq!(tables, 1, "{name}: one table per file");
        }
    }

    #[test]
    fn the_targets_say_how_a_figure_from_the_rounds_reads() {
        let run = full();
        let text = table(&run, &targets(&run));
        assert!(
            text.contains("(11 of them) is their median, with the least and the greatest"),
            "{text}"
        );
        // Without a fair bench's rows, no such sentence.
        let empty = run_of(&[], &[]);
        assert!(!table(&empty, &targets(&empty)).contains("of them"));
    }

    #[test]
    fn the_summaries_put_ours_beside_peers_and_floors() {
        let run = full();
        let timer = summary_timer(&run);
        assert!(
            timer.contains(
                "| one schedule, 10^6 pending, time | scheduled-thread-pool | 0.80× (0.70–0.95) |"
            ),
            "{timer}"
        );
        assert!(
            timer.contains(&format!("| {TIMER_FLOOR_LABEL} | 1.25× (1.10–1.40) |")),
            "{timer}"
        );
        // Instructions on random inputs: 502 over 685, and over 357.
        assert!(
            timer.contains("| scheduled-thread-pool | 0.73× |"),
            "{timer}"
        );
        assert!(timer.contains("| 1.41× |"), "{timer}");
        let pool = summary_pool(&run);
        assert!(
            pool.contains("| the JDK's leader-follower | 1.00 vs 2.00 |"),
            "{pool}"
        );
        assert!(
            pool.contains("| scheduled-thread-pool | 1.00 vs 8.00 |"),
            "{pool}"
        );
        assert!(pool.contains("| 0 vs 10000 |"), "{pool}");
        assert!(
            pool.contains("| 150 ns (149–152) vs 8.0 ns (7.0–10.0) |"),
            "{pool}"
        );
        // Throughput is the bench's ratio of throughputs, with its range.
        assert!(
            pool.contains("| a pool on a crossbeam channel | 0.80× (0.70–0.90) |"),
            "{pool}"
        );
        assert!(
            pool.contains("| the `threadpool` crate | 2.00× (1.90–2.10) |"),
            "{pool}"
        );
        let wheel = summary_wheel(&run);
        assert!(
            wheel.contains("| hierarchical_hash_wheel_timer's plain wheel | 1.17× (1.07–1.37) |"),
            "{wheel}"
        );
        assert!(
            wheel.contains(
                "| itself at 10^3 pending | 14.0 ns (13.0–17.0) vs 14.0 ns (13.0–17.0) |"
            ),
            "{wheel}"
        );
        assert!(wheel.contains("| 0 /s vs 999 /s |"), "{wheel}");
    }

    #[test]
    fn a_ratio_table_reads_each_size_and_input_from_its_own_group() {
        let mut rows = Vec::new();
        rows.extend(spread_rows(
            "timer_schedule",
            "best case, 10^5 pending",
            &format!("{TIMER} / {PEER}"),
            [0.7, 0.6, 0.9],
        ));
        rows.extend(spread_rows(
            "timer_schedule",
            "random, 10^5 pending",
            &format!("{TIMER} / {PEER}"),
            [0.85, 0.8, 1.3],
        ));
        let mut run = run_of(&[], &[]);
        run.rows
            .extend(rows.into_iter().map(|(k, v)| (k.into(), v)));
        let text = schedule_timer(&run);
        assert!(
            text.contains(
                "| scheduled-thread-pool | 10^5 | 0.70× (0.60–0.90) | 0.85× (0.80–1.30) |"
            ),
            "{text}"
        );
        assert!(
            text.contains("| scheduled-thread-pool | 10^3 | - | - |"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 2 + 2 * FAIR_SIZES.len());
    }

    #[test]
    fn the_cancel_tables_give_each_canceller_at_each_size() {
        let run = full();
        let random = cancel_table(&run, "random standing task", &CANCELLERS);
        assert!(
            random.starts_with(
                "| random standing task, one cancel (ns) | 10^3 pending | 10^5 pending | 10^6 pending |"
            ),
            "{random}"
        );
        assert!(
            random
                .contains("| HierarchicalWheel | 150 (149–152) | 150 (149–152) | 150 (149–152) |"),
            "{random}"
        );
        assert!(
            random.contains("| scheduled-thread-pool | 8.0 (7.0–10.0) |"),
            "{random}"
        );
        let held = cancel_held(&run);
        assert!(held.contains("| scheduled pool, lazy | 10000 |"), "{held}");
        assert!(held.contains("| indexed heap | 0 |"), "{held}");
    }

    #[test]
    fn instructions_come_in_the_chapter_s_order() {
        let text = instructions(&full());
        let groups: Vec<&str> = text
            .lines()
            .skip(2)
            .filter_map(|l| l.split(" | ").next())
            .map(|g| g.trim_start_matches("| "))
            .collect();
        let mut order = groups.clone();
        order.dedup();
        assert_eq!(order, INSTRUCTION_GROUPS);
        assert_eq!(groups.len(), 10);
    }

    #[test]
    fn fair_targets_judge_the_median_and_show_the_range() {
        let mut rows = Vec::new();
        // Met on the median though one round read above the line.
        rows.extend(spread_rows(
            "scheduled_pool",
            "random, 10^6 pending",
            "ScheduledThreadPool (stage 6) / scheduled-thread-pool",
            [0.88, 0.80, 0.97],
        ));
        // The floor against the same peer, shown beside the target.
        rows.extend(spread_rows(
            "scheduled_pool",
            "random, 10^6 pending",
            "floor: clock, lock, box, Arc, heap push / scheduled-thread-pool",
            [1.01, 0.90, 1.20],
        ));
        // Missed: 412 ns against 300.
        rows.extend(spread_rows(
            "cancel_cost",
            "random standing task, 10^6 pending",
            "indexed heap",
            [412.0, 380.0, 470.0],
        ));
        // Throughput is a ratio of throughputs: at least the line.
        rows.extend(spread_rows(
            "pool_throughput",
            "random, 2 workers",
            "throughput, ours (stage 6) / threadpool",
            [1.6, 1.2, 1.7],
        ));
        let mut run = run_of(&[], &[]);
        run.rows
            .extend(rows.into_iter().map(|(k, v)| (k.into(), v)));
        let groups = targets(&run);
        let find = |start: &str| {
            groups
                .iter()
                .flat_map(|g| &g.lines)
                .find(|l| l.target.starts_with(start))
                .unwrap_or_else(|| panic!("no target {start:?}"))
        };
        let pool = find("ScheduledThreadPool (stage 6), random, 10^6 pending: at most 0.9×");
        assert_eq!(
            pool.measured,
            "0.88× (0.80–0.97); the floor itself: 1.01× (0.90–1.20)"
        );
        assert!(matches!(pool.verdict, Verdict::Met));
        let cancel = find("indexed heap: a random standing task");
        assert_eq!(cancel.measured, "412 ns (380–470)");
        assert!(matches!(cancel.verdict, Verdict::Missed));
        let throughput = find("pool throughput at least 1.5×");
        assert!(matches!(throughput.verdict, Verdict::Met));
        // Not measured: a size the run did not write.
        let absent = find("ScheduledThreadPool (stage 6), random, 10^3 pending: at most 0.9×");
        assert!(matches!(absent.verdict, Verdict::NotMeasured));
    }

    #[test]
    fn a_quick_run_gives_no_verdict() {
        let mut run = full();
        run.rows.extend(
            spread_rows(
                "cancel_cost",
                "random standing task, 10^6 pending",
                "indexed heap",
                [100.0, 90.0, 110.0],
            )
            .into_iter()
            .map(|(k, v)| (k.into(), v)),
        );
        run.quick = true;
        let groups = targets(&run);
        let lines: Vec<&Line> = groups.iter().flat_map(|g| &g.lines).collect();
        assert!(
            lines
                .iter()
                .all(|l| matches!(l.verdict, Verdict::NotMeasured))
        );
        let cancel = lines
            .iter()
            .find(|l| l.target.starts_with("indexed heap: a random standing task"))
            .expect("the cancel target");
        assert_eq!(cancel.measured, "100 ns (90–110); a quick run: no verdict");
    }

    #[test]
    fn a_missing_result_reads_as_missing_not_as_a_number() {
        let empty = run_of(&[], &[]);
        for line in summary_pool(&empty).lines().skip(2) {
            assert!(line.ends_with("| - |"), "{line}");
        }
        for line in schedule_pool(&empty).lines().skip(2) {
            assert!(line.ends_with("| - | - |"), "{line}");
        }
        let groups = targets(&empty);
        assert!(
            groups
                .iter()
                .flat_map(|g| &g.lines)
                .all(|l| matches!(l.verdict, Verdict::NotMeasured))
        );
    }

    /// The chapter includes every table the report writes, and nothing
    /// else from its directory: a new run needs no edit to the prose.
    #[test]
    fn the_chapter_includes_what_the_report_writes() {
        let chapter = std::fs::read_to_string(root().join("book/src/ch08-performance.md"))
            .expect("the performance chapter");
        let included: std::collections::BTreeSet<&str> = chapter
            .split("{{#include generated/perf/")
            .skip(1)
            .filter_map(|rest| rest.split("}}").next())
            .collect();
        let written: std::collections::BTreeSet<&str> =
            written(&full()).into_iter().map(|(name, _)| name).collect();
        assert_eq!(included, written);
        // And shows every plot it draws.
        for plot in [
            "schedule-cost.svg",
            "insert-cost.svg",
            "lateness.svg",
            "herd.svg",
            "throughput.svg",
        ] {
            assert!(
                chapter.contains(&format!("(generated/perf/{plot})")),
                "the chapter does not show {plot}"
            );
        }
    }
}
