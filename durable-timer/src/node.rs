//! A scheduler node: one process's worth of scheduler, with its own
//! connection to the store, its own clock and its own name. A node does
//! one round at a time ([`Node::step`]):
//!
//! 1. claim a due job, in one statement (`claim.rs`);
//! 2. record the delivery and run the action (`complete.rs`);
//! 3. renew the lease, if the node was told to (`lease.rs`);
//! 4. complete, fenced: the effect is written only if the claim still
//!    holds the job.
//!
//! Several nodes run the same rounds against one store; only the store
//! decides between them. A node never sleeps to let store time pass:
//! tests move the store's clock, and a node in a loop polls.

use std::sync::Arc;

use kit::pause_point;

use crate::claim::Claim;
use crate::clock::Clock;
use crate::complete;
use crate::cron::Schedule;
use crate::store::{Store, StoreError};
use crate::variant::Variant;
use crate::{Millis, misfire};

/// A node's thread, about to claim.
pub const CLAIMING: &str = "durable-timer::node: about to claim a job";
/// A node's thread, holding a claim it has not yet delivered.
pub const CLAIMED: &str = "durable-timer::node: claimed a job, not yet delivered";
/// A node's thread, after the delivery and the action, before completing.
pub const RUNNING: &str = "durable-timer::node: delivered, not yet completed";

/// How long a claim holds a job unless [`Node::lease`] says: 30 s.
pub const LEASE: Millis = 30_000;

/// A point in a round: where a node told to crash stops dead, and where
/// its [`Hook`] is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// After its claim, before the delivery.
    Claimed,
    /// After the delivery and the action, before the completion.
    Delivered,
}

/// What one round of a node did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// No job was due.
    Idle,
    /// Ran the claim and completed it: the effect is written.
    Fired(Claim),
    /// Ran the claim, but the completion was refused: another claim holds
    /// the job now (or it was cancelled). Nothing was written.
    Fenced(Claim),
    /// Ran the claim, but its lease could not be renewed: the node dropped
    /// the run and wrote nothing.
    Demoted(Claim),
    /// The node crashed (a test's fault): its connection is gone, with
    /// whatever it had not committed.
    Crashed,
}

/// A job's action: what "firing" does outside the database.
pub type Action = Arc<dyn Fn(&Claim) + Send + Sync>;

/// What a node calls at each [`Point`] of a round, with its claim, before
/// it crashes there if told to: where a node in a child process waits for
/// word from another process (a pause point holds a thread of this process
/// only), and where a stress run stalls it.
pub type Hook = Arc<dyn Fn(Point, &Claim) + Send + Sync>;

/// A scheduler node. See the module docs.
pub struct Node {
    name: String,
    thread: String,
    store: Option<Box<dyn Store>>,
    clock: Clock,
    lease: Millis,
    variant: Variant,
    crash_at: Option<Point>,
    renews: bool,
    action: Option<Action>,
    hook: Option<Hook>,
    cursor: Millis,
}

/// What a version of a round needs of its node: the connection, the
/// node's name, its lease, its clock, and the cursor only the D7 version
/// keeps (`cursor_poll.rs`).
pub(crate) struct Conn<'a> {
    pub store: &'a mut dyn Store,
    pub name: &'a str,
    pub lease: Millis,
    pub clock: &'a Clock,
    pub cursor: &'a mut Millis,
}

impl Node {
    /// A node named `name` on `store`: the fixed version, the machine's
    /// clock, a lease of [`LEASE`]. Its thread, when it runs on one, gets a
    /// name of its own (see [`Node::thread_name`]).
    pub fn new(store: Box<dyn Store>, name: &str) -> Node {
        let prefix: String = name.chars().take(8).collect();
        Node {
            name: name.to_owned(),
            thread: kit::threads::unique_name(&prefix),
            store: Some(store),
            clock: Clock::system(),
            lease: LEASE,
            variant: Variant::Fixed,
            crash_at: None,
            renews: false,
            action: None,
            hook: None,
            cursor: Millis::MIN,
        }
    }

    /// This node running `variant`.
    #[doc(hidden)]
    pub fn variant(mut self, variant: Variant) -> Node {
        self.variant = variant;
        self
    }

    /// This node reading `clock` (only the D5 version uses it).
    pub fn clock(mut self, clock: Clock) -> Node {
        self.clock = clock;
        self
    }

    /// This node claiming jobs for `lease` ms.
    pub fn lease(mut self, lease: Millis) -> Node {
        self.lease = lease;
        self
    }

    /// This node renewing its lease before each completion.
    pub fn renewing(mut self) -> Node {
        self.renews = true;
        self
    }

    /// This node running `action` for each job it fires.
    pub fn action(mut self, action: Action) -> Node {
        self.action = Some(action);
        self
    }

    /// This node calling `hook` at each [`Point`] of its rounds.
    pub fn hook(mut self, hook: Hook) -> Node {
        self.hook = Some(hook);
        self
    }

    /// This node crashing at `point` in its next round that gets there.
    pub fn crash_at(mut self, point: Point) -> Node {
        self.crash_at = Some(point);
        self
    }

    /// The node's name: the `owner` of the jobs it claims.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name of the thread the node runs on (`spawn_step`, `spawn`):
    /// what a test arms a pause point for.
    pub fn thread_name(&self) -> &str {
        &self.thread
    }

    // ANCHOR: step
    /// One round: claim, deliver, (renew,) complete.
    ///
    /// # Errors
    /// What the store reports; a claim left unfinished is taken over by
    /// another node when its lease runs out.
    pub fn step(&mut self) -> Result<Step, StoreError> {
        if self.store.is_none() {
            return Ok(Step::Crashed);
        }
        pause_point(CLAIMING);
        misfire::skip_missed(self.conn()?.store)?;
        let variant = self.variant;
        let Some(claim) = variant.claim(self.conn()?)? else {
            return Ok(Step::Idle);
        };
        pause_point(CLAIMED);
        self.reached(Point::Claimed, &claim);
        if self.crash_at == Some(Point::Claimed) {
            return Ok(self.crash());
        }
        let conn = self.conn()?;
        complete::deliver(conn.store, &claim, conn.name)?;
        if let Some(action) = &self.action {
            action(&claim);
        }
        pause_point(RUNNING);
        self.reached(Point::Delivered, &claim);
        if self.crash_at == Some(Point::Delivered) {
            return Ok(self.crash());
        }
        if self.renews && !variant.renew(self.conn()?, &claim)? {
            return Ok(Step::Demoted(claim));
        }
        if variant.complete(self.conn()?, &claim)? {
            Ok(Step::Fired(claim))
        } else {
            Ok(Step::Fenced(claim))
        }
    }
    // ANCHOR_END: step

    /// Renews the lease of `claim` now, as a round told to renew does
    /// before completing. Returns `false` if the lease is gone.
    ///
    /// # Errors
    /// What the store reports.
    pub fn renew(&mut self, claim: &Claim) -> Result<bool, StoreError> {
        let variant = self.variant;
        variant.renew(self.conn()?, claim)
    }

    /// Inserts the next occurrence of `schedule` as a one-shot job, unless
    /// another node did. Returns the job's id if this call inserted it.
    ///
    /// # Errors
    /// What the store reports.
    pub fn plan(&mut self, schedule: &Schedule) -> Result<Option<String>, StoreError> {
        let variant = self.variant;
        variant.plan(self.conn()?, schedule)
    }

    /// The connection and what a round needs with it.
    pub(crate) fn conn(&mut self) -> Result<Conn<'_>, StoreError> {
        let store = self
            .store
            .as_deref_mut()
            .ok_or_else(|| StoreError::Unavailable(format!("node {} crashed", self.name)))?;
        Ok(Conn {
            store,
            name: &self.name,
            lease: self.lease,
            clock: &self.clock,
            cursor: &mut self.cursor,
        })
    }

    /// Calls the node's hook, if it has one, at `point`.
    fn reached(&self, point: Point, claim: &Claim) {
        if let Some(hook) = &self.hook {
            hook(point, claim);
        }
    }

    /// Stops dead: the connection goes, and with it anything uncommitted.
    fn crash(&mut self) -> Step {
        self.store = None;
        Step::Crashed
    }
}
