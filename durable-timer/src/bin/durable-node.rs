//! `durable-node`: a scheduler node in a process of its own, for the tests
//! that stop one with SIGSTOP, kill one with SIGKILL, and run several at
//! once (`tests/processes.rs`, `tests/stress.rs`). A pause point holds a
//! thread of the test's own process; a node in another process waits for
//! a line on its stdin instead.
//!
//! ```text
//! durable-node STORE NAME LEASE_MS VERSION PAUSE
//! ```
//!
//! - STORE: a SQLite file, or a `postgresql://` URL (with the feature
//!   `postgres`);
//! - NAME: the node's name, the `owner` of the jobs it claims;
//! - LEASE_MS: how long its claims hold a job;
//! - VERSION: `fixed`, or the file of a buggy version (`unfenced_write`);
//! - PAUSE: `none`, `claimed` (its claim has committed, nothing delivered)
//!   or `delivered` (delivered, not yet completed).
//!
//! It speaks in lines. Connected, it says `ready NAME`, then reads commands:
//!
//! - `step`: one round. At its pause it says `claimed JOB OCCURRENCE
//!   FENCE` (or `delivered …`) and waits for a line (`go`). The round ends
//!   with `fired`, `fenced` or `demoted` and the claim, `idle`, or `error`
//!   and the store's message.
//! - `run POLL_MS`: rounds until its stdin ends, polling every POLL_MS when
//!   nothing is due; then `stopped FIRED FENCED`.
//!
//! It exits when its stdin ends.

use std::io::{self, BufRead};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use durable_timer::node::Hook;
use durable_timer::{Claim, Millis, Node, Point, SqliteStore, Step, Store, StoreError, Variant};

const USAGE: &str = "usage: durable-node STORE NAME LEASE_MS VERSION none|claimed|delivered";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let node = match node(&args) {
        Ok(node) => node,
        Err(e) => {
            eprintln!("durable-node: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    println!("ready {}", node.name());
    serve(node);
    ExitCode::SUCCESS
}

/// The node the arguments describe, connected.
fn node(args: &[String]) -> Result<Node, String> {
    let [store, name, lease, version, pause] = args else {
        return Err(format!("{} arguments, not 5", args.len()));
    };
    let lease: Millis = lease.parse().map_err(|_| format!("lease {lease:?}"))?;
    let variant = variant(version).ok_or_else(|| format!("version {version:?}"))?;
    let node = Node::new(open(store)?, name).lease(lease).variant(variant);
    let pause = match pause.as_str() {
        "none" => return Ok(node),
        "claimed" => Point::Claimed,
        "delivered" => Point::Delivered,
        other => return Err(format!("pause {other:?}")),
    };
    let hook: Hook = Arc::new(move |point, claim| {
        if point == pause {
            let said = if point == Point::Claimed {
                "claimed"
            } else {
                "delivered"
            };
            println!("{said} {}", claim_words(claim));
            let _ = io::stdin().lock().read_line(&mut String::new());
        }
    });
    Ok(node.hook(hook))
}

/// Reads commands until stdin ends.
fn serve(mut node: Node) {
    let mut line = String::new();
    while matches!(io::stdin().lock().read_line(&mut line), Ok(1..)) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["step"] => println!("{}", step_words(&node.step())),
            ["run", poll] => {
                let poll = Duration::from_millis(poll.parse().unwrap_or(1));
                run(node, poll);
                return;
            }
            _ => println!("error unknown command {:?}", line.trim()),
        }
        line.clear();
    }
}

/// Runs rounds on the node's thread until stdin ends.
fn run(node: Node, poll: Duration) {
    let running = match node.spawn(poll) {
        Ok(running) => running,
        Err(e) => return println!("error {e}"),
    };
    let mut rest = String::new();
    while matches!(io::stdin().lock().read_line(&mut rest), Ok(1..)) {
        rest.clear();
    }
    let (_, tally) = running.stop();
    println!("stopped {} {}", tally.fired, tally.fenced);
}

/// The store at `address`: a PostgreSQL URL, or a SQLite file.
fn open(address: &str) -> Result<Box<dyn Store>, String> {
    let store: Result<Box<dyn Store>, StoreError> = if address.starts_with("postgres") {
        postgres(address)
    } else {
        SqliteStore::open(address).map(|s| Box::new(s) as Box<dyn Store>)
    };
    store.map_err(|e| format!("{address}: {e}"))
}

#[cfg(feature = "postgres")]
fn postgres(url: &str) -> Result<Box<dyn Store>, StoreError> {
    durable_timer::postgres::PgStore::connect(url).map(|s| Box::new(s) as Box<dyn Store>)
}

#[cfg(not(feature = "postgres"))]
fn postgres(_: &str) -> Result<Box<dyn Store>, StoreError> {
    Err(StoreError::Unavailable(
        "built without the feature `postgres`".into(),
    ))
}

/// The version a file's name names.
fn variant(file: &str) -> Option<Variant> {
    Some(match file {
        "fixed" => Variant::Fixed,
        "check_then_claim" => Variant::CheckThenClaim,
        "state_guard_claim" => Variant::StateGuardClaim,
        "unfenced_write" => Variant::UnfencedWrite,
        "renew_by_name" => Variant::RenewByName,
        "node_clock" => Variant::NodeClock,
        "done_before_run" => Variant::DoneBeforeRun,
        "every_missed_period" => Variant::EveryMissedPeriod,
        "check_then_insert" => Variant::CheckThenInsert,
        _ => return None,
    })
}

/// What a round did, in a line.
fn step_words(step: &Result<Step, StoreError>) -> String {
    match step {
        Ok(Step::Idle) => "idle".into(),
        Ok(Step::Fired(claim)) => format!("fired {}", claim_words(claim)),
        Ok(Step::Fenced(claim)) => format!("fenced {}", claim_words(claim)),
        Ok(Step::Demoted(claim)) => format!("demoted {}", claim_words(claim)),
        Ok(Step::Crashed) => "crashed".into(),
        Err(e) => format!("error {e}"),
    }
}

/// A claim as `JOB OCCURRENCE FENCE`.
fn claim_words(claim: &Claim) -> String {
    format!("{} {} {}", claim.job, claim.occurrence, claim.fence)
}
