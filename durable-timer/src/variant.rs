//! Which version of a node runs, and the switchboard: every hand-over to
//! a buggy version is here, in `impl Variant`, and nowhere else. Each
//! buggy version lives in a file of its own, named for what it is. The
//! node calls the switchboard at the one place a version differs (its
//! claim, renewal, completion, planning), by a plain call that names no
//! bug, and the switchboard hands over to the fixed function or to the
//! bug's. So the fixed functions the book shows hold only the fix.

use crate::claim::{self, Claim};
use crate::cron::{self, Schedule};
use crate::node::Conn;
use crate::store::StoreError;
use crate::{
    check_then_claim, check_then_insert, complete, cursor_poll, done_before_run,
    every_missed_period, lease, node_clock, renew_by_name, state_guard_claim, unfenced_write,
};

// ANCHOR: variant
/// Which version of a node to run; see [`Node::variant`](crate::Node::variant).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[doc(hidden)]
pub enum Variant {
    /// The node as it should be.
    #[default]
    Fixed,
    /// Looks for a due job, then marks it running by id, unguarded
    /// (check_then_claim.rs): two nodes run it (D1 `check_then_claim`).
    CheckThenClaim,
    /// Marks the job it found running if it is still `waiting`
    /// (state_guard_claim.rs): a recurring job is waiting again for its
    /// next occurrence, the guard matches, the old one runs twice (D2
    /// `recurring_aba`).
    StateGuardClaim,
    /// Completes and writes the effect by job id, with no fence
    /// (unfenced_write.rs): a node stalled past its lease writes after its
    /// successor (D3 `stale_lease_write`).
    UnfencedWrite,
    /// Renews and completes by node name (renew_by_name.rs): a node whose
    /// lease expired renews over a claim of the same name (D4
    /// `renewal_steals_lease`).
    RenewByName,
    /// Judges due times and leases by the node's own clock
    /// (node_clock.rs): a clock ahead fires early (D5 `clock_skew`).
    NodeClock,
    /// Marks the job done as it claims it, then runs it
    /// (done_before_run.rs): a crash in between loses it (D6
    /// `done_before_run`).
    DoneBeforeRun,
    /// Reads only the jobs due after a cursor it moves up to each scan's
    /// time (cursor_poll.rs): a job committed after the scan, due before
    /// the cursor, is never read (D7 `cursor_skips_late_job`).
    CursorPoll,
    /// Runs the oldest missed occurrence, then the next
    /// (every_missed_period.rs): after downtime, one run per missed period
    /// (D8 `catch_up_storm`).
    EveryMissedPeriod,
    /// Plans a cron occurrence after a look, under an id of its own
    /// (check_then_insert.rs): two nodes plan it twice (D9
    /// `duplicate_occurrence`).
    CheckThenInsert,
}
// ANCHOR_END: variant

/// The switch points, one per place a buggy version differs.
impl Variant {
    /// The claim (D1, D2, D5, D6, D7, D8).
    pub(crate) fn claim(self, c: Conn<'_>) -> Result<Option<Claim>, StoreError> {
        match self {
            Variant::CheckThenClaim => check_then_claim::claim(c.store, c.name, c.lease),
            Variant::StateGuardClaim => state_guard_claim::claim(c.store, c.name, c.lease),
            Variant::NodeClock => node_clock::claim(c.store, c.name, c.lease, c.clock.now()),
            Variant::DoneBeforeRun => done_before_run::claim(c.store, c.name),
            Variant::CursorPoll => cursor_poll::claim(c.store, c.name, c.lease, c.cursor),
            Variant::EveryMissedPeriod => every_missed_period::claim(c.store, c.name, c.lease),
            _ => claim::claim(c.store, c.name, c.lease),
        }
    }

    /// The lease's renewal (D4).
    pub(crate) fn renew(self, c: Conn<'_>, claim: &Claim) -> Result<bool, StoreError> {
        match self {
            Variant::RenewByName => renew_by_name::renew(c.store, claim, c.name, c.lease),
            _ => lease::renew(c.store, claim, c.lease),
        }
    }

    /// The completion and its effect (D3, D4, D6).
    pub(crate) fn complete(self, c: Conn<'_>, claim: &Claim) -> Result<bool, StoreError> {
        match self {
            Variant::UnfencedWrite => unfenced_write::complete(c.store, claim, c.name),
            Variant::RenewByName => renew_by_name::complete(c.store, claim, c.name),
            Variant::DoneBeforeRun => done_before_run::complete(c.store, claim, c.name),
            _ => complete::complete(c.store, claim, c.name),
        }
    }

    /// Planning a cron occurrence (D9).
    pub(crate) fn plan(
        self,
        c: Conn<'_>,
        schedule: &Schedule,
    ) -> Result<Option<String>, StoreError> {
        match self {
            Variant::CheckThenInsert => check_then_insert::plan(c.store, schedule, c.name),
            _ => cron::plan(c.store, schedule),
        }
    }
}
