//! The performance chapter's other tables, one per file: summaries, ratio
//! tables, floors, lateness, wake-ups, cancels, instructions.

use devkit::markdown::md_table;

use crate::load::*;
use crate::targets::*;

/// Every table `--write` puts in [`OUT`] besides `targets.md`, by file
/// name: one table per file, so that the chapter puts its own heading and
/// words between them and a new run changes no prose.
pub(crate) fn tables(run: &Run) -> Vec<(&'static str, String)> {
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
        ("durable-sqlite.md", durable_table(run, DURABLE_STORES[0])),
        ("durable-postgres.md", durable_table(run, DURABLE_STORES[1])),
    ]
}

/// Stage 9's claims on one store (`durable`), a column per shape of the
/// table: the claims per second of the floor and of 1, 2 and 4 nodes
/// (median and range), then, round by round, each count's over the
/// floor's and over one node's.
pub(crate) fn durable_table(run: &Run, store: &str) -> String {
    const BENCH: &str = "durable";
    let at = |subject: &str, show: fn(&Spread) -> String| -> Vec<String> {
        DURABLE_SHAPES
            .iter()
            .map(|shape| {
                Spread::of(run, BENCH, &format!("{store}, {shape}"), subject)
                    .map_or_else(|| "-".to_owned(), |s| show(&s))
            })
            .collect()
    };
    let over =
        |who: &str, reference: &str| at(&format!("throughput, {who} / {reference}"), Spread::times);
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut push = |label: String, cells: Vec<String>| rows.push([vec![label], cells].concat());
    push(
        "the floor: one `UPDATE` by id".into(),
        at(DURABLE_FLOOR, Spread::per_second),
    );
    for who in DURABLE_NODES {
        push(who.into(), at(who, Spread::per_second));
    }
    for who in DURABLE_NODES {
        push(format!("{who} over the floor"), over(who, DURABLE_FLOOR));
    }
    for who in &DURABLE_NODES[1..] {
        push(format!("{who} over 1 node"), over(who, DURABLE_NODES[0]));
    }
    let header = format!("{store}, claims per second");
    md_table(
        &[
            header.as_str(),
            DURABLE_SHAPES[0],
            DURABLE_SHAPES[1],
            DURABLE_SHAPES[2],
        ],
        &rows,
    )
}

/// Stage 8's timer, tokio's and futures-timer's, measure by measure
/// (`async_timers`): times in interleaved rounds (median and range), the
/// bytes a pending sleep holds, and how late a 1 ms sleep wakes its task.
pub(crate) fn async_table(run: &Run) -> String {
    const BENCH: &str = "async_timers";
    const WHO: [&str; 3] = ["async-timer (stage 8)", "tokio::time", "futures-timer"];
    let mut rows = Vec::new();
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
        rows.push([vec![label.to_owned()], cells.to_vec()].concat());
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
    rows.push([vec!["heap held, 10^5 pending".to_owned()], bytes.to_vec()].concat());
    for stat in ["p50", "p99"] {
        let late = WHO.map(|who| {
            run.row(BENCH, "lateness 1ms, current-thread runtime", who, stat)
                .map_or("-".into(), |us| format!("{us:.0} µs"))
        });
        rows.push(
            [
                vec![format!("a 1 ms sleep's lateness, {stat}")],
                late.to_vec(),
            ]
            .concat(),
        );
    }
    md_table(&["per sleep", WHO[0], WHO[1], WHO[2]], &rows)
}

/// A number for a table cell, or a dash.
pub(crate) fn cell(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "-".to_owned(), |v| format!("{v:.digits$}"))
}

/// A three-column table: what was measured, beside what, and the result
/// (a dash where the last run did not measure it).
pub(crate) fn glance(rows: &[(String, &str, Option<String>)]) -> String {
    let rows: Vec<Vec<&str>> = rows
        .iter()
        .map(|(what, beside, result)| vec![what, *beside, result.as_deref().unwrap_or("-")])
        .collect();
    md_table(&["measured", "beside", "result"], &rows)
}

/// The largest size the schedule, cancel and insert benches run at, as
/// their groups name it: the at-a-glance tables read it.
pub(crate) const LARGEST: &str = "10^6";

/// `ours`' instructions per call over `theirs'`, in `instructions`' `group`.
pub(crate) fn instruction_ratio(
    run: &Run,
    group: &str,
    ours: &str,
    theirs: &str,
) -> Option<String> {
    let at = |who: &str| run.row("instructions", group, who, "instructions");
    at(ours).zip(at(theirs)).map(|(o, t)| ratio(o, t))
}

pub(crate) fn idle_wakeups(run: &Run, who: &str) -> Option<f64> {
    run.row("idle_cost", "one task pending", who, "wakeups")
}

/// "0 /s vs 999 /s": a finished version's idle wake-ups beside a hashed
/// wheel's.
pub(crate) fn idle_beside_hashed(run: &Run, who: &str) -> Option<String> {
    idle_wakeups(run, who)
        .zip(idle_wakeups(run, "wheel::hashed, 1 ms"))
        .map(|(o, h)| format!("{o:.0} /s vs {h:.0} /s"))
}

/// A task due in 1 ms, p50 lateness, beside the bare timed wait's.
pub(crate) fn late_beside_wait(run: &Run, who: &str) -> Option<String> {
    let g = "one at a time 1ms";
    run.row("fire_latency", g, who, "p50")
        .zip(run.row("fire_latency", g, "park_timeout", "p50"))
        .map(|(o, f)| format!("{o:.1} µs vs {f:.1} µs"))
}

/// The preempting wake-up's p50 over the park/unpark hand-off's.
pub(crate) fn preempt_ratio(run: &Run, who: &str) -> Option<String> {
    let at = |s: &str| run.row("preempt_wakeup", "schedule to run", s, "p50");
    at(who)
        .zip(at("park/unpark (floor)"))
        .map(|(o, f)| ratio(o, f))
}

/// The p99 under load over the peer's.
pub(crate) fn load_ratio(run: &Run, who: &str) -> Option<String> {
    let at = |s: &str| run.row("fire_latency", "under load", s, "p99");
    at(who).zip(at(PEER)).map(|(o, p)| ratio(o, p))
}

/// How the tables name the `Timer`'s floor.
pub(crate) const TIMER_FLOOR_LABEL: &str = "its floor: clock, lock, box, heap push";
/// How the tables name the scheduled pool's floor.
pub(crate) const POOL_FLOOR_LABEL: &str = "its floor: clock, lock, box, `Arc`, heap push";

/// Stage 5's `Timer` beside its peer and its floors: one schedule on
/// random inputs at the largest size, in time (median and range of the
/// per-round ratio) and in instructions, then lateness, wake-ups and idle.
pub(crate) fn summary_timer(run: &Run) -> String {
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
pub(crate) fn summary_pool(run: &Run) -> String {
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
pub(crate) fn summary_wheel(run: &Run) -> String {
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
pub(crate) fn ratio_table(
    run: &Run,
    bench: &str,
    header: &str,
    ours: &str,
    references: &[(&str, &str)],
    sizes: &[&str],
    inputs: [&str; 2],
) -> String {
    let mut rows = Vec::new();
    for (reference, label) in references {
        for size in sizes {
            let at = |input: &str| {
                let g = format!("{input}, {size} pending");
                Spread::ratio(run, bench, &g, ours, reference)
                    .map_or_else(|| "-".to_owned(), |s| s.times())
            };
            rows.push(vec![
                (*label).to_owned(),
                (*size).to_owned(),
                at(inputs[0]),
                at(inputs[1]),
            ]);
        }
    }
    md_table(&[header, "pending", inputs[0], inputs[1]], &rows)
}

/// The `Timer`'s schedule over its peer's and its floor's.
pub(crate) fn schedule_timer(run: &Run) -> String {
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
pub(crate) fn schedule_pool(run: &Run) -> String {
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
pub(crate) fn insert(run: &Run) -> String {
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
pub(crate) fn throughput_table(run: &Run) -> String {
    let mut rows = Vec::new();
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
        rows.push(vec![
            label.to_owned(),
            at(SCHEDULE_INPUTS[0]),
            at(SCHEDULE_INPUTS[1]),
        ]);
    }
    let [first, second] = SCHEDULE_INPUTS;
    md_table(&["our pool's throughput over", first, second], &rows)
}

/// The floors: criterion's medians from `physics`.
pub(crate) fn floors(run: &Run) -> String {
    let mut rows = Vec::new();
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
        rows.push(vec![label.to_owned(), shown]);
    }
    md_table(&["floor", "median"], &rows)
}

/// The timed wait's overshoot (`fire_latency`), with the default slack
/// and with it lowered.
pub(crate) fn timed_wait(run: &Run) -> String {
    let mut rows = Vec::new();
    for label in DELAYS {
        for (who, slack) in [
            ("park_timeout", "default slack"),
            ("park_timeout, slack 1 ns", "slack 1 ns"),
        ] {
            let g = format!("one at a time {label}");
            rows.push(vec![
                format!("{}, {slack}", delay(label)),
                format!("{} µs", cell(run.row("fire_latency", &g, who, "p50"), 1)),
                format!("{} µs", cell(run.row("fire_latency", &g, who, "p99"), 1)),
            ]);
        }
    }
    md_table(&["`park_timeout` ends late by", "p50", "p99"], &rows)
}

/// How late tasks run one at a time: one statistic (`p50` or `p99`), a
/// column per delay.
pub(crate) fn lateness_table(run: &Run, stat: &str) -> String {
    let mut subjects: Vec<&str> = Vec::new();
    for (bench, group, subject, _) in run.rows.keys() {
        if bench == "fire_latency"
            && group == "one at a time 1ms"
            && !subjects.contains(&subject.as_str())
        {
            subjects.push(subject);
        }
    }
    let mut header = vec![format!("late by, {stat} (µs)")];
    header.extend(DELAYS.iter().map(|label| delay(label)));
    let rows: Vec<Vec<String>> = subjects
        .iter()
        .map(|who| {
            let mut row = vec![(*who).to_owned()];
            for label in DELAYS {
                let v = run.row("fire_latency", &format!("one at a time {label}"), who, stat);
                row.push(cell(v, 1));
            }
            row
        })
        .collect();
    md_table(&header, &rows)
}

/// How late tasks run under load.
pub(crate) fn load(run: &Run) -> String {
    let mut rows = Vec::new();
    for (bench, group, subject, stat) in run.rows.keys() {
        if bench == "fire_latency" && group == "under load" && stat == "p50" {
            let at = |stat: &str| cell(run.row(bench, group, subject, stat), 1);
            rows.push(vec![subject.clone(), at("p50"), at("p99"), at("max")]);
        }
    }
    md_table(&["under load, late by (µs)", "p50", "p99", "max"], &rows)
}

/// The pools' wake-ups per task fired.
pub(crate) fn wakeups(run: &Run) -> String {
    let mut rows = Vec::new();
    for who in [
        SUCCESSOR,
        "the JDK's leader-follower",
        "herd (T10's bug)",
        PEER,
    ] {
        let at = |w: usize| run.row("herd", &format!("{w} workers"), who, "wakeups/task");
        rows.push(vec![who.to_owned(), cell(at(4), 2), cell(at(8), 2)]);
    }
    md_table(
        &["wake-ups per task fired", "4 workers", "8 workers"],
        &rows,
    )
}

/// The preempting wake-up, and its floors.
pub(crate) fn preempt(run: &Run) -> String {
    let mut rows = Vec::new();
    for (bench, group, subject, stat) in run.rows.keys() {
        if bench == "preempt_wakeup" && stat == "p50" {
            let at = |stat: &str| cell(run.row(bench, group, subject, stat), 1);
            rows.push(vec![subject.clone(), at("p50"), at("p99")]);
        }
    }
    md_table(&["schedule to run (µs)", "p50", "p99"], &rows)
}

/// Idle cost, every version.
pub(crate) fn idle(run: &Run) -> String {
    let mut rows = Vec::new();
    let mut seen = Vec::new();
    for (bench, group, subject, _) in run.rows.keys() {
        if bench == "idle_cost" && !seen.contains(subject) {
            seen.push(subject.clone());
            rows.push(vec![
                format!("`{subject}`"),
                cell(run.row(bench, group, subject, "cpu"), 2),
                cell(run.row(bench, group, subject, "wakeups"), 0),
            ]);
        }
    }
    md_table(
        &[
            "one task pending, nothing due",
            "CPU (ms/s)",
            "wake-ups (/s)",
        ],
        &rows,
    )
}

/// The timers `cancel_cost` cancels a random standing task on, in its
/// order.
pub(crate) const CANCELLERS: [&str; 7] = [
    "indexed heap",
    "scheduled pool, remove on cancel",
    "scheduled pool, lazy",
    "Timer",
    "HashedWheel",
    "HierarchicalWheel",
    "scheduled-thread-pool",
];

/// The timers `cancel_cost` cancels the newest task on (not the wheels).
pub(crate) const NEWEST_CANCELLERS: [&str; 5] = [
    "indexed heap",
    "scheduled pool, remove on cancel",
    "scheduled pool, lazy",
    "Timer",
    "scheduled-thread-pool",
];

/// The timers whose count of entries held `cancel_cost` can read.
pub(crate) const HOLDERS: [&str; 4] = [
    "indexed heap",
    "scheduled pool, remove on cancel",
    "scheduled pool, lazy",
    "Timer",
];

/// One cancel, in ns per cancel, by the count pending: `case` is the
/// bench's group before its size ("random standing task", "newest task").
pub(crate) fn cancel_table(run: &Run, case: &str, who: &[&str]) -> String {
    let mut header = vec![format!("{case}, one cancel (ns)")];
    header.extend(FAIR_SIZES.iter().map(|size| format!("{size} pending")));
    let rows: Vec<Vec<String>> = who
        .iter()
        .map(|subject| {
            let mut row = vec![(*subject).to_owned()];
            for size in FAIR_SIZES {
                let group = format!("{case}, {size} pending");
                let s = Spread::of(run, "cancel_cost", &group, subject);
                row.push(s.map_or_else(|| "-".to_owned(), |s| s.bare_ns()));
            }
            row
        })
        .collect();
    md_table(&header, &rows)
}

/// What a cancel leaves behind: entries held beyond the live ones.
pub(crate) fn cancel_held(run: &Run) -> String {
    const GROUP: &str = "held after cancelling a tenth";
    let rows: Vec<Vec<String>> = HOLDERS
        .iter()
        .map(|who| {
            let held = run.row("cancel_cost", GROUP, who, "entries");
            vec![(*who).to_owned(), cell(held, 0)]
        })
        .collect();
    md_table(&[GROUP, "entries"], &rows)
}

/// The groups of `instructions`, in the chapter's order.
pub(crate) const INSTRUCTION_GROUPS: [&str; 4] = [
    "schedule, best case",
    "schedule, random",
    "cancel, random standing task",
    "insert",
];

/// Instructions per call, from callgrind, a group at a time.
pub(crate) fn instructions(run: &Run) -> String {
    let mut rows = Vec::new();
    for group in INSTRUCTION_GROUPS {
        for ((bench, g, subject, stat), v) in &run.rows {
            if bench == "instructions" && g == group && stat == "instructions" {
                rows.push(vec![group.to_owned(), subject.clone(), format!("{v:.0}")]);
            }
        }
    }
    md_table(&["call", "version", "instructions (callgrind)"], &rows)
}
