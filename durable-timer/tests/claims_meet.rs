//! Where two claims meet, the two databases part ways (a fact, not a bug).
//!
//! A claim is one statement on both stores, so neither can hand one job to
//! two nodes (D1's fix). What a claim does when another transaction holds
//! the job it would pick is where they differ, and these tests force that
//! moment: the test's own connection opens a transaction and holds it,
//! and a node claims meanwhile.
//!
//! - SQLite has one writer at a time. A transaction that has written holds
//!   the whole file, so the node's claim waits for it, and after its busy
//!   timeout gives up with [`StoreError::Busy`]: claims take turns, and
//!   nothing is claimed while another writer works.
//! - PostgreSQL locks rows. A transaction holding job `a`'s row does not
//!   stop the node: `FOR UPDATE SKIP LOCKED` passes over the locked row,
//!   and the node claims `b` at once. Once the holder lets go, `a` is
//!   claimed as usual.
#![cfg(not(loom))]

mod support;

use std::time::Duration;

use durable_timer::claim::claim;
use durable_timer::{SqliteStore, StoreError};
use support::{TEST_LEASE, World};

/// `a` is due first, `b` after it: a claim with nothing held picks `a`.
fn two_due_jobs(world: &World) {
    let mut jobs = world.jobs();
    jobs.schedule_once("a", 100).expect("schedule a");
    jobs.schedule_once("b", 200).expect("schedule b");
    world.set_time(1_000);
}

#[test]
fn sqlite_a_claim_waits_for_the_one_writer() {
    let world = World::sqlite();
    two_due_jobs(&world);
    let path = world.sqlite_path().expect("a SQLite world");
    let mut holder = world.connect();
    holder.begin().expect("BEGIN IMMEDIATE: the write lock");
    holder
        .execute("UPDATE jobs SET owner = 'test' WHERE id = 'a'", &[])
        .expect("write under the lock");

    let mut node = SqliteStore::open(path).expect("the node's connection");
    node.set_busy_timeout(Duration::from_millis(50))
        .expect("a short busy timeout");
    let claimed = claim(&mut node, "n", TEST_LEASE);
    assert!(
        matches!(claimed, Err(StoreError::Busy)),
        "a claim while another connection holds the write lock: {claimed:?}, not Busy"
    );

    holder.rollback().expect("let go");
    let claimed = claim(&mut node, "n", TEST_LEASE).expect("claim after the writer");
    assert_eq!(claimed.map(|c| c.job).as_deref(), Some("a"));
}

#[cfg(feature = "postgres")]
mod postgres {
    use super::*;
    use durable_timer::postgres::PgStore;
    use support::Backend;

    #[test]
    fn postgres_a_claim_passes_over_a_locked_row() {
        let world = World::new(Backend::Postgres);
        two_due_jobs(&world);
        let mut holder = world.connect();
        holder.begin().expect("BEGIN");
        let held = holder
            .query("SELECT id FROM jobs WHERE id = 'a' FOR UPDATE", &[])
            .expect("lock a's row");
        assert_eq!(held.len(), 1, "the holder locked a's row");

        let mut node = PgStore::connect(&world.address()).expect("the node's connection");
        let first = claim(&mut node, "n", TEST_LEASE).expect("a claim beside the lock");
        assert_eq!(
            first.map(|c| c.job).as_deref(),
            Some("b"),
            "the claim skips the locked row a and takes b"
        );
        let second = claim(&mut node, "n", TEST_LEASE).expect("another claim");
        assert_eq!(
            second, None,
            "a is locked and b is taken: nothing to claim, and no wait"
        );

        holder.rollback().expect("let go of a");
        let third = claim(&mut node, "n", TEST_LEASE).expect("a claim after the lock");
        assert_eq!(third.map(|c| c.job).as_deref(), Some("a"));
    }
}
