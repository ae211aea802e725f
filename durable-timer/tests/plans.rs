//! What the database does with the statements a node runs every round:
//! the claim, and `skip_missed`. Asked on a table of 10^4 jobs of which
//! 10^2 are due (and 10^2 running), each must go through an index to the
//! rows it wants, whatever the rest of the table holds: no pass over the
//! table, no sort of every candidate. The plans are the databases' own
//! (`EXPLAIN QUERY PLAN` on SQLite, `EXPLAIN` on PostgreSQL after
//! `ANALYZE`), so a statement that reads the table for every claim, as
//! one that leaves its picks to an `OR` does, fails here.

mod support;

use durable_timer::claim::{DUE, SET, statement};
use durable_timer::misfire::SKIP_MISSED;
use durable_timer::{Dialect, LEASE, Millis};
use support::{Backend, World};

/// The store's time while the plans are asked for.
const NOW: Millis = 100_000_000;
/// How many jobs the table holds, and how many of them are due.
const JOBS: i64 = 10_000;
const DUE_JOBS: i64 = 100;
/// How many of the later jobs are running, on leases that run to the end
/// of the hour.
const RUNNING: i64 = 100;

/// `$1` one-shot jobs: the first `$2` in due order due a second apart up
/// to now, the rest from an hour ahead on, in an order unrelated to their
/// ids; every tenth a recurring `skip` job; `$3` of the later ones running.
const FILL: &str = "WITH RECURSIVE n(i) AS (
    SELECT CAST(0 AS BIGINT) UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $1),
  placed(i, place) AS (SELECT i, i * 7919 % $1 FROM n)
INSERT INTO jobs (id, due_at, period_ms, misfire, state, lease_until)
SELECT 'job-' || CAST(i AS TEXT),
       CASE WHEN place < $2 THEN {now} - 1000 * ($2 - place)
            ELSE {now} + 3600000 + 1000 * (place - $2) END,
       CASE WHEN i % 10 = 0 THEN 60000 END,
       CASE WHEN i % 10 = 0 THEN 'skip' ELSE 'fire_once' END,
       CASE WHEN place >= $2 AND place < $2 + $3 THEN 'running' ELSE 'waiting' END,
       CASE WHEN place >= $2 AND place < $2 + $3 THEN {now} + 3600000 END
  FROM placed";

/// A world on `backend` holding the table described above.
fn filled(backend: Backend) -> World {
    let world = World::new(backend);
    world.set_time(NOW);
    world.query(FILL, &[JOBS.into(), DUE_JOBS.into(), RUNNING.into()]);
    world
}

/// The plans of `sql` (`params`: how many of the claim's parameters, a
/// node and a lease, it takes), one line per step as the database prints
/// it: on SQLite as the table is and again with its statistics taken, on
/// PostgreSQL with them (without, its plans are guesses).
fn plans(world: &World, sql: &str, params: usize) -> Vec<Vec<String>> {
    let all = ["node".into(), LEASE.into()];
    let explain = |explain: &str, detail: usize| -> Vec<String> {
        world
            .query(&format!("{explain} {sql}"), &all[..params])
            .iter()
            .map(|row| row.text(detail).to_owned())
            .collect()
    };
    match world.connect().dialect() {
        Dialect::Sqlite => {
            let bare = explain("EXPLAIN QUERY PLAN", 3);
            world.query("ANALYZE", &[]);
            vec![bare, explain("EXPLAIN QUERY PLAN", 3)]
        }
        Dialect::Postgres => {
            world.query("ANALYZE", &[]);
            vec![explain("EXPLAIN", 0)]
        }
    }
}

/// Every step of `plan` that reads `jobs` goes through an index (on
/// SQLite a `SEARCH`, never a `SCAN` of the table, no `OR` over several
/// indexes, no sort; on PostgreSQL an index scan, never a sequential
/// one, no sort), and each of `indexes` is one of them. (The one-row
/// `store_clock` may be read whole: PostgreSQL does, as it is cheaper.)
fn assert_indexed(what: &str, plan: &[String], indexes: &[&str]) {
    let shown = plan.join("\n");
    // With --nocapture: the steps on `jobs` (the rest read `store_clock`).
    let on_jobs: Vec<&str> = plan
        .iter()
        .map(|l| l.trim())
        .filter(|l| l.contains("jobs"))
        .collect();
    println!("{what}:\n  {}", on_jobs.join("\n  "));
    for line in plan {
        let bad = [
            "SCAN jobs",
            "MULTI-INDEX OR",
            "TEMP B-TREE",
            "Seq Scan on jobs",
            "Sort",
        ]
        .iter()
        .any(|step| line.contains(step));
        assert!(
            !bad,
            "{what}: `{}` reads more than it takes:\n{shown}",
            line.trim()
        );
    }
    for index in indexes {
        // SQLite's `SEARCH jobs USING INDEX i (…)`, PostgreSQL's `Index
        // Scan using i on jobs` or (a bitmap of the rows) `Bitmap Index
        // Scan on i`.
        let names = [
            format!("INDEX {index} ("),
            format!("Index Scan using {index} on jobs"),
            format!("Index Scan on {index}"),
        ];
        assert!(
            plan.iter()
                .any(|line| names.iter().any(|n| line.contains(n))),
            "{what}: no lookup through the index {index}:\n{shown}"
        );
    }
}

/// The claim looks up a lease run out through `jobs_lease` and the
/// earliest job due through `jobs_due`, then takes the row by its key.
fn claim_is_indexed(backend: Backend) {
    let world = filled(backend);
    let claim = statement(world.connect().dialect(), DUE, SET);
    for plan in plans(&world, &claim, 2) {
        assert_indexed("the claim", &plan, &["jobs_lease", "jobs_due"]);
    }
}

/// `skip_missed` reads the `skip` jobs that are due, through `jobs_skip`.
fn skip_missed_is_indexed(backend: Backend) {
    let world = filled(backend);
    for plan in plans(&world, SKIP_MISSED, 0) {
        assert_indexed("skip_missed", &plan, &["jobs_skip"]);
    }
}

#[test]
fn plan_claim_is_indexed() {
    claim_is_indexed(Backend::Sqlite);
}

#[test]
fn plan_skip_missed_is_indexed() {
    skip_missed_is_indexed(Backend::Sqlite);
}

/// The same plans asked of PostgreSQL.
#[cfg(feature = "postgres")]
mod postgres {
    use super::*;

    #[test]
    fn plan_claim_is_indexed() {
        claim_is_indexed(Backend::Postgres);
    }

    #[test]
    fn plan_skip_missed_is_indexed() {
        skip_missed_is_indexed(Backend::Postgres);
    }
}
