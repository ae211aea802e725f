//! The claim: one statement that picks a due job (or one whose holder's
//! lease ran out), marks it running for this node until a lease ends, and
//! bumps its fencing token. One statement, so no other node can claim the
//! job between the look and the mark, and a node that finds no row
//! claimed nothing (D1, D2).
//!
//! The look is two lookups, each along an index (`schema.rs`): a job
//! whose lease ran out, the earliest first; failing that, the earliest
//! waiting job that is due. Each states its index's range outright (a
//! state, and a time up to `{now}`) and stops at the first row that
//! passes [`DUE`]. Asked for `DUE` alone, an `OR`, both databases gather
//! every due job and every running one and sort them all to keep one
//! (`tests/plans.rs` reads the plans). A lease run out goes first: its
//! job is late by a lease at least, and its holder is gone.
//!
//! The two databases differ here, so there is one statement for each.
//! SQLite lets one connection write at a time: the statement's look (the
//! subqueries) and its mark run under the same write lock, and the guard
//! is repeated on the row it updates. PostgreSQL runs claims side by side:
//! `FOR UPDATE SKIP LOCKED` locks the row a lookup picks and passes over
//! rows another claim has locked, so two nodes claim two jobs instead of
//! queueing for one.

use crate::Millis;
use crate::store::{Dialect, Row, Store, StoreError};

/// A job a node claimed: which job, which occurrence (the due time being
/// run), and the claim's fencing token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// The job's id.
    pub job: String,
    /// The occurrence being run: its due time.
    pub occurrence: Millis,
    /// The fencing token of this claim: every later write of the claim
    /// carries it, and is refused once another claim has bumped it.
    pub fence: i64,
    /// The job's period; `None` for a one-shot job.
    pub period: Option<Millis>,
}

impl Claim {
    /// A claim from a row of `id, occurrence, fence, period_ms`.
    pub(crate) fn from_row(row: &Row) -> Claim {
        Claim {
            job: row.text(0).to_owned(),
            occurrence: row.int(1),
            fence: row.int(2),
            period: row.opt_int(3),
        }
    }
}

// ANCHOR: due
/// Which jobs a claim may take: waiting and due (a `skip` job more than a
/// period late is left to `misfire::skip_missed`), or running on a lease
/// that ran out.
pub const DUE: &str = "(state = 'waiting' AND due_at <= {now}
      AND (period_ms IS NULL OR misfire <> 'skip' OR due_at + period_ms > {now}))
  OR (state = 'running' AND lease_until <= {now})";

// ANCHOR: set
/// What a claim sets. `$1` is the node, `$2` the lease. A job taken over
/// from an expired lease keeps its occurrence; a waiting one runs its
/// latest due occurrence (the misfire rule, see `misfire.rs`).
pub const SET: &str = "state = 'running', owner = $1,
    lease_until = {now} + $2, fence = fence + 1,
    occurrence = CASE WHEN state = 'running' THEN occurrence
                      WHEN period_ms IS NULL THEN due_at
                      ELSE due_at + period_ms * (({now} - due_at) / period_ms) END";
// ANCHOR_END: set
// ANCHOR_END: due

// ANCHOR: claim_sqlite
const CLAIM_SQLITE: &str = "UPDATE jobs SET {set}
 WHERE id = COALESCE(
     (SELECT id FROM jobs WHERE state = 'running' AND lease_until <= {now} AND ({due})
       ORDER BY lease_until LIMIT 1),
     (SELECT id FROM jobs WHERE state = 'waiting' AND due_at <= {now} AND ({due})
       ORDER BY due_at LIMIT 1))
   AND ({due})
RETURNING id, occurrence, fence, period_ms";
// ANCHOR_END: claim_sqlite

// ANCHOR: claim_postgres
const CLAIM_POSTGRES: &str = "UPDATE jobs SET {set}
 WHERE id = COALESCE(
     (SELECT id FROM jobs WHERE state = 'running' AND lease_until <= {now} AND ({due})
       ORDER BY lease_until LIMIT 1 FOR UPDATE SKIP LOCKED),
     (SELECT id FROM jobs WHERE state = 'waiting' AND due_at <= {now} AND ({due})
       ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED))
RETURNING id, occurrence, fence, period_ms";
// ANCHOR_END: claim_postgres

/// The claim statement for `dialect`, picking by `due` and setting `set`
/// (the fixed version passes [`DUE`] and [`SET`]; a buggy one changes one),
/// before [`Dialect::render`](crate::store::Dialect::render): it still
/// says `{now}` and `$N`.
pub fn statement(dialect: Dialect, due: &str, set: &str) -> String {
    let shape = match dialect {
        Dialect::Sqlite => CLAIM_SQLITE,
        Dialect::Postgres => CLAIM_POSTGRES,
    };
    shape.replace("{due}", due).replace("{set}", set)
}

// ANCHOR: claim
/// Claims the next due job for `node`, on a lease of `lease` ms; `None` if
/// no job is due.
///
/// # Errors
/// What the store reports; nothing was claimed.
pub fn claim(
    store: &mut dyn Store,
    node: &str,
    lease: Millis,
) -> Result<Option<Claim>, StoreError> {
    let sql = statement(store.dialect(), DUE, SET);
    let rows = store.query(&sql, &[node.into(), lease.into()])?;
    Ok(rows.first().map(Claim::from_row))
}
// ANCHOR_END: claim
