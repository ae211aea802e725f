//! Catch it, D1 `check_then_claim`: two scheduler nodes, one due job, and
//! a claim that looks for the job in one statement and marks it taken in
//! another.
//!
//! Behind this API runs one of several nodes of *A timer that outlives its
//! process*, and your test cannot tell which except by what the nodes do
//! to the store. Among them:
//!
//! - the check-then-claim node (`durable-timer/src/check_then_claim.rs`):
//!   it selects a due job, then marks it running by its id alone. Another
//!   node can claim, run and complete the job in between; the mark takes
//!   the done job back, and it is delivered twice;
//! - correct nodes that close the gap in different ways: the chapter's
//!   claim, one statement that looks and marks at once (a node is held
//!   before it, with nothing in hand); a look and a mark inside one
//!   `BEGIN IMMEDIATE` transaction, which holds SQLite's write lock from
//!   the look to the commit (every other node's writes wait for it); and
//!   a look, then a mark that goes in only if the job's fence and due time
//!   are still what the look saw, its rows counted (no lock held between);
//! - nodes with other bugs of the chapter.
//!
//! The world's time stands still until your test calls
//! [`World::set_time`]: a job is due once the store's time has reached it.
//! Write a test that fails on the check-then-claim node every time, naming
//! D1, and passes on every correct node every time.

// Each version is built only where `select!` picks it.
#[cfg_attr(not(d1 = "compare_and_set"), allow(dead_code))]
mod compare_and_set;
#[cfg_attr(not(any(d1 = "transaction", d1 = "compare_and_set")), allow(dead_code))]
mod round;
#[cfg_attr(not(d1 = "transaction"), allow(dead_code))]
mod transaction;

use std::io;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};

use durable_timer::clock::set_store_time;
use durable_timer::{
    CLAIMING, Jobs, Misfire, Node as StageNode, SqliteStore, Store, Variant, check_then_claim,
    schema, state_guard_claim,
};

use self::round::{Claimer, Own};

pub use super::{Pause, Point};
pub use durable_timer::{Claim, JobError, Millis, Step, StoreError};

/// The race window: a node's round, in its claim, after it looked for a
/// due job and before it marked one running for itself, in whichever way
/// the version does the two. The thread held here is the node's: arm the
/// pause with [`Node::thread_name`].
///
/// In some versions the node holds the store's write lock here, and no
/// other node can claim (or write anything) until you release it; in
/// others it holds nothing, and where the look and the mark are one
/// statement, the node is held before it. Held once per arm; later rounds
/// go through.
pub const WINDOW: Point = Point::new(
    "WINDOW (d1: in a node's claim, after its look for a due job, before its mark)",
    <Imp as Version>::WINDOW,
);

/// How long a node's claim holds a job: a second of the world's time.
pub const LEASE: Millis = 1000;

/// A job's action: what firing it does outside the store. It runs on the
/// node's thread after the delivery is recorded and before the completion.
type Action = Arc<dyn Fn(&Claim) + Send + Sync>;

/// What every version behind this API does.
trait Version: Sized + Send + 'static {
    /// Its `kit::pause_point` in the claim.
    const WINDOW: &'static str;
    /// A node named `name` on `store`, its lease [`LEASE`].
    fn node(store: SqliteStore, name: &str) -> Self;
    /// The node's name: the `owner` of what it claims.
    fn name(&self) -> &str;
    /// The name of the thread its rounds run on.
    fn thread_name(&self) -> &str;
    /// This node, running `action` for each job it fires.
    fn on_run(self, action: Action) -> Self;
    /// One round: claim, deliver, run the action, complete.
    fn step(&mut self) -> Result<Step, StoreError>;
}

/// Which of the chapter's nodes a [`Staged`] node is, and the pause point
/// of its claim.
#[cfg_attr(
    not(any(
        d1 = "fixed",
        d1 = "check_then_claim",
        d1 = "state_guard_claim",
        d1 = "unfenced_write"
    )),
    allow(dead_code)
)]
trait Pick {
    const VARIANT: Variant;
    const WINDOW: &'static str;
}

/// One of the chapter's own nodes, as `durable-timer` builds it.
struct Staged<P> {
    node: StageNode,
    pick: PhantomData<fn() -> P>,
}

/// The chapter's node as it should be: the one-statement claim
/// (`claim.rs`), held before it.
#[cfg_attr(not(d1 = "fixed"), allow(dead_code))]
enum Fixed {}
impl Pick for Fixed {
    const VARIANT: Variant = Variant::Fixed;
    const WINDOW: &'static str = CLAIMING;
}

/// D1: look, then mark by id (`check_then_claim.rs`).
#[cfg_attr(not(d1 = "check_then_claim"), allow(dead_code))]
enum CheckThenClaim {}
impl Pick for CheckThenClaim {
    const VARIANT: Variant = Variant::CheckThenClaim;
    const WINDOW: &'static str = check_then_claim::WINDOW;
}

/// D2: look, then mark if the job is waiting (`state_guard_claim.rs`).
#[cfg_attr(not(d1 = "state_guard_claim"), allow(dead_code))]
enum StateGuardClaim {}
impl Pick for StateGuardClaim {
    const VARIANT: Variant = Variant::StateGuardClaim;
    const WINDOW: &'static str = state_guard_claim::WINDOW;
}

/// D3: the chapter's claim, and a completion with no fence
/// (`unfenced_write.rs`), held before its claim as the fixed node is.
#[cfg_attr(not(d1 = "unfenced_write"), allow(dead_code))]
enum UnfencedWrite {}
impl Pick for UnfencedWrite {
    const VARIANT: Variant = Variant::UnfencedWrite;
    const WINDOW: &'static str = CLAIMING;
}

impl<P: Pick + 'static> Version for Staged<P> {
    const WINDOW: &'static str = P::WINDOW;
    fn node(store: SqliteStore, name: &str) -> Self {
        Staged {
            node: StageNode::new(Box::new(store), name)
                .variant(P::VARIANT)
                .lease(LEASE),
            pick: PhantomData,
        }
    }
    fn name(&self) -> &str {
        self.node.name()
    }
    fn thread_name(&self) -> &str {
        self.node.thread_name()
    }
    fn on_run(self, action: Action) -> Self {
        Staged {
            node: self.node.action(action),
            pick: PhantomData,
        }
    }
    fn step(&mut self) -> Result<Step, StoreError> {
        self.node.step()
    }
}

impl<C: Claimer + Send + 'static> Version for Own<C> {
    const WINDOW: &'static str = C::WINDOW;
    fn node(store: SqliteStore, name: &str) -> Self {
        Own::new(Box::new(store), name, LEASE)
    }
    fn name(&self) -> &str {
        Own::name(self)
    }
    fn thread_name(&self) -> &str {
        Own::thread_name(self)
    }
    fn on_run(self, action: Action) -> Self {
        Own::on_run(self, action)
    }
    fn step(&mut self) -> Result<Step, StoreError> {
        Own::step(self)
    }
}

/// A version's code, as a pointer (see `keep_every_version`): its node's
/// constructor, and beside it its round, kept too (the round reaches the
/// version's pause point).
fn constructor<T: Version>() -> *const () {
    std::hint::black_box(<T as Version>::step as *const ());
    <T as Version>::node as *const ()
}

select!(d1 keep constructor:
    "fixed" => Staged<Fixed>,
    "transaction" => Own<transaction::Transaction>,
    "compare_and_set" => Own<compare_and_set::CompareAndSet>,
    "check_then_claim" => Staged<CheckThenClaim>,
    "state_guard_claim" => Staged<StateGuardClaim>,
    "unfenced_write" => Staged<UnfencedWrite>,
);

/// A store of the test's own: a SQLite file in a temporary directory, its
/// tables made, its time at 0 ms until [`World::set_time`] moves it. Every
/// node of the world has a connection of its own to the file.
pub struct World {
    path: PathBuf,
    jobs: Mutex<Jobs>,
    admin: Mutex<SqliteStore>,
    // Last: the directory goes once every connection above has closed.
    _dir: tempfile::TempDir,
}

/// One row of the store's `deliveries` (a node started the job's action)
/// or `effects` (a node's completion wrote the job's effect).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The node that wrote it.
    pub node: String,
    /// The occurrence: the due time being run.
    pub occurrence: Millis,
    /// The fencing token of the node's claim.
    pub fence: i64,
    /// The store's time when it was written.
    pub at: Millis,
}

impl World {
    /// A new world: its own SQLite file, the tables made, the time 0 ms.
    ///
    /// # Errors
    /// If the file cannot be made ([`StoreError::Unavailable`]).
    pub fn new() -> Result<World, StoreError> {
        let dir = tempfile::tempdir().map_err(|e| StoreError::Unavailable(e.to_string()))?;
        let path = dir.path().join("jobs.sqlite");
        let mut admin = SqliteStore::open(&path)?;
        schema::create(&mut admin)?;
        set_store_time(&mut admin, 0)?;
        let jobs = Jobs::new(Box::new(SqliteStore::open(&path)?)).map_err(|e| match e {
            JobError::Store(e) => e,
            other => StoreError::Other(other.to_string()),
        })?;
        Ok(World {
            path,
            jobs: Mutex::new(jobs),
            admin: Mutex::new(admin),
            _dir: dir,
        })
    }

    /// Schedules the one-shot job `job` at `at` ms.
    ///
    /// # Errors
    /// As [`Jobs::schedule_once`].
    pub fn schedule_once(&self, job: &str, at: Millis) -> Result<(), JobError> {
        super::calling("schedule_once");
        let mut jobs = self.jobs.lock().unwrap_or_else(PoisonError::into_inner);
        jobs.schedule_once(job, at)
    }

    /// Schedules the job `job` every `period` ms from `first` (after
    /// downtime it runs the latest missed occurrence once).
    ///
    /// # Errors
    /// As [`Jobs::schedule_every`].
    pub fn schedule_every(&self, job: &str, first: Millis, period: Millis) -> Result<(), JobError> {
        super::calling("schedule_every");
        let mut jobs = self.jobs.lock().unwrap_or_else(PoisonError::into_inner);
        jobs.schedule_every(job, first, period, Misfire::FireOnce)
    }

    /// Moves the store's time to `at` ms, for every node at once.
    ///
    /// # Errors
    /// What the store reports: [`StoreError::Busy`] if a node holds the
    /// write lock for longer than the busy timeout.
    pub fn set_time(&self, at: Millis) -> Result<(), StoreError> {
        super::calling("set_time");
        set_store_time(&mut *self.admin(), at)
    }

    /// A node named `name` (two nodes may share a name) on a connection of
    /// its own, claiming jobs for [`LEASE`] ms. Its rounds run on the
    /// calling thread ([`Node::step`]) or on a thread of its own
    /// ([`Node::spawn_step`]), named [`Node::thread_name`].
    ///
    /// # Errors
    /// If the store cannot be opened.
    pub fn node(&self, name: &str) -> Result<Node, StoreError> {
        let store = SqliteStore::open(&self.path)?;
        Ok(Node(Box::new(<Imp as Version>::node(store, name))))
    }

    /// Every delivery of `job`, in the order written: one each time a node
    /// started its action.
    ///
    /// # Errors
    /// What the store reports.
    pub fn deliveries(&self, job: &str) -> Result<Vec<Record>, StoreError> {
        super::calling("deliveries");
        self.records("deliveries", job)
    }

    /// Every effect of `job`, in the order written: one each time a node's
    /// completion wrote it.
    ///
    /// # Errors
    /// What the store reports.
    pub fn effects(&self, job: &str) -> Result<Vec<Record>, StoreError> {
        super::calling("effects");
        self.records("effects", job)
    }

    fn records(&self, table: &str, job: &str) -> Result<Vec<Record>, StoreError> {
        let sql = format!(
            "SELECT node, occurrence, fence, at FROM {table} WHERE job_id = $1 ORDER BY rowid"
        );
        let rows = self.admin().query(&sql, &[job.into()])?;
        Ok(rows
            .iter()
            .map(|row| Record {
                node: row.text(0).to_owned(),
                occurrence: row.int(1),
                fence: row.int(2),
                at: row.int(3),
            })
            .collect())
    }

    fn admin(&self) -> std::sync::MutexGuard<'_, SqliteStore> {
        self.admin.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A scheduler node: its own connection to the world's store and its own
/// name. One round ([`Node::step`]) claims a due job (or one whose lease
/// ran out), records its delivery, runs its action, and completes it.
// Boxed: the same size whichever version it holds.
pub struct Node(Box<Imp>);

impl Node {
    /// The node's name.
    pub fn name(&self) -> &str {
        Version::name(&*self.0)
    }

    /// The name of the thread [`Node::spawn_step`] runs its round on: what
    /// to arm a [`Pause`] for.
    pub fn thread_name(&self) -> &str {
        Version::thread_name(&*self.0)
    }

    /// This node, running `action` for each job it fires: after the
    /// delivery is recorded, before the completion, on the node's thread.
    /// An action that waits is a node stalled in the middle of a job.
    #[must_use]
    pub fn on_run(self, action: impl Fn(&Claim) + Send + Sync + 'static) -> Node {
        Node(Box::new(Version::on_run(*self.0, Arc::new(action))))
    }

    /// One round, on the calling thread: claim, deliver, run the action,
    /// complete. [`Step::Idle`] if no job was due.
    ///
    /// # Errors
    /// What the store reports ([`StoreError::Busy`] if another node held
    /// the write lock for longer than the busy timeout).
    pub fn step(&mut self) -> Result<Step, StoreError> {
        super::calling("step");
        Version::step(&mut *self.0)
    }

    /// One round on a thread of its own, named [`Node::thread_name`].
    ///
    /// # Errors
    /// If the thread cannot be started.
    pub fn spawn_step(mut self) -> io::Result<StepThread> {
        let name = self.thread_name().to_owned();
        let handle = thread::Builder::new().name(name.clone()).spawn(move || {
            let step = self.step();
            (self, step)
        })?;
        Ok(StepThread { name, handle })
    }
}

/// A node's round on its thread ([`Node::spawn_step`]).
pub struct StepThread {
    name: String,
    handle: JoinHandle<(Node, Result<Step, StoreError>)>,
}

impl StepThread {
    /// The thread's name.
    pub fn thread_name(&self) -> &str {
        &self.name
    }

    /// Whether the round has ended.
    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Waits for the round: the node, and what its round did.
    ///
    /// # Panics
    /// If the round panicked: the panic goes on in the caller.
    pub fn join(self) -> (Node, Result<Step, StoreError>) {
        self.handle
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }
}
