//! Stage 9's bugs, forced as the tests force them, each beside the fixed
//! node held at the same moment: what each node did, on the world's clock,
//! and the rows of the two witness tables, `deliveries` (what the world
//! saw) and `effects` (what the database kept). *A timer that outlives its
//! process* shows them (`book/src/generated/d*-….txt`, written by `cargo
//! xtask timelines`).
//!
//! Every scenario runs on a SQLite file of its own, its time moved by the
//! program and never by sleeping, so the output is the same on every run.
//!
//! ```text
//! cargo run -p durable-timer --example durable_races            # all nine
//! cargo run -p durable-timer --example durable_races -- d3      # one
//! cargo run -p durable-timer --example durable_races -- --d3 FILE [--d1 FILE ...]
//! ```
//!
//! The last form writes each one's log to its file, after a first line
//! with the command that prints it.

mod scenarios;
mod world;

use durable_timer::{
    CLAIMING, Millis, Misfire, Node, PLANNING, Point, RUNNING, Step, Variant, check_then_claim,
    check_then_insert, cursor_poll, renew_by_name, state_guard_claim, unfenced_write,
};
use kit::pause::Pause;
use world::World;

/// One run: its title, what happened, and the line that sums it up.
struct Run {
    title: &'static str,
    lines: Vec<String>,
    verdict: String,
}

impl Run {
    fn new(title: &'static str) -> Run {
        Run {
            title,
            lines: Vec::new(),
            verdict: String::new(),
        }
    }

    /// A line of the log: the world's time, who, what.
    fn note(&mut self, world: &World, who: &str, what: impl AsRef<str>) {
        let at = format!("{} ms", world.now());
        self.lines
            .push(format!("{at:>9}  {who:<4} {}", what.as_ref()));
    }

    /// The rows of `deliveries` and `effects` for one occurrence, one a
    /// line: the node, its claim's fence, and the store's time.
    fn tables(&mut self, world: &World, job: &str, occurrence: Millis) {
        self.lines.push(format!("  `{job}` at {occurrence} ms:"));
        for (table, rows) in [
            ("deliveries", world.deliveries(job, occurrence)),
            ("effects", world.effects(job, occurrence)),
        ] {
            if rows.is_empty() {
                self.lines.push(format!("    {table:<10}  none"));
            }
            for (i, r) in rows.iter().enumerate() {
                let table = if i == 0 { table } else { "" };
                self.lines.push(format!(
                    "    {table:<10}  {:<2} fence {}  at {} ms",
                    r.node, r.fence, r.at
                ));
            }
        }
    }
}

/// What a round did, in words.
fn did(step: &Step) -> String {
    match step {
        Step::Idle => "found nothing to claim".into(),
        Step::Fired(c) => format!(
            "claimed `{}` at {} ms (fence {}), ran it, completed",
            c.job, c.occurrence, c.fence
        ),
        Step::Fenced(c) => format!(
            "ran `{}` (fence {}); completing changed no row: fenced out",
            c.job, c.fence
        ),
        Step::Demoted(c) => format!(
            "ran `{}` (fence {}); renewal refused: dropped the run",
            c.job, c.fence
        ),
        Step::Crashed => "crashed: its connection is gone".into(),
    }
}

/// Starts `node`'s round on its thread, held at `point`.
fn held(node: Node, point: &'static str) -> (Pause, durable_timer::StepThread) {
    let pause = Pause::arm(point, node.thread_name());
    let thread = node.spawn_step().expect("start the node's round");
    pause.wait_reached();
    (pause, thread)
}

/// Lets a held round go, and waits for it.
fn let_go(pause: Pause, thread: durable_timer::StepThread) -> Step {
    pause.release();
    let (_, step) = thread.join();
    step.expect("the node's round")
}

/// What a node held at `point` has done so far.
fn held_at(point: &str) -> &'static str {
    match point {
        p if p == check_then_claim::WINDOW => "held: found `report` due, not yet marked it",
        p if p == state_guard_claim::WINDOW => {
            "held: found `tick` waiting at 1000 ms, not yet marked it"
        }
        p if p == cursor_poll::WINDOW => {
            "held: its scan up to 1200 ms found nothing, cursor not yet moved"
        }
        p if p == check_then_insert::WINDOW => {
            "held: found no job for 1000 ms, not yet inserted one"
        }
        p if p == PLANNING => "held: computed the id `nightly@1000`, not yet inserted it",
        p if p == CLAIMING => "held: about to claim, in one statement",
        _ => "held",
    }
}

/// A plan's result, in words.
fn planned_job(planned: Option<&str>) -> String {
    planned.map_or_else(
        || "nothing: the job is there".into(),
        |id| format!("job `{id}`"),
    )
}

/// Occurrences as "150, from 2000 to 151000 ms", or "none".
fn span(occurrences: &[Millis]) -> String {
    match (occurrences.first(), occurrences.last()) {
        (Some(first), Some(last)) if first != last => {
            format!("{}, occurrences {first} to {last} ms", occurrences.len())
        }
        (Some(only), _) => format!("1, the occurrence at {only} ms"),
        _ => "none".into(),
    }
}

/// "no deliveries", "1 delivery", "2 deliveries".
fn count(n: usize, one: &str, many: &str) -> String {
    match n {
        0 => format!("no {many}"),
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// "once", "twice", "3 times".
fn times(n: usize) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

/// A scenario held at a window: the version, the window, the run's title.
type Held = fn(Variant, &'static str, &'static str) -> Run;

/// The scenarios that hold a node at a window: the name, the scenario,
/// the buggy version, its window and file; then where the fixed node is
/// held (the same moment, as near as the fix has one) and its file.
#[rustfmt::skip]
const HELD: [(&str, Held, Variant, &str, &str, &str, &str); 6] = [
    ("d1", scenarios::check_then_claim, Variant::CheckThenClaim, check_then_claim::WINDOW,
     "check_then_claim.rs", CLAIMING, "claim.rs (the fix)"),
    ("d2", scenarios::recurring_aba, Variant::StateGuardClaim, state_guard_claim::WINDOW,
     "state_guard_claim.rs", CLAIMING, "claim.rs (the fix)"),
    ("d3", scenarios::stale_lease_write, Variant::UnfencedWrite, unfenced_write::WINDOW,
     "unfenced_write.rs", RUNNING, "complete.rs (the fix)"),
    ("d4", scenarios::renewal_steals_lease, Variant::RenewByName, renew_by_name::WINDOW,
     "renew_by_name.rs", RUNNING, "lease.rs (the fix)"),
    ("d7", scenarios::cursor_skips_late_job, Variant::CursorPoll, cursor_poll::WINDOW,
     "cursor_poll.rs", CLAIMING, "claim.rs (the fix)"),
    ("d9", scenarios::duplicate_occurrence, Variant::CheckThenInsert, check_then_insert::WINDOW,
     "check_then_insert.rs", PLANNING, "cron.rs (the fix)"),
];

/// The runs of scenario `which`: the buggy version, then the fixed one
/// (for D6 also the fix's mirror, a crash after the run; for D8 both
/// misfire policies).
fn scenario(which: &str) -> Option<Vec<Run>> {
    use scenarios::{catch_up_storm, clock_skew, done_before_run};
    if let Some(&(_, run, bug, window, file, point, fix)) = HELD.iter().find(|h| h.0 == which) {
        return Some(vec![
            run(bug, window, file),
            run(Variant::Fixed, point, fix),
        ]);
    }
    let fixed = Variant::Fixed;
    Some(match which {
        "d5" => vec![
            clock_skew(Variant::NodeClock, "node_clock.rs"),
            clock_skew(fixed, "claim.rs (the fix)"),
        ],
        "d6" => vec![
            done_before_run(Variant::DoneBeforeRun, Point::Claimed, "done_before_run.rs"),
            done_before_run(fixed, Point::Claimed, "claim.rs and complete.rs (the fix)"),
            done_before_run(fixed, Point::Delivered, "the fix, a crashing after the run"),
        ],
        "d8" => vec![
            catch_up_storm(
                Variant::EveryMissedPeriod,
                Misfire::FireOnce,
                "every_missed_period.rs",
            ),
            catch_up_storm(fixed, Misfire::FireOnce, "claim.rs (the fix), fire_once"),
            catch_up_storm(fixed, Misfire::Skip, "misfire.rs (the fix), skip"),
        ],
        _ => return None,
    })
}

/// The command that prints `which`, then each run's log and verdict.
fn report(which: &str, runs: &[Run]) -> String {
    let mut out = format!("$ cargo run -p durable-timer --example durable_races -- {which}\n");
    for (i, run) in runs.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("{}:\n", run.title));
        for line in &run.lines {
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(&format!("=> {}\n", run.verdict));
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a.starts_with("--")) {
        for pair in args.chunks(2) {
            let [flag, file] = pair else {
                panic!("--<scenario> needs a file: {pair:?}");
            };
            let which = flag.trim_start_matches("--");
            let runs = scenario(which).unwrap_or_else(|| panic!("no scenario {flag}"));
            std::fs::write(file, report(which, &runs)).expect("write the log");
        }
        return;
    }
    let all = ["d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9"].map(String::from);
    for which in if args.is_empty() { &all[..] } else { &args[..] } {
        let runs = scenario(which).unwrap_or_else(|| panic!("no scenario {which}"));
        println!("{}", report(which, &runs));
    }
}
