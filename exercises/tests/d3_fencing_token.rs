//! The check of exercise D3: the stale lease write of *A timer that
//! outlives its process*, forced. The job `report` is due at 1000 ms, and
//! nodes claim on a lease of 1000 ms. Node a claims it (fence 1), delivers
//! it, and is held before its completion: the stall. The world's time
//! moves to 2500 ms, past the end of a's lease; node b claims the job
//! (fence 2), delivers it and completes it. Then a goes on and completes.
//! Both nodes' completions are your file's. The occurrence's effect must
//! be written once, b's, and a's completion refused.
//!
//! `cargo xtask exercise check d3` runs it against your file.

use std::thread;

use durable_timer::claim::claim;
use durable_timer::clock::set_store_time;
use durable_timer::complete::deliver;
use durable_timer::{Jobs, Millis, SqliteStore, Step, Store, StoreError, schema};
use exercises::d3_fencing_token::{WINDOW, complete};
use kit::pause::Pause;
use kit::{ms, threads};

const JOB: &str = "report";
const DUE: Millis = 1000;
/// How long a claim holds a job.
const LEASE: Millis = 1000;
/// When node a wakes: past the end of its lease.
const WAKE: Millis = DUE + LEASE + 500;

/// A SQLite file of the check's own, its tables made, `report` scheduled
/// and due.
struct World {
    dir: tempfile::TempDir,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let world = World { dir };
        let mut admin = world.connect();
        schema::create(&mut admin).expect("create the tables");
        set_store_time(&mut admin, DUE).expect("set the store's time");
        let mut jobs = Jobs::new(Box::new(world.connect())).expect("the scheduler's API");
        jobs.schedule_once(JOB, DUE).expect("schedule the job");
        world
    }

    fn connect(&self) -> SqliteStore {
        SqliteStore::open(self.dir.path().join("jobs.sqlite")).expect("open the SQLite file")
    }

    /// The nodes and fences of the occurrence's effects, in order.
    fn effects(&self) -> Vec<(String, i64)> {
        let rows = self
            .connect()
            .query(
                "SELECT node, fence FROM effects WHERE job_id = $1 AND occurrence = $2
                  ORDER BY at, fence",
                &[JOB.into(), DUE.into()],
            )
            .expect("read the effects");
        rows.iter()
            .map(|row| (row.text(0).to_owned(), row.int(1)))
            .collect()
    }
}

/// A node's round, with the completion under check: claim, deliver, complete.
fn round(store: &mut dyn Store, node: &str) -> Result<Step, StoreError> {
    let Some(claimed) = claim(store, node, LEASE)? else {
        return Ok(Step::Idle);
    };
    deliver(store, &claimed, node)?;
    if complete(store, &claimed, node)? {
        Ok(Step::Fired(claimed))
    } else {
        Ok(Step::Fenced(claimed))
    }
}

#[test]
fn d3_fencing_token_refuses_a_stale_write() {
    let world = World::new();
    let a_thread = threads::unique_name("ex-d3a");
    let pause = Pause::arm(WINDOW, &a_thread);
    let mut a_store = world.connect();
    let a = thread::Builder::new()
        .name(a_thread)
        .spawn(move || round(&mut a_store, "a"))
        .expect("start node a");
    assert!(
        pause.reached_within(ms(5000)),
        "node a never reached `kit::pause_point(WINDOW)`: keep it first in `complete`"
    );
    set_store_time(&mut world.connect(), WAKE).expect("move the store's time");
    let b = round(&mut world.connect(), "b").expect("node b's round");
    pause.release();
    let a = a.join().expect("node a's thread").expect("node a's round");

    let effects = world.effects();
    let nodes: Vec<&str> = effects.iter().map(|(node, _)| node.as_str()).collect();
    let fences: Vec<String> = effects.iter().map(|(_, f)| f.to_string()).collect();
    assert!(
        effects.len() == 1,
        "D3 stale_lease_write: job `{JOB}`'s occurrence at {DUE} ms has {} effects (nodes {}, \
         fences {}): node a's lease ended at {} ms, and it wrote at {WAKE} ms, after node b's \
         claim",
        effects.len(),
        nodes.join(", "),
        fences.join(", "),
        DUE + LEASE
    );
    assert!(
        matches!(b, Step::Fired(ref c) if c.fence == 2) && effects[0] == ("b".to_owned(), 2),
        "D3 stale_lease_write: node b, which held the job's latest claim (fence 2), did not \
         complete it: its round {b:?}, the effect {:?}",
        effects[0]
    );
    assert!(
        matches!(a, Step::Fenced(ref c) if c.fence == 1),
        "D3 stale_lease_write: node a's completion with fence 1, after node b's claim with fence \
         2, was not refused: {a:?}"
    );
}

#[test]
fn d3_fencing_token_completes_a_live_claim() {
    let world = World::new();
    let step = round(&mut world.connect(), "a").expect("node a's round");
    let state = world
        .connect()
        .query("SELECT state FROM jobs WHERE id = $1", &[JOB.into()])
        .expect("read the job")
        .first()
        .map(|row| row.text(0).to_owned());
    assert!(
        matches!(step, Step::Fired(_)) && world.effects().len() == 1,
        "D3 fencing_token: node a held the only claim on `{JOB}`, and its completion gave \
         {step:?} with {} effects: a fence that refuses every write refuses too much",
        world.effects().len()
    );
    assert_eq!(
        state.as_deref(),
        Some("done"),
        "D3 fencing_token: the one-shot job `{JOB}` is not done after its completion"
    );
}
