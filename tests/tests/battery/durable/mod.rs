//! Stage 9's durable timer in the battery: its node's versions as rows
//! (the fix, `durable-timer`, and one row per bug, named for the file that
//! holds it), and the columns only it answers, D1 to D9.
//!
//! A durable timer's node is no timer thread: it fires what a database
//! holds, a round at a time, and its bugs are races between nodes, stalls
//! past a lease, crashes and clocks. None of the timer columns asks it
//! anything, and none of its columns asks a timer anything, so its part
//! of the matrix is a table of its own, run after the others: every cell
//! forces its scenario with pause points and moved clocks, so no wave's
//! timing touches it.

pub mod scenarios;
pub mod world;

use std::thread;
use std::time::Instant;

use durable_timer::{CLAIMING, PLANNING, Variant};
use durable_timer::{check_then_claim, check_then_insert, cursor_poll, state_guard_claim};

use super::matrix::cell;
use super::scenarios::Outcome;

/// One version of stage 9's node, as a row.
pub struct Durable {
    /// The row's name: the file of its bug, or the crate for the fix.
    pub name: &'static str,
    /// The version of the node it builds.
    pub variant: Variant,
    /// Where its claim has looked and not yet marked (D1, D2); a claim of
    /// one statement has no such moment and is held before it starts.
    pub claim_window: &'static str,
    /// Where a round that found nothing has not yet ended (D7); a node
    /// with no cursor is held before its claim.
    pub idle_window: &'static str,
    /// Where its plan of a cron occurrence has looked and not yet inserted
    /// (D9).
    pub plan_window: &'static str,
}

/// The fix.
const FIXED: Durable = Durable {
    name: "durable-timer",
    variant: Variant::Fixed,
    claim_window: CLAIMING,
    idle_window: CLAIMING,
    plan_window: PLANNING,
};

/// A bug's row: the fix's windows, but its variant.
const fn bug(name: &'static str, variant: Variant) -> Durable {
    Durable {
        name,
        variant,
        ..FIXED
    }
}

/// The rows, the bugs in the stage's order, the fix last.
pub const VERSIONS: [Durable; 10] = [
    Durable {
        claim_window: check_then_claim::WINDOW,
        ..bug("durable-timer::check_then_claim", Variant::CheckThenClaim)
    },
    Durable {
        claim_window: state_guard_claim::WINDOW,
        ..bug("durable-timer::state_guard_claim", Variant::StateGuardClaim)
    },
    bug("durable-timer::unfenced_write", Variant::UnfencedWrite),
    bug("durable-timer::renew_by_name", Variant::RenewByName),
    bug("durable-timer::node_clock", Variant::NodeClock),
    bug("durable-timer::done_before_run", Variant::DoneBeforeRun),
    Durable {
        idle_window: cursor_poll::WINDOW,
        ..bug("durable-timer::cursor_poll", Variant::CursorPoll)
    },
    bug(
        "durable-timer::every_missed_period",
        Variant::EveryMissedPeriod,
    ),
    Durable {
        plan_window: check_then_insert::WINDOW,
        ..bug("durable-timer::check_then_insert", Variant::CheckThenInsert)
    },
    FIXED,
];

/// A column: its heading and its scenario.
type Column = (&'static str, fn(&Durable) -> Outcome);

/// The columns, D1 to D9.
pub const COLUMNS: [Column; 9] = [
    ("D1 claim race", scenarios::check_then_claim),
    ("D2 ABA", scenarios::recurring_aba),
    ("D3 stale write", scenarios::stale_lease_write),
    ("D4 renew by name", scenarios::renewal_steals_lease),
    ("D5 clock ahead", scenarios::clock_skew),
    ("D6 crash", scenarios::done_before_run),
    ("D7 late commit", scenarios::cursor_skips_late_job),
    ("D8 downtime", scenarios::catch_up_storm),
    ("D9 cron twice", scenarios::duplicate_occurrence),
];

/// Every column's scenario against every row: a thread per row, its cells
/// one after another (each cell has a store of its own, and its nodes'
/// thread names are their own). One row of outcomes per version.
pub fn run() -> Vec<Vec<Outcome>> {
    thread::scope(|s| {
        let rows: Vec<_> = VERSIONS
            .iter()
            .map(|row| s.spawn(move || COLUMNS.iter().map(|(_, run)| timed(run, row)).collect()))
            .collect();
        rows.into_iter()
            .map(|r| r.join().expect("a durable scenario panicked"))
            .collect()
    })
}

/// `run`'s outcome for `row`, with how long it took in its details.
fn timed(run: &fn(&Durable) -> Outcome, row: &Durable) -> Outcome {
    let start = Instant::now();
    let mut outcome = run(row);
    outcome.detail += &format!(" ({} ms)", start.elapsed().as_millis());
    outcome
}

/// The part as a Markdown table, after the matrix's own.
pub fn table(rows: &[Vec<Outcome>]) -> String {
    let mut out = "**What only the durable timer can get wrong**\n\n| version |".to_owned();
    for (heading, _) in &COLUMNS {
        out += &format!(" {heading} |");
    }
    out += "\n|---|";
    out += &"---|".repeat(COLUMNS.len());
    out += "\n";
    for (version, row) in VERSIONS.iter().zip(rows) {
        out += &format!("| `{}` |", version.name);
        for outcome in row {
            out += &format!(" {} |", cell(outcome));
        }
        out += "\n";
    }
    out
}

/// The numbers behind each cell, one line each.
pub fn details(rows: &[Vec<Outcome>]) -> String {
    let mut out = String::new();
    for (version, row) in VERSIONS.iter().zip(rows) {
        for ((heading, _), outcome) in COLUMNS.iter().zip(row) {
            out += &format!("{:<44} {:<28} {}\n", version.name, heading, outcome.detail);
        }
    }
    out
}
