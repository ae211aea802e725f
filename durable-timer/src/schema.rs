//! The tables, the same on SQLite and PostgreSQL (every number a BIGINT
//! of milliseconds since the Unix epoch).
//!
//! - `jobs`: one row per job, holding its next occurrence, and while a
//!   node runs it, who (`owner`), until when (`lease_until`), which
//!   occurrence, and the claim's fencing token (`fence`, bumped by every
//!   claim).
//! - `deliveries`: a row each time a node starts a job's action ("the
//!   email went out"). Append-only, never deduplicated: it counts what
//!   the world saw.
//! - `effects`: the job's effect in the database, written with the
//!   completion. No unique key, on purpose: a bug that writes an
//!   occurrence's effect twice shows as two rows.
//! - `store_clock`: one row a test writes to set the store's time (see
//!   [`Dialect::render`](crate::store::Dialect::render)); empty, the
//!   store reads its real clock.
//!
//! Three indexes on `jobs`, one per lookup a node makes each round: the
//! earliest waiting job that is due (`jobs_due`), a running job whose
//! lease ran out (`jobs_lease`), and the `skip` jobs that are due
//! (`jobs_skip`, which holds `skip` jobs only). Each lookup starts at the
//! rows it wants and reads no later job, however many the table holds
//! (`tests/plans.rs` reads the plans).

use crate::store::{Store, StoreError};

// ANCHOR: schema
const TABLES: [&str; 7] = [
    "CREATE TABLE IF NOT EXISTS jobs (
        id          TEXT PRIMARY KEY,
        due_at      BIGINT NOT NULL,  -- the next occurrence
        period_ms   BIGINT,           -- NULL: a one-shot job
        misfire     TEXT NOT NULL,    -- fire_once | skip
        state       TEXT NOT NULL,    -- waiting | running | done | cancelled
        owner       TEXT,
        fence       BIGINT NOT NULL DEFAULT 0,
        lease_until BIGINT,
        occurrence  BIGINT            -- the due time being run
    )",
    "CREATE INDEX IF NOT EXISTS jobs_due ON jobs (state, due_at)",
    "CREATE INDEX IF NOT EXISTS jobs_lease ON jobs (state, lease_until)",
    "CREATE INDEX IF NOT EXISTS jobs_skip ON jobs (state, due_at) WHERE misfire = 'skip'",
    "CREATE TABLE IF NOT EXISTS deliveries (
        job_id TEXT NOT NULL, occurrence BIGINT NOT NULL, fence BIGINT NOT NULL,
        node TEXT NOT NULL, at BIGINT NOT NULL
    )",
    "CREATE TABLE IF NOT EXISTS effects (
        job_id TEXT NOT NULL, occurrence BIGINT NOT NULL, fence BIGINT NOT NULL,
        node TEXT NOT NULL, at BIGINT NOT NULL
    )",
    "CREATE TABLE IF NOT EXISTS store_clock (id BIGINT PRIMARY KEY, now_ms BIGINT)",
];
// ANCHOR_END: schema

/// Creates the tables that do not exist yet.
///
/// # Errors
/// What the store reports.
pub fn create(store: &mut dyn Store) -> Result<(), StoreError> {
    for sql in TABLES {
        store.execute(sql, &[])?;
    }
    Ok(())
}
