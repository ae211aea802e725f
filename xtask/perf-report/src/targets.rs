//! Every target, with its verdict, grouped under the heading of what it
//! measures, and the table of them (`targets.md`).

use devkit::markdown::md_table;
use std::fmt::Write as _;

use crate::load::*;

/// A target's outcome.
pub(crate) enum Verdict {
    Met,
    Missed,
    NotMeasured,
}

pub(crate) struct Line {
    pub(crate) target: String,
    pub(crate) measured: String,
    pub(crate) verdict: Verdict,
}

/// The targets under one heading of the report.
pub(crate) struct Group {
    pub(crate) title: &'static str,
    pub(crate) lines: Vec<Line>,
}

pub(crate) fn line(target: impl Into<String>, measured: Option<(String, bool)>) -> Line {
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
pub(crate) fn ratio(a: f64, b: f64) -> String {
    format!("{:.2}×", a / b)
}

/// A delay as the benches name their groups ("100us", "1ms"), as the book
/// writes it ("100 µs", "1 ms").
pub(crate) fn delay(label: &str) -> String {
    if let Some(n) = label.strip_suffix("us") {
        format!("{n} µs")
    } else if let Some(n) = label.strip_suffix("ms") {
        format!("{n} ms")
    } else {
        label.to_owned()
    }
}

/// A target met when a fair ratio's median is at most `limit`.
pub(crate) fn median_at_most(target: String, spread: Option<Spread>, limit: f64) -> Line {
    line(target, spread.map(|s| (s.times(), s.median <= limit)))
}

/// A target met when a fair ratio's median is at least `limit`.
pub(crate) fn median_at_least(target: String, spread: Option<Spread>, limit: f64) -> Line {
    line(target, spread.map(|s| (s.times(), s.median >= limit)))
}

/// Every target, under the heading of what it measures, in the order the
/// chapter explains them. A quick run (`PERF_QUICK=1`, a smoke run) gets
/// no verdict: its figures are shown, every target "not measured".
pub(crate) fn targets(run: &Run) -> Vec<Group> {
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
pub(crate) fn schedule_targets(run: &Run) -> Vec<Line> {
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
pub(crate) fn wheel_targets(run: &Run) -> Vec<Line> {
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
pub(crate) fn cancel_targets(run: &Run) -> Vec<Line> {
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
pub(crate) fn lateness_targets(run: &Run) -> Vec<Line> {
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
pub(crate) fn wakeup_targets(run: &Run) -> Vec<Line> {
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
pub(crate) fn instruction_targets(run: &Run) -> Vec<Line> {
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
pub(crate) fn periodic_targets(run: &Run) -> Vec<Line> {
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
pub(crate) fn async_targets(run: &Run) -> Vec<Line> {
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
pub(crate) fn table(run: &Run, groups: &[Group]) -> String {
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
        let rows: Vec<Vec<&str>> = group
            .lines
            .iter()
            .map(|l| {
                let verdict = match l.verdict {
                    Verdict::Met => "met",
                    Verdict::Missed => "**missed**",
                    Verdict::NotMeasured => "not measured",
                };
                vec![l.target.as_str(), l.measured.as_str(), verdict]
            })
            .collect();
        let _ = write!(
            out,
            "\n### {}\n\n{}",
            group.title,
            md_table(&["target", "measured", "verdict"], &rows)
        );
    }
    out
}
