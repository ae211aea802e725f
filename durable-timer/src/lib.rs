//! Stage 9: a timer that outlives its process.
//!
//! Every timer so far forgot its tasks when its process ended. A durable
//! timer keeps them in a database, and several scheduler nodes, each a
//! process of its own, take turns firing them: a node claims a due job,
//! runs its action, and records that it is done. The nodes race, stall,
//! crash and disagree about the time; each bug of this stage (D1 to D9) is
//! one of those meeting a claim written a little too simply.
//!
//! What the finished version promises, and every real system surveyed
//! promises no more: **at-least-once delivery, effectively-once effects,
//! and no more.** A job's action may start twice (after a crash, or a
//! node stalled past its lease), but its effect in the database is
//! written once per occurrence, by the holder of the latest claim.
//!
//! Read the files in this order, as the book does:
//!
//! 1. [`store`]: the one thing a node asks of a database, [`Store`]: SQL
//!    written once with `$N` placeholders and a `{now}` token, rendered
//!    per dialect; then [`sqlite`] (and, with the feature `postgres`,
//!    `postgres`), and [`schema`], the tables.
//! 2. [`clock`]: the store's clock, the time authority, which a test sets;
//!    and a node's own [`Clock`], which only the D5 version reads.
//! 3. [`jobs`]: the user's API, [`Jobs`], and [`error`], what it refuses.
//! 4. [`claim`]: the claim, one statement per dialect. `check_then_claim.rs`
//!    looks, then marks (D1); `state_guard_claim.rs` guards the mark with
//!    the state, which a recurring job has again (D2); `node_clock.rs`
//!    judges by the node's clock (D5); `cursor_poll.rs` reads only what is
//!    due after a cursor, and never a job committed below it (D7).
//! 5. [`complete`]: the delivery, and the fenced completion that writes
//!    the effect once per occurrence. `unfenced_write.rs` completes by id
//!    (D3); `done_before_run.rs` marks the job done before running it
//!    (D6).
//! 6. [`lease`]: renewing a lease only while it is live, by fence;
//!    `renew_by_name.rs` renews by name (D4).
//! 7. [`misfire`]: what a recurring job does about missed occurrences;
//!    `every_missed_period.rs` runs them all (D8).
//! 8. [`cron`]: occurrences planned under one id by every node;
//!    `check_then_insert.rs` plans after a look, under its own (D9).
//! 9. [`node`]: a node's round, which calls all of the above, and
//!    [`running`]: a node on its thread.
//!
//! The race windows carry `kit` pause points, named by the constants the
//! tests arm: the node's [`CLAIMING`], [`CLAIMED`] and [`RUNNING`],
//! cron's [`PLANNING`], and each buggy file's `WINDOW`. They compile to
//! nothing outside test builds. `variant.rs` lists the versions and is the
//! one place the fixed node hands over to a buggy one.

pub mod claim;
pub mod clock;
pub mod complete;
pub mod cron;
pub mod error;
pub mod jobs;
pub mod lease;
pub mod misfire;
pub mod node;
pub mod running;
pub mod schema;
pub mod sqlite;
pub mod store;
mod variant;

#[cfg(feature = "postgres")]
pub mod postgres;

// The buggy versions: public for the tests and the exercises, hidden from
// the finished scheduler's docs (see `variant.rs`).
#[doc(hidden)]
pub mod check_then_claim;
#[doc(hidden)]
pub mod check_then_insert;
#[doc(hidden)]
pub mod cursor_poll;
#[doc(hidden)]
pub mod done_before_run;
#[doc(hidden)]
pub mod every_missed_period;
#[doc(hidden)]
pub mod node_clock;
#[doc(hidden)]
pub mod renew_by_name;
#[doc(hidden)]
pub mod state_guard_claim;
#[doc(hidden)]
pub mod unfenced_write;

/// A time: milliseconds since the Unix epoch, on the store's clock or a
/// node's. One type for the whole stage, as the schema's BIGINT columns.
pub type Millis = i64;

pub use claim::Claim;
pub use clock::{Clock, ManualTime};
pub use cron::{PLANNING, Schedule};
pub use error::{JobError, MAX_DUE};
pub use jobs::{Jobs, State, Status};
pub use misfire::Misfire;
pub use node::{Action, CLAIMED, CLAIMING, LEASE, Node, Point, RUNNING, Step};
pub use running::{Running, StepThread, Tally};
pub use sqlite::SqliteStore;
pub use store::{Dialect, Row, Store, StoreError, Value};
#[doc(hidden)]
pub use variant::Variant;
