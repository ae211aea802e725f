//! Bad input and a store in trouble are typed errors, never a panic: a
//! due time out of range, a period that is no period, an unknown job, an
//! id taken; a SQLite file another connection holds locked past the busy
//! timeout; a store that cannot be opened. And nothing accepted is lost.

mod support;

use std::fs;
use std::time::Duration;

use durable_timer::{
    JobError, Jobs, MAX_DUE, Misfire, Node, SqliteStore, State, Step, Store, StoreError, Variant,
};
use support::World;

#[test]
fn a_due_time_out_of_range_is_refused() {
    let world = World::sqlite();
    let mut jobs = world.jobs();
    for at in [-1, MAX_DUE + 1, i64::MIN, i64::MAX] {
        let out_of_range = Err(JobError::DeadlineOutOfRange { at, max: MAX_DUE });
        assert_eq!(jobs.schedule_once("x", at), out_of_range);
        assert_eq!(
            jobs.schedule_every("x", at, 1000, Misfire::FireOnce),
            out_of_range
        );
    }
    // The ends of the range are taken.
    jobs.schedule_once("first", 0).expect("the epoch");
    jobs.schedule_once("last", MAX_DUE)
        .expect("the latest due time");
    assert!(matches!(jobs.status("x"), Err(JobError::UnknownJob { .. })));
}

#[test]
fn a_period_that_is_no_period_is_refused() {
    let world = World::sqlite();
    let mut jobs = world.jobs();
    for period in [0, -1, i64::MIN, MAX_DUE + 1] {
        assert_eq!(
            jobs.schedule_every("x", 1000, period, Misfire::Skip),
            Err(JobError::BadPeriod { period })
        );
    }
    jobs.schedule_every("x", 1000, 1, Misfire::Skip)
        .expect("a period of 1 ms");
}

#[test]
fn an_unknown_job_is_a_typed_error() {
    let world = World::sqlite();
    let mut jobs = world.jobs();
    let unknown = JobError::UnknownJob { id: "nope".into() };
    assert_eq!(jobs.cancel("nope"), Err(unknown.clone()));
    assert_eq!(jobs.status("nope"), Err(unknown));
}

#[test]
fn a_duplicate_id_is_refused_and_changes_nothing() {
    let world = World::sqlite();
    let mut jobs = world.jobs();
    jobs.schedule_once("report", 1000).expect("schedule");
    let taken = Err(JobError::AlreadyExists {
        id: "report".into(),
    });
    assert_eq!(jobs.schedule_once("report", 5000), taken);
    assert_eq!(
        jobs.schedule_every("report", 5000, 10, Misfire::FireOnce),
        taken
    );
    let status = jobs.status("report").expect("status");
    assert_eq!(
        (status.state, status.due_at, status.period),
        (State::Waiting, 1000, None)
    );
    // An id names one job for ever: done or cancelled, it is still taken.
    assert_eq!(jobs.cancel("report"), Ok(true));
    assert_eq!(jobs.cancel("report"), Ok(false), "cancelled already");
    assert_eq!(jobs.schedule_once("report", 5000), taken);
}

#[test]
fn a_cancelled_job_is_never_fired() {
    let world = World::sqlite();
    let mut jobs = world.jobs();
    jobs.schedule_once("report", 1000).expect("schedule");
    jobs.cancel("report").expect("cancel");
    world.set_time(5000);
    let mut node = world.node("a", Variant::Fixed);
    assert_eq!(node.step(), Ok(Step::Idle));
    assert_eq!(world.deliveries("report", 1000).len(), 0);
}

/// A node's SQLite connection that waits `wait` for the write lock.
fn impatient(world: &World, wait: Duration) -> Box<dyn Store> {
    let path = world.sqlite_path().expect("a SQLite world");
    let mut store = SqliteStore::open(path).expect("open");
    store.set_busy_timeout(wait).expect("set the busy timeout");
    Box::new(store)
}

#[test]
fn a_locked_sqlite_file_is_busy_and_loses_nothing() {
    let world = World::sqlite();
    world
        .jobs()
        .schedule_once("report", 1000)
        .expect("schedule");
    world.set_time(1000);
    // Another connection holds the write lock (BEGIN IMMEDIATE takes it)
    // for longer than the node waits.
    let mut holder = world.connect();
    holder.begin().expect("take the write lock");
    let mut node = Node::new(impatient(&world, kit::ms(20)), "a");
    assert_eq!(node.step(), Err(StoreError::Busy));
    let mut jobs = Jobs::new(impatient(&world, kit::ms(20))).expect("the API");
    assert_eq!(
        jobs.schedule_once("other", 1000),
        Err(JobError::Store(StoreError::Busy))
    );
    // Nothing changed; once the lock is let go, the job fires.
    holder.rollback().expect("let go of the lock");
    assert_eq!(jobs.status("report").expect("status").state, State::Waiting);
    assert!(matches!(node.step(), Ok(Step::Fired(ref c)) if c.job == "report"));
    assert!(matches!(
        jobs.status("other"),
        Err(JobError::UnknownJob { .. })
    ));
}

#[test]
fn a_store_that_cannot_be_opened_is_unavailable() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let missing = dir.path().join("no such directory").join("jobs.sqlite");
    assert!(matches!(
        SqliteStore::open(&missing),
        Err(StoreError::Unavailable(_))
    ));
    let not_a_database = dir.path().join("notes.txt");
    fs::write(
        &not_a_database,
        "these are not the pages of a database ".repeat(200),
    )
    .expect("write the file");
    assert!(matches!(
        SqliteStore::open(&not_a_database),
        Err(StoreError::Unavailable(_))
    ));
    assert!(matches!(
        SqliteStore::open(dir.path()),
        Err(StoreError::Unavailable(_))
    ));
}
