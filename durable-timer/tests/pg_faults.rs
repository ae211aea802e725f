//! PostgreSQL's faults: the server stopped under a running node, and a
//! server that is not there. Each is a typed [`StoreError`], never a
//! panic; and a job claimed when the server went down is still there when
//! it comes back, and is claimed again once its lease has run out.
//! Feature `postgres`; each test has a server of its own, since it stops
//! it.
#![cfg(feature = "postgres")]

mod support;

use std::sync::Arc;
use std::time::Duration;

use durable_timer::clock::set_store_time;
use durable_timer::postgres::PgStore;
use durable_timer::{CLAIMED, Jobs, LEASE, Node, State, Step, Store, StoreError};
use kit::pause::Pause;
use kit::pg::Server;
use support::postgres::{self, Database};

/// The job's due time, and the store's time when the test begins.
const DUE: i64 = 1_000;

fn connect(db: &Database) -> Box<dyn Store> {
    Box::new(PgStore::connect(db.url()).unwrap_or_else(|e| panic!("{e}")))
}

fn own_server() -> Arc<Server> {
    Arc::new(Server::start().unwrap_or_else(|e| panic!("{e}")))
}

fn count(store: &mut dyn Store, table: &str) -> i64 {
    let rows = store
        .query(&format!("SELECT COUNT(*) FROM {table}"), &[])
        .unwrap();
    rows[0].int(0)
}

#[test]
fn the_server_stopped_mid_claim_is_unavailable_and_the_job_is_claimed_after_its_lease() {
    let db = Database::on(own_server());
    let mut jobs = Jobs::new(connect(&db)).unwrap();
    let mut store = connect(&db);
    set_store_time(store.as_mut(), DUE).unwrap();
    jobs.schedule_once("report", DUE).unwrap();

    // Node a claims the job (one statement, committed), and is held
    // before it delivers; the server goes down under it.
    let a = Node::new(connect(&db), "a");
    let pause = Pause::arm(CLAIMED, a.thread_name());
    let round = a.spawn_step().unwrap();
    pause.wait_reached();
    let stopped_in = db.server().stop();
    pause.release();
    let (_, step) = round.join();
    assert!(
        matches!(step, Err(StoreError::Unavailable(_))),
        "node a, its server gone: {step:?}"
    );

    // Back up on the same data: the claim survived the stop, and holds the
    // job until its lease runs out.
    let restarted_in = db.server().start_again().unwrap();
    println!("server stopped in {stopped_in:?}, back in {restarted_in:?}");
    drop((jobs, store));
    let mut jobs = Jobs::new(connect(&db)).unwrap();
    let mut store = connect(&db);
    let status = jobs.status("report").unwrap();
    assert_eq!(
        (status.state, status.owner.as_deref()),
        (State::Running, Some("a"))
    );
    let mut b = Node::new(connect(&db), "b");
    assert_eq!(b.step().unwrap(), Step::Idle, "claimed inside a's lease");
    set_store_time(store.as_mut(), DUE + LEASE).unwrap();
    let step = b.step().unwrap();
    assert!(
        matches!(&step, Step::Fired(claim) if claim.job == "report"),
        "{step:?}"
    );
    assert_eq!(jobs.status("report").unwrap().state, State::Done);
    assert_eq!(count(store.as_mut(), "deliveries"), 1, "a never delivered");
    assert_eq!(count(store.as_mut(), "effects"), 1);
}

#[test]
fn a_connected_store_whose_server_stops_is_unavailable_then_connects_again() {
    let db = Database::on(own_server());
    let mut store = PgStore::connect(db.url()).unwrap();
    store
        .execute("CREATE TABLE kept (n BIGINT PRIMARY KEY)", &[])
        .unwrap();
    store
        .execute("INSERT INTO kept VALUES ($1)", &[7.into()])
        .unwrap();
    db.server().stop();
    let lost = store.query("SELECT n FROM kept", &[]);
    assert!(matches!(lost, Err(StoreError::Unavailable(_))), "{lost:?}");
    let again = PgStore::connect(db.url());
    assert!(
        matches!(again, Err(StoreError::Unavailable(_))),
        "server down"
    );
    db.server().start_again().unwrap();
    let mut store = PgStore::connect(db.url()).unwrap();
    let rows = store.query("SELECT n FROM kept", &[]).unwrap();
    assert_eq!(rows[0].int(0), 7);
}

#[test]
fn a_server_that_is_not_there_is_unavailable() {
    let url = "postgresql://postgres@%2Fnonexistent%2Fkit-pg/postgres";
    let refused = PgStore::connect(url);
    assert!(
        matches!(&refused, Err(StoreError::Unavailable(_))),
        "{:?}",
        refused.err()
    );
    let not_a_url = PgStore::connect("postgresql://[");
    assert!(matches!(not_a_url, Err(StoreError::Unavailable(_))));
}

#[test]
fn a_duplicate_key_is_refused_and_a_held_row_is_busy() {
    let db = postgres::database();
    let mut a = PgStore::connect(db.url()).unwrap();
    let mut b = PgStore::connect(db.url()).unwrap();
    a.execute("CREATE TABLE one (id BIGINT PRIMARY KEY)", &[])
        .unwrap();
    a.execute("INSERT INTO one VALUES (1)", &[]).unwrap();
    let twice = a.execute("INSERT INTO one VALUES (1)", &[]);
    assert!(matches!(twice, Err(StoreError::Refused(_))), "{twice:?}");

    a.begin().unwrap();
    a.execute("UPDATE one SET id = 2 WHERE id = 1", &[])
        .unwrap();
    b.set_lock_timeout(Duration::from_millis(50)).unwrap();
    let held = b.execute("UPDATE one SET id = 3 WHERE id = 1", &[]);
    assert_eq!(held, Err(StoreError::Busy));
    a.rollback().unwrap();
}
