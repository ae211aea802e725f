//! `durable`: how fast stage 9's nodes claim due jobs, with 1, 2 and 4
//! nodes, on SQLite and on PostgreSQL, beside the floor of the same store,
//! in interleaved rounds (`perf::rounds`).
//!
//! A round fills the store afresh, untimed, once or more: the tables
//! dropped and made again (`durable_timer::schema`), and one-shot jobs inserted, some due
//! (a second apart, up to the store's now) and the rest an hour or more
//! ahead; ids and due times in unrelated orders. Three shapes: 10^2 jobs,
//! all due (five fills a round); 10^3 jobs, all due (one); and 10^4 jobs
//! of which 10^2 are due (one), a table that holds mostly later jobs. In
//! quick mode the first (two fills), and 10^3 jobs of which 10^2 are due.
//! A full run takes a minute or two on two cores.
//! After each fill, the timed part, until every due job is claimed:
//!
//! - **`N node(s)`**: N threads, each a node with a connection of its own,
//!   all started at once, each calling the shipped claim
//!   (`durable_timer::claim::claim`, one statement: `UPDATE … WHERE id =
//!   COALESCE(…)` of two lookups, a lease run out by `(state,
//!   lease_until)`, else the earliest job due by `(state, due_at)`, each
//!   `LIMIT 1`, on PostgreSQL `FOR UPDATE SKIP LOCKED`) until it finds
//!   none due; timed until the last has finished.
//! - **the floor**: one connection that already knows which jobs are due,
//!   and claims each by its id with one conditional `UPDATE … WHERE id =
//!   $3 AND state = 'waiting' RETURNING …`: one statement, one round trip,
//!   no search. No claim can cost less.
//!
//! Both stores as the stage ships them: SQLite in WAL mode on a file in a
//! temporary directory, `synchronous = NORMAL`, so that a commit does not
//! wait for the disk; PostgreSQL on a throwaway server that `kit::pg`
//! starts from the machine's installation, with `fsync = off`, so that a
//! commit does not wait for the disk either. After each fill, SQLite's
//! log is emptied into the file (a checkpoint, which SQLite otherwise runs
//! in whichever commit finds the log long) and PostgreSQL's statistics
//! taken (`ANALYZE`, as autovacuum would on a table that lives), so that
//! every round starts alike.
//! The PostgreSQL half needs this crate's feature `postgres` (`cargo xtask
//! bench --quick` turns it on); without it the bench says so and measures
//! SQLite alone.
//!
//! The report has each subject's time per claim, and per round the claims
//! per second of each count of nodes over the floor's and over one node's.
//!
//! ```text
//! cargo bench -p perf --features postgres --bench durable
//! ```

use std::cell::RefCell;
use std::sync::Barrier;
use std::thread;
use std::time::{Duration, Instant};

use durable_timer::claim::claim;
use durable_timer::store::{Dialect, Store, Value};
use durable_timer::{LEASE, SqliteStore, schema};
use perf::report::Report;
use perf::rounds::{Contest, Sample};

/// The counts of nodes measured.
const NODES: [usize; 3] = [1, 2, 4];
/// The floor's name in the report.
const FLOOR: &str = "floor: UPDATE … RETURNING by id, 1 connection";

/// A subject's name in the report: "1 node", "4 nodes".
fn nodes(n: usize) -> String {
    format!("{n} node{}", if n == 1 { "" } else { "s" })
}

/// What a round's table holds, `jobs` jobs of which `due` are due, and
/// how many times a round fills it and claims them (`batches`, so that a
/// small table still makes a round of hundreds of claims).
#[derive(Clone, Copy)]
struct Shape {
    jobs: u64,
    due: u64,
    batches: u32,
}

impl Shape {
    /// The shapes measured (see the module docs).
    fn all() -> Vec<Shape> {
        let shape = |jobs, due, batches| Shape { jobs, due, batches };
        perf::size(
            vec![
                shape(100, 100, 5),
                shape(1_000, 1_000, 1),
                shape(10_000, 100, 1),
            ],
            vec![shape(100, 100, 2), shape(1_000, 100, 1)],
        )
    }

    /// The report's group: "10^3 jobs, all due", "10^4 jobs, 10^2 due".
    fn group(self, store: &str) -> String {
        let power = |n: u64| format!("10^{}", n.ilog10());
        let due = if self.due == self.jobs {
            "all".to_owned()
        } else {
            power(self.due)
        };
        format!("{store}, {} jobs, {due} due", power(self.jobs))
    }

    /// Job `i`'s place in due order, as [`FILL`] computes it: 7919 is a
    /// prime and divides no count measured, so the places of `0..jobs`
    /// are a permutation of them.
    fn place(self, i: u64) -> u64 {
        i * 7919 % self.jobs
    }

    /// The ids of the due jobs: those whose place comes before `due`.
    fn due_ids(self) -> Vec<Value> {
        (0..self.jobs)
            .filter(|&i| self.place(i) < self.due)
            .map(|i| Value::from(format!("job-{i}")))
            .collect()
    }
}

/// `$1` one-shot jobs, `job-0` … : the first `$2` in due order due a
/// second apart up to the store's now, the rest from an hour ahead on.
const FILL: &str = "WITH RECURSIVE n(i) AS (
    SELECT CAST(0 AS BIGINT) UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $1),
  placed(i, place) AS (SELECT i, i * 7919 % $1 FROM n)
INSERT INTO jobs (id, due_at, period_ms, misfire, state)
SELECT 'job-' || CAST(i AS TEXT),
       CASE WHEN place < $2 THEN {now} - 1000 * ($2 - place)
            ELSE {now} + 3600000 + 1000 * (place - $2) END,
       NULL, 'fire_once', 'waiting'
  FROM placed";

/// The floor's claim: the job named, if it is still waiting.
const FLOOR_CLAIM: &str = "UPDATE jobs SET state = 'running', owner = $1,
    lease_until = {now} + $2, fence = fence + 1, occurrence = due_at
 WHERE id = $3 AND state = 'waiting'
RETURNING id, occurrence, fence, period_ms";

/// Drops the tables and makes them again, holding `shape`'s jobs.
fn fill(admin: &RefCell<Box<dyn Store>>, shape: Shape) {
    let mut admin = admin.borrow_mut();
    let admin = admin.as_mut();
    for table in ["jobs", "deliveries", "effects", "store_clock"] {
        admin
            .execute(&format!("DROP TABLE IF EXISTS {table}"), &[])
            .expect("drop a table");
    }
    schema::create(admin).expect("the schema");
    let params = [Value::Int(shape.jobs as i64), Value::Int(shape.due as i64)];
    let added = admin.execute(FILL, &params).expect("the jobs");
    assert_eq!(added, shape.jobs, "every job inserted");
    // Every round starts alike: SQLite's log emptied into the file (a
    // checkpoint, which SQLite otherwise runs in whichever commit finds
    // the log long), PostgreSQL's statistics taken.
    match admin.dialect() {
        Dialect::Sqlite => admin
            .query("PRAGMA wal_checkpoint(TRUNCATE)", &[])
            .map(drop),
        Dialect::Postgres => admin.execute("ANALYZE jobs", &[]).map(drop),
    }
    .expect("a checkpoint, or the statistics");
}

/// Claims until no job is due; how many it claimed.
///
/// # Panics
/// On any error of the store, a busy one included: a SQLite writer that
/// waited out its busy timeout (5 s) would make the round's time
/// meaningless.
fn claim_all(store: &mut dyn Store, node: &str) -> u64 {
    let mut claimed = 0;
    while claim(store, node, LEASE)
        .unwrap_or_else(|e| panic!("{node}: {e}"))
        .is_some()
    {
        claimed += 1;
    }
    claimed
}

/// One round of `stores.len()` nodes: each batch a fill, then every node
/// claims until none is due, all started at once, timed from the start to
/// the last.
fn nodes_round(
    admin: &RefCell<Box<dyn Store>>,
    stores: &mut [Box<dyn Store>],
    shape: Shape,
) -> Sample {
    let mut sample = Sample {
        elapsed: Duration::ZERO,
        ops: 0,
    };
    for _ in 0..shape.batches {
        fill(admin, shape);
        let start = Barrier::new(stores.len() + 1);
        let (claimed, elapsed) = thread::scope(|s| {
            let handles: Vec<_> = stores
                .iter_mut()
                .enumerate()
                .map(|(i, store)| {
                    let start = &start;
                    s.spawn(move || {
                        start.wait();
                        claim_all(store.as_mut(), &format!("node-{i}"))
                    })
                })
                .collect();
            start.wait();
            let t = Instant::now();
            let claimed: u64 = handles.into_iter().map(|h| h.join().expect("a node")).sum();
            (claimed, t.elapsed())
        });
        assert_eq!(claimed, shape.due, "every due job claimed, once");
        sample.elapsed += elapsed;
        sample.ops += claimed;
    }
    sample
}

/// One round of the floor: each batch a fill, then every due job claimed
/// by its id.
fn floor_round(admin: &RefCell<Box<dyn Store>>, store: &mut dyn Store, shape: Shape) -> Sample {
    let mut sample = Sample {
        elapsed: Duration::ZERO,
        ops: 0,
    };
    for _ in 0..shape.batches {
        fill(admin, shape);
        let ids = shape.due_ids();
        let t = Instant::now();
        for id in ids {
            let rows = store
                .query(FLOOR_CLAIM, &["floor".into(), LEASE.into(), id])
                .expect("the floor's claim");
            assert_eq!(rows.len(), 1, "the job was due and waiting");
        }
        sample.elapsed += t.elapsed();
        sample.ops += shape.due;
    }
    sample
}

/// Every shape on one store, `connect` making its connections: an admin
/// one that fills, the floor's, and one for each node of each count.
fn store(report: &mut Report, label: &str, connect: &dyn Fn() -> Box<dyn Store>) {
    let admin = RefCell::new(connect());
    let mut floor = connect();
    let mut fleets: Vec<Vec<Box<dyn Store>>> = NODES
        .iter()
        .map(|&n| (0..n).map(|_| connect()).collect())
        .collect();
    for shape in Shape::all() {
        let t = Instant::now();
        let mut contest = Contest::new(shape.group(label));
        contest.subject(FLOOR, || floor_round(&admin, floor.as_mut(), shape));
        for (fleet, n) in fleets.iter_mut().zip(NODES) {
            let admin = &admin;
            contest.subject(nodes(n), move || nodes_round(admin, fleet, shape));
        }
        for n in NODES {
            contest.throughput(&nodes(n), FLOOR);
        }
        for n in &NODES[1..] {
            contest.throughput(&nodes(*n), &nodes(1));
        }
        contest.run(report);
        println!("  ({} took {:.1?})", shape.group(label), t.elapsed());
    }
}

fn main() {
    perf::require_shipped_build();
    let mut report = Report::new("durable");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("jobs.db");
    let sqlite = || Box::new(SqliteStore::open(&path).expect("the SQLite file")) as Box<dyn Store>;
    store(&mut report, "SQLite", &sqlite);
    postgres(&mut report);
    report.write();
}

/// The PostgreSQL half, on a throwaway server of its own.
#[cfg(feature = "postgres")]
fn postgres(report: &mut Report) {
    use durable_timer::postgres::PgStore;
    let t = Instant::now();
    let server = kit::pg::Server::start().unwrap_or_else(|e| panic!("{e}"));
    println!("  (PostgreSQL started in {:.1?})", t.elapsed());
    let url = server.url("postgres");
    let pg = || Box::new(PgStore::connect(&url).expect("a connection")) as Box<dyn Store>;
    store(report, "PostgreSQL", &pg);
}

/// Without the feature: says how to measure PostgreSQL too.
#[cfg(not(feature = "postgres"))]
fn postgres(_: &mut Report) {
    println!(
        "  PostgreSQL: not measured; it needs this crate's feature `postgres` \
         (cargo bench -p perf --features postgres --bench durable)"
    );
}
