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
//! 1. [`store`]: the one thing a node asks of a database, [`Store`]; SQL
//!    written once with `$N` and `{now}`, rendered per dialect. Then
//!    [`sqlite`], and (feature `postgres`) `postgres`.
//! 2. [`schema`]: the tables.
//!
//! The rest of the stage (the clock, the node, its claim and completion,
//! the user's API and the buggy versions) lands next.

pub mod schema;
pub mod sqlite;
pub mod store;

#[cfg(feature = "postgres")]
pub mod postgres;

/// A time: milliseconds since the Unix epoch, on the store's clock or a
/// node's. One type for the whole stage, as the schema's BIGINT columns.
pub type Millis = i64;

pub use sqlite::SqliteStore;
pub use store::{Dialect, Row, Store, StoreError, Value};
