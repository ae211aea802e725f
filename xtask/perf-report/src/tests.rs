//! The report's tests, on a made-up run shaped like a real one.

use crate::load::*;
use crate::plots::*;
use crate::tables::*;
use crate::targets::*;
use crate::*;

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
    for store in DURABLE_STORES {
        for shape in DURABLE_SHAPES {
            let g = format!("{store}, {shape}");
            fair.extend(spread_rows(
                "durable",
                &g,
                DURABLE_FLOOR,
                [100_000.0, 80_000.0, 125_000.0],
            ));
            for who in DURABLE_NODES {
                let ns = [400_000.0, 250_000.0, 500_000.0];
                fair.extend(spread_rows("durable", &g, who, ns));
                let over = |reference: &str| format!("throughput, {who} / {reference}");
                fair.extend(spread_rows(
                    "durable",
                    &g,
                    &over(DURABLE_FLOOR),
                    [0.25, 0.2, 0.4],
                ));
                if who != DURABLE_NODES[0] {
                    let r = [1.6, 1.2, 2.0];
                    fair.extend(spread_rows("durable", &g, &over(DURABLE_NODES[0]), r));
                }
            }
        }
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
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
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
fn the_durable_tables_give_claims_per_second_then_ratios() {
    let run = full();
    let text = durable_table(&run, "PostgreSQL");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "| PostgreSQL, claims per second | 10^2 jobs, all due | 10^3 jobs, all due | \
         10^4 jobs, 10^2 due |"
    );
    // A time per claim read as claims per second: the median's, then the
    // slowest round's and the fastest's.
    assert_eq!(
        lines[2],
        "| the floor: one `UPDATE` by id | 10000 (8000–12500) | 10000 (8000–12500) | \
         10000 (8000–12500) |"
    );
    assert!(
        lines[3].starts_with("| 1 node | 2500 (2000–4000) |"),
        "{text}"
    );
    assert!(lines[8].starts_with("| 4 nodes over the floor | 0.25× (0.20–0.40) |"));
    assert!(lines[10].starts_with("| 4 nodes over 1 node | 1.60× (1.20–2.00) |"));
    assert_eq!(lines.len(), 11);
    // SQLite's table reads SQLite's groups only.
    let sqlite = durable_table(&run_of(&[], &[]), "SQLite");
    assert!(figureless(&sqlite), "{sqlite}");
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
        wheel.contains("| itself at 10^3 pending | 14.0 ns (13.0–17.0) vs 14.0 ns (13.0–17.0) |"),
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
        text.contains("| scheduled-thread-pool | 10^5 | 0.70× (0.60–0.90) | 0.85× (0.80–1.30) |"),
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
        random.contains("| HierarchicalWheel | 150 (149–152) | 150 (149–152) | 150 (149–152) |"),
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

#[test]
fn criterion_medians_are_read_from_every_new_directory_at_any_depth() {
    // Removed when dropped, a panicking test too.
    let temp = tempfile::tempdir().unwrap();
    let bench = |dir: &str, id: &str, median: f64| {
        let new = temp.path().join(dir).join("new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(
            new.join("benchmark.json"),
            format!("{{\"full_id\": \"{id}\"}}"),
        )
        .unwrap();
        std::fs::write(
            new.join("estimates.json"),
            format!("{{\"median\": {{\"point_estimate\": {median}}}}}"),
        )
        .unwrap();
    };
    bench("physics/Instant::now", "physics/Instant::now", 20.5);
    bench("a/b/c", "a/b/c", 7.0);
    // criterion's last-but-one run, beside its newest: not read.
    std::fs::create_dir_all(temp.path().join("a/b/c/base")).unwrap();
    let mut found = std::collections::BTreeMap::new();
    collect_criterion(temp.path(), &mut found);
    assert_eq!(
        found.into_iter().collect::<Vec<_>>(),
        [
            ("a/b/c".to_owned(), 7.0),
            ("physics/Instant::now".to_owned(), 20.5)
        ]
    );
    let mut none = std::collections::BTreeMap::new();
    collect_criterion(&temp.path().join("missing"), &mut none);
    assert!(none.is_empty());
}
