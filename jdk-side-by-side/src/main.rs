//! Our side of `cargo xtask jdk`: the scenarios of
//! `jdk-side-by-side/java/SideBySide.java`, run on the finished versions
//! (stage 5's Timer, stage 6's pool and scheduled pool), each printing the
//! lines the Java side prints, `<scenario> | <what happened>`, in the same
//! words.
//!
//! ```text
//! cargo run -p jdk-side-by-side                  # every scenario
//! cargo run -p jdk-side-by-side -- timer-stall   # one (or a few)
//! cargo run -p jdk-side-by-side -- --list        # their names
//! ```
//!
//! Read [`timer`] (java.util.Timer), then [`pool`] (ThreadPoolExecutor),
//! then [`scheduled`] (ScheduledThreadPoolExecutor).
//!
//! Counts and orders only, never a time: where a scenario needs time to
//! pass it waits at least that long (`kit::ms`, scaled by
//! `KIT_TIME_SCALE`, as the Java side scales its own), and it judges by
//! what ran before what. Where our API differs from the JDK's by design, a
//! line says what a caller sees in the shared words: a typed `Err` where
//! Java throws is "refused" on both sides, a panic is what Java calls a
//! throw. Where the *behaviour* differs by design (a timer that survives a
//! panicking task, I6), the line says what ours does, and `cargo xtask jdk`
//! lists the difference with its reason.

mod pool;
mod scheduled;
mod timer;

/// Prints one line of a trace.
fn line(scenario: &str, what: &str) {
    println!("{scenario} | {what}");
}

/// "1 run", "4 runs".
fn runs(n: usize) -> String {
    if n == 1 {
        "1 run".to_string()
    } else {
        format!("{n} runs")
    }
}

/// The message of the panics this program raises on purpose. The Java
/// side's exceptions say "on purpose" too, and both sides keep them quiet.
const ON_PURPOSE: &str = "a task that panics, on purpose";

/// Every scenario, by the name both sides give it, in the order run.
const SCENARIOS: &[(&str, fn())] = &[
    ("timer-cancel", timer::cancel),
    ("timer-task-throws", timer::task_panics),
    ("timer-stall", timer::stall),
    ("timer-past-start", timer::past_start),
    ("timer-fixed-delay-from", timer::fixed_delay_from),
    ("timer-purge", timer::purge),
    ("timer-threads", timer::threads),
    ("timer-long-task-first", timer::long_task),
    ("pool-growth", pool::growth),
    ("pool-worker-replaced", pool::worker_replaced),
    ("pool-before-hook-throws", pool::before_hook_panics),
    ("pool-rejected-when-full", pool::rejected_when_full),
    (
        "pool-rejected-after-shutdown",
        pool::rejected_after_shutdown,
    ),
    ("pool-shutdown-now", pool::shutdown_now),
    ("pool-invoke-any", pool::invoke_any_first_wins),
    ("pool-invoke-any-all-throw", pool::invoke_any_all_fail),
    ("pool-remove", pool::remove),
    ("pool-purge", pool::purge),
    ("scheduled-threads", scheduled::threads),
    ("scheduled-long-task-first", scheduled::long_task),
    ("scheduled-shutdown", scheduled::shutdown),
    ("scheduled-remove-on-cancel", scheduled::remove_on_cancel),
    ("scheduled-periodic-throws", scheduled::periodic_panics),
    (
        "scheduled-fixed-rate-no-overlap",
        scheduled::fixed_rate_never_overlaps,
    ),
    ("scheduled-fixed-delay-from", scheduled::fixed_delay_from),
];

fn main() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if info.payload().downcast_ref::<&str>() != Some(&ON_PURPOSE) {
            report(info);
        }
    }));
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args == ["--list"] {
        for (name, _) in SCENARIOS {
            println!("{name}");
        }
        return;
    }
    let chosen: Vec<&str> = if args.is_empty() {
        SCENARIOS.iter().map(|(name, _)| *name).collect()
    } else {
        args.iter().map(String::as_str).collect()
    };
    for name in chosen {
        let Some((_, scenario)) = SCENARIOS.iter().find(|(n, _)| *n == name) else {
            let names: Vec<&str> = SCENARIOS.iter().map(|(n, _)| *n).collect();
            eprintln!("no scenario {name}; the scenarios: {names:?}");
            std::process::exit(2);
        };
        scenario();
    }
}
