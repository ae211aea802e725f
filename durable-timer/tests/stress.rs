//! Stress: several nodes and many jobs, with every fault at once, and the
//! promise checked at the end: every occurrence due by then has run, its
//! effect written exactly once (none lost, none twice), and it was
//! delivered at least once.
//!
//! A run follows a plan drawn from one replay number (printed; the
//! variable `DURABLE_STRESS_REPLAY` gives one back). One-shot and
//! recurring jobs are due at random times. The test moves the world's time
//! in steps; after each it waits until the nodes have done what the time
//! lets them, then moves on. Meanwhile:
//!
//! - each node's clock is off by a random skew (the fixed version reads
//!   the store's; a run that fired early would show it as an occurrence
//!   run before it was due);
//! - a node holds a claim now and then, at a random point of its round,
//!   until the world's time has moved on by up to two leases: often past
//!   its lease, and its run is taken over;
//! - now and then a node is restarted carrying a crash at a random
//!   `Point`, and crashes there in its next claim: its connection goes,
//!   with whatever it had not committed; it is restarted a step or two
//!   later.
//!
//! The threads' interleaving is the machine's: a replay number replays the
//! plan and the faults drawn, not the order the nodes met them in.
//!
//! **No occurrence is late by a period.** A run has at most `faults`
//! holds and crashes in all, each delays a claim by at most a lease and a
//! step, and every period is longer than all of them together, so no
//! occurrence is ever missed (a misfire: `misfire.rs` and D8's business).
//! That keeps the check exact: the occurrences due are the one-shots'
//! due times and every recurring job's `first + k * period` up to the end.
//!
//! The last run has real processes: `durable-node` children, killed with
//! SIGKILL at random moments (wherever they are in a round, a transaction
//! open or not) and restarted under a new name.
//!
//! `cargo test` runs a quick plan; `DURABLE_STRESS=full` a larger one (the
//! CI step "durable timers: processes and stress" runs that, on both
//! stores). Each run prints its counts.

mod support;

use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use durable_timer::node::Hook;
use durable_timer::{Claim, Millis, Misfire, Point, Running, Tally, Variant};
use fastrand::Rng;
use support::child::Child;
use support::{Backend, World};

/// A run's size and faults, and the replay number they were drawn from.
#[derive(Debug, Clone, Copy)]
struct Plan {
    replay: u64,
    nodes: usize,
    one_shots: usize,
    recurring: usize,
    /// The last due time of a one-shot job, and where time stops moving
    /// once nothing runs.
    end: Millis,
    /// How far the world's time moves at a time.
    step: Millis,
    lease: Millis,
    /// Holds, crashes and kills in all, at most.
    faults: u32,
    /// The odds of one: a claim held, a node started with a crash, a
    /// process killed at a step.
    fault_one_in: u32,
    /// How far a node's clock is off, either way, at most.
    max_skew: Millis,
    /// How often an idle node asks the store for work, in ms of the
    /// machine's time (every millisecond, six nodes keep PostgreSQL on two
    /// cores busy answering them).
    poll: u64,
}

impl Plan {
    /// The quick plan, or the full one under `DURABLE_STRESS=full`.
    fn new() -> Plan {
        let quick = Plan {
            replay: replay(),
            nodes: 3,
            one_shots: 40,
            recurring: 4,
            end: 5_000,
            step: 50,
            lease: 100,
            faults: 6,
            fault_one_in: 5,
            max_skew: 5_000,
            poll: 2,
        };
        match std::env::var("DURABLE_STRESS").as_deref() {
            Ok("full") => Plan {
                nodes: 6,
                one_shots: 500,
                recurring: 24,
                end: 30_000,
                faults: 24,
                fault_one_in: 4,
                ..quick
            },
            _ => quick,
        }
    }

    /// The shortest period: longer than every fault's delay together.
    fn min_period(&self) -> Millis {
        2 * self.step + Millis::from(self.faults) * (self.lease + self.step)
    }
}

/// The replay number: `DURABLE_STRESS_REPLAY`, or a new one.
fn replay() -> u64 {
    std::env::var("DURABLE_STRESS_REPLAY")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        })
}

/// A job as scheduled.
struct Planned {
    id: String,
    first: Millis,
    period: Option<Millis>,
}

/// Schedules the plan's jobs at random times.
fn schedule(world: &World, plan: &Plan, rng: &mut Rng) -> Vec<Planned> {
    let mut jobs = world.jobs();
    let mut planned = Vec::new();
    for i in 0..plan.one_shots {
        let due = rng.i64(0..=plan.end);
        let id = format!("once-{i}");
        jobs.schedule_once(&id, due).expect("schedule");
        planned.push(Planned {
            id,
            first: due,
            period: None,
        });
    }
    let min = plan.min_period();
    for i in 0..plan.recurring {
        let period = rng.i64(min..=min + min / 2);
        let first = rng.i64(0..period);
        let misfire = if rng.bool() {
            Misfire::FireOnce
        } else {
            Misfire::Skip
        };
        let id = format!("every-{i}");
        jobs.schedule_every(&id, first, period, misfire)
            .expect("schedule");
        planned.push(Planned {
            id,
            first,
            period: Some(period),
        });
    }
    planned
}

/// What a run counted.
#[derive(Debug, Default)]
struct Counts {
    occurrences: usize,
    deliveries: usize,
    effects: usize,
    lost: Vec<(String, Millis)>,
    twice: Vec<(String, Millis)>,
    early: usize,
    undelivered: usize,
    crashes: u32,
    restarts: u32,
    holds: u32,
    errors: usize,
    steps: u64,
}

/// Reads the store at the end of a run, the world's time at `end`.
fn count(world: &World, planned: &[Planned], end: Millis) -> Counts {
    let mut due = Vec::new();
    for job in planned {
        match job.period {
            None => due.push((job.id.clone(), job.first)),
            Some(p) => due.extend(
                (0..)
                    .map(|k| job.first + k * p)
                    .take_while(|&o| o <= end)
                    .map(|o| (job.id.clone(), o)),
            ),
        }
    }
    let mut effects: BTreeMap<(String, Millis), usize> = BTreeMap::new();
    let rows = world.query("SELECT job_id, occurrence FROM effects", &[]);
    for row in &rows {
        *effects
            .entry((row.text(0).to_owned(), row.int(1)))
            .or_default() += 1;
    }
    let early = world.query("SELECT COUNT(*) FROM deliveries WHERE at < occurrence", &[]);
    let deliveries = world.query("SELECT COUNT(*) FROM deliveries", &[]);
    let undelivered = world.query(
        "SELECT COUNT(*) FROM effects e WHERE NOT EXISTS (SELECT 1 FROM deliveries d
          WHERE d.job_id = e.job_id AND d.occurrence = e.occurrence)",
        &[],
    );
    Counts {
        occurrences: due.len(),
        deliveries: usize::try_from(deliveries[0].int(0)).unwrap_or(0),
        effects: rows.len(),
        lost: due
            .iter()
            .filter(|o| !effects.contains_key(*o))
            .cloned()
            .collect(),
        twice: effects
            .iter()
            .filter(|(_, n)| **n > 1)
            .map(|(o, _)| o.clone())
            .collect(),
        early: usize::try_from(early[0].int(0)).unwrap_or(0),
        undelivered: usize::try_from(undelivered[0].int(0)).unwrap_or(0),
        ..Counts::default()
    }
}

/// The check: every occurrence due has one effect, no other effect was
/// written, every effect was delivered, none before its due time.
fn check(what: &str, plan: &Plan, counts: &Counts, took: f64) {
    println!(
        "stress, {what}: replay {} (DURABLE_STRESS_REPLAY={} replays its plan): {} nodes, {} \
         occurrences, {} deliveries, {} effects, {} lost, {} twice; {} crashes, {} restarts, {} \
         holds, {} store errors, {} steps, in {took:.2} s",
        plan.replay,
        plan.replay,
        plan.nodes,
        counts.occurrences,
        counts.deliveries,
        counts.effects,
        counts.lost.len(),
        counts.twice.len(),
        counts.crashes,
        counts.restarts,
        counts.holds,
        counts.errors,
        counts.steps
    );
    let again = format!(
        "replay it: DURABLE_STRESS_REPLAY={} cargo test -p durable-timer --test stress",
        plan.replay
    );
    assert!(
        counts.lost.is_empty() && counts.twice.is_empty(),
        "stress, {what}: occurrences lost {:?}, written twice {:?}; {again}",
        counts.lost,
        counts.twice
    );
    assert_eq!(
        counts.effects, counts.occurrences,
        "stress, {what}: effects, one per occurrence due and no other; {again}"
    );
    assert_eq!(
        (counts.early, counts.undelivered),
        (0, 0),
        "stress, {what}: deliveries before their due time, effects never delivered; {again}"
    );
    assert!(
        counts.deliveries >= counts.effects,
        "stress, {what}: fewer deliveries than effects; {again}"
    );
}

/// The nodes of a run, as the test drives them.
trait Nodes {
    /// Starts (or restarts) the nodes that are down and may start now,
    /// at step `step`; then whether they have settled at `now`.
    fn settle(&mut self, step: u64, now: Millis) -> bool;

    /// The world's time has moved to `now`, step `step`.
    fn moved(&mut self, step: u64, now: Millis);
}

/// Moves the world's time a step at a time, from 0 ms, and after each
/// step waits until the nodes have settled; once past the plan's end with
/// nothing running, stops. Returns the time it stopped at, and the steps.
fn drive(world: &World, plan: &Plan, nodes: &mut impl Nodes) -> (Millis, u64) {
    let (mut now, mut step) = (0, 0);
    loop {
        let settled = kit::eventually(support::child::hang(), || nodes.settle(step, now));
        assert!(
            settled,
            "stress, replay {}: the nodes did not settle at {now} ms within {} ms",
            plan.replay,
            support::child::hang().as_millis()
        );
        if now >= plan.end && !any_running(world) {
            return (now, step);
        }
        (now, step) = (now + plan.step, step + 1);
        world.set_time(now);
        nodes.moved(step, now);
    }
}

/// Whether the nodes have done all the world's time lets them: no waiting
/// job is due, and every running job is held by a claim `stalled` says
/// was stalled (held, crashed, killed), on a live lease.
fn settled(world: &World, now: Millis, stalled: impl Fn(&str, i64, &str) -> bool) -> bool {
    let due = world.query(
        "SELECT COUNT(*) FROM jobs WHERE state = 'waiting' AND due_at <= $1",
        &[now.into()],
    );
    if due[0].int(0) > 0 {
        return false;
    }
    let running = world.query(
        "SELECT id, fence, owner, lease_until FROM jobs WHERE state = 'running'",
        &[],
    );
    running
        .iter()
        .all(|r| r.int(3) > now && stalled(r.text(0), r.int(1), r.text(2)))
}

/// Whether any job is running.
fn any_running(world: &World) -> bool {
    let running = world.query("SELECT COUNT(*) FROM jobs WHERE state = 'running'", &[]);
    running[0].int(0) > 0
}

/// What the nodes on threads share with the test: the world's time (a
/// held node waits for it to move), the claims stalled by a hold or a
/// crash, how many nodes are held now, and the holds and crashes left to
/// draw (half the plan's faults each).
///
/// A node is held only while another node is free: one that is not held,
/// or down and restarted at once when no other is free. Otherwise every
/// node could be held waiting for the time to move, while the test waits
/// for them to claim what is due before it moves the time.
struct Shared {
    time: Mutex<Time>,
    moved: Condvar,
    stalled: Mutex<HashSet<(String, i64)>>,
    nodes: u32,
    held: AtomicU32,
    holds_left: AtomicU32,
    crashes_left: AtomicU32,
    holds: AtomicU32,
}

/// The world's time, as held nodes wait for it, and what ends a hold
/// sooner: the run closing, or the test restarting the node.
#[derive(Default)]
struct Time {
    now: Millis,
    closing: bool,
    releasing: HashSet<String>,
}

impl Shared {
    fn new(plan: &Plan) -> Shared {
        Shared {
            time: Mutex::new(Time::default()),
            moved: Condvar::new(),
            stalled: Mutex::new(HashSet::new()),
            nodes: u32::try_from(plan.nodes).expect("a few nodes"),
            held: AtomicU32::new(0),
            holds_left: AtomicU32::new(plan.faults / 2),
            crashes_left: AtomicU32::new(plan.faults - plan.faults / 2),
            holds: AtomicU32::new(0),
        }
    }

    /// Changes the time as held nodes see it, and wakes them to look.
    fn time(&self, change: impl FnOnce(&mut Time)) {
        change(&mut self.time.lock().unwrap_or_else(PoisonError::into_inner));
        self.moved.notify_all();
    }

    fn now(&self) -> Millis {
        self.time.lock().unwrap_or_else(PoisonError::into_inner).now
    }

    fn stall(&self, job: &str, fence: i64) {
        let mut stalled = self.stalled.lock().unwrap_or_else(PoisonError::into_inner);
        stalled.insert((job.to_owned(), fence));
    }

    fn is_stalled(&self, job: &str, fence: i64) -> bool {
        let stalled = self.stalled.lock().unwrap_or_else(PoisonError::into_inner);
        stalled.contains(&(job.to_owned(), fence))
    }

    /// Holds the calling node, and its claim, until the world's time
    /// reaches `until`, the run closes, or the test restarts the node;
    /// unless every other node is held or no hold is left.
    fn hold(&self, node: &str, claim: &Claim, until: Millis) {
        // ORDERING: Relaxed: counts of nodes, each changed by one atomic
        // step; the time they wait for is under the mutex.
        let room = |n: u32| (n + 1 < self.nodes).then_some(n + 1);
        if self
            .held
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, room)
            .is_err()
        {
            return;
        }
        if take(&self.holds_left) {
            self.stall(&claim.job, claim.fence);
            self.holds.fetch_add(1, Ordering::Relaxed);
            let mut time = self.time.lock().unwrap_or_else(PoisonError::into_inner);
            while time.now < until && !time.closing && !time.releasing.contains(node) {
                time = self
                    .moved
                    .wait(time)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        }
        self.held.fetch_sub(1, Ordering::Relaxed);
    }

    /// Whether no node is free to claim: all of them held or down.
    fn none_free(&self, up: usize) -> bool {
        // ORDERING: Relaxed: see `hold`.
        up <= self.held.load(Ordering::Relaxed) as usize
    }
}

/// Takes one from `left`; `false` if nothing is left.
fn take(left: &AtomicU32) -> bool {
    // ORDERING: Relaxed: a budget; nothing else is published through it.
    left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
        .is_ok()
}

/// The hook of the node `name`: marks its claim stalled where it will
/// crash, and now and then holds it, for up to two leases of the world's
/// time.
fn hook(shared: &Arc<Shared>, plan: &Plan, name: &str, crash_at: Option<Point>, rng: Rng) -> Hook {
    let shared = Arc::clone(shared);
    let name = name.to_owned();
    let (lease, one_in) = (plan.lease, plan.fault_one_in);
    let rng = Mutex::new(rng);
    Arc::new(move |point, claim| {
        if crash_at == Some(point) {
            shared.stall(&claim.job, claim.fence);
            return;
        }
        let hold = {
            let mut rng = rng.lock().unwrap_or_else(PoisonError::into_inner);
            (rng.u32(..one_in) == 0).then(|| rng.i64(1..=2 * lease))
        };
        if let Some(hold) = hold {
            shared.hold(&name, claim, shared.now() + hold);
        }
    })
}

/// The nodes of the run on threads, and what they did.
struct Threads<'w> {
    world: &'w World,
    plan: Plan,
    shared: Arc<Shared>,
    slots: Vec<Slot>,
    rng: Rng,
    tallies: Vec<Tally>,
    restarts: u32,
}

/// A node on a thread, or a crashed one waiting for its restart.
struct Slot {
    name: String,
    skew: Millis,
    running: Option<Running>,
    starts: u32,
    down_until: u64,
}

impl Nodes for Threads<'_> {
    /// Joins every node that crashed; starts every node that is down,
    /// once its steps down are over (at once if no node is free).
    fn settle(&mut self, step: u64, now: Millis) -> bool {
        for slot in &mut self.slots {
            if slot.running.as_ref().is_some_and(Running::is_finished) {
                let (_, tally) = slot.running.take().expect("running").stop();
                self.tallies.push(tally);
                slot.down_until = step + self.rng.u64(1..=2);
            }
        }
        let up = self.slots.iter().filter(|s| s.running.is_some()).count();
        let none_free = self.shared.none_free(up);
        for i in 0..self.slots.len() {
            let slot = &self.slots[i];
            if slot.running.is_none() && (none_free || step >= slot.down_until) {
                self.start(i, None);
            }
        }
        let shared = &self.shared;
        settled(self.world, now, |job, fence, _| {
            shared.is_stalled(job, fence)
        })
    }

    /// Moves the time held nodes see; now and then restarts a node, to
    /// crash at a point of its next claim.
    fn moved(&mut self, _: u64, now: Millis) {
        self.shared.time(|t| t.now = now);
        let up: Vec<usize> = (0..self.slots.len())
            .filter(|&i| self.slots[i].running.is_some())
            .collect();
        if self.rng.u32(..self.plan.fault_one_in) != 0 {
            return;
        }
        let Some(&i) = self.rng.choice(up.iter()) else {
            return;
        };
        if !take(&self.shared.crashes_left) {
            return;
        }
        let name = self.slots[i].name.clone();
        self.shared.time(|t| _ = t.releasing.insert(name.clone()));
        let (_, tally) = self.slots[i].running.take().expect("up").stop();
        self.shared.time(|t| _ = t.releasing.remove(&name));
        self.tallies.push(tally);
        let point = if self.rng.bool() {
            Point::Claimed
        } else {
            Point::Delivered
        };
        self.start(i, Some(point));
    }
}

impl Threads<'_> {
    /// Starts the node of slot `i`, carrying a crash at `crash_at`.
    fn start(&mut self, i: usize, crash_at: Option<Point>) {
        let (plan, rng) = (&self.plan, &mut self.rng);
        let slot = &mut self.slots[i];
        let mut node = self
            .world
            .skewed_node(&slot.name, Variant::Fixed, slot.skew)
            .lease(plan.lease)
            .hook(hook(&self.shared, plan, &slot.name, crash_at, rng.fork()));
        if let Some(point) = crash_at {
            node = node.crash_at(point);
        }
        if slot.starts > 0 {
            self.restarts += 1;
        }
        slot.starts += 1;
        slot.running = Some(node.spawn(kit::ms(plan.poll)).expect("start a node"));
    }
}

/// The run on threads: `plan.nodes` nodes, restarted as they crash.
fn threads(backend: Backend, plan: Plan) -> Counts {
    let world = World::new(backend);
    let mut rng = Rng::with_seed(plan.replay);
    let planned = schedule(&world, &plan, &mut rng);
    let slots = (0..plan.nodes)
        .map(|i| Slot {
            name: format!("n{i}"),
            skew: rng.i64(-plan.max_skew..=plan.max_skew),
            running: None,
            starts: 0,
            down_until: 0,
        })
        .collect();
    let mut nodes = Threads {
        world: &world,
        plan,
        shared: Arc::new(Shared::new(&plan)),
        slots,
        rng,
        tallies: Vec::new(),
        restarts: 0,
    };
    let (now, steps) = drive(&world, &plan, &mut nodes);
    nodes.shared.time(|t| t.closing = true);
    for slot in &mut nodes.slots {
        if let Some(running) = slot.running.take() {
            nodes.tallies.push(running.stop().1);
        }
    }
    Counts {
        crashes: nodes.tallies.iter().filter(|t| t.crashed).count() as u32,
        restarts: nodes.restarts,
        // ORDERING: Relaxed: every node's thread is joined.
        holds: nodes.shared.holds.load(Ordering::Relaxed),
        errors: nodes.tallies.iter().map(|t| t.errors.len()).sum(),
        steps,
        ..count(&world, &planned, now)
    }
}

/// The nodes of the run in processes, and what happened to them.
struct Processes<'w> {
    world: &'w World,
    plan: Plan,
    address: String,
    procs: Vec<Process>,
    /// The names of the processes killed: their claims are stalled.
    dead: HashSet<String>,
    /// Whether to kill the next process seen in a round this step.
    kill: bool,
    rng: Rng,
    kills: u32,
    restarts: u32,
}

/// A node's process, or a killed one waiting for its restart under a new
/// name.
struct Process {
    index: usize,
    generation: u32,
    child: Option<Child>,
    down_until: u64,
}

impl Process {
    fn name(&self) -> String {
        format!("p{}.{}", self.index, self.generation)
    }
}

impl Nodes for Processes<'_> {
    /// Starts every process that is down once its steps down are over (at
    /// once if none is up); kills one seen in a round, if this step
    /// should.
    fn settle(&mut self, step: u64, now: Millis) -> bool {
        let none_up = self.procs.iter().all(|p| p.child.is_none());
        for p in self.procs.iter_mut().filter(|p| p.child.is_none()) {
            if none_up || step >= p.down_until {
                if p.down_until > 0 {
                    p.generation += 1;
                    self.restarts += 1;
                }
                let mut child =
                    Child::spawn(&self.address, &p.name(), self.plan.lease, "fixed", "none");
                child.send(&format!("run {}", self.plan.poll));
                p.child = Some(child);
            }
        }
        if self.kill {
            self.kill_one_in_a_round(step);
        }
        let dead = &self.dead;
        settled(self.world, now, |_, _, owner| dead.contains(owner))
    }

    /// Draws whether to kill a process this step.
    fn moved(&mut self, _: u64, _: Millis) {
        self.kill = self.kills < self.plan.faults && self.rng.u32(..self.plan.fault_one_in) == 0;
    }
}

impl Processes<'_> {
    /// Kills, with SIGKILL, a process that holds a running job right now
    /// (between its claim and its completion, wherever that is), if one
    /// does, and reaps it.
    fn kill_one_in_a_round(&mut self, step: u64) {
        let owners = self
            .world
            .query("SELECT owner FROM jobs WHERE state = 'running'", &[]);
        let busy = owners
            .iter()
            .map(|r| r.text(0))
            .find(|o| !self.dead.contains(*o));
        let Some(p) = busy.and_then(|o| self.procs.iter_mut().find(|p| p.name() == o)) else {
            return;
        };
        if let Some(mut child) = p.child.take() {
            child.sigkill();
            self.dead.insert(p.name());
            p.down_until = step + self.rng.u64(1..=2);
            self.kills += 1;
            self.kill = false;
        }
    }
}

/// The run with real processes: `plan.nodes` children, killed with
/// SIGKILL in their rounds now and then, and restarted under a new name.
fn processes(backend: Backend, plan: Plan) -> Counts {
    let world = World::new(backend);
    let mut rng = Rng::with_seed(plan.replay);
    let planned = schedule(&world, &plan, &mut rng);
    let mut nodes = Processes {
        world: &world,
        plan,
        address: world.address(),
        procs: (0..plan.nodes)
            .map(|index| Process {
                index,
                generation: 0,
                child: None,
                down_until: 0,
            })
            .collect(),
        dead: HashSet::new(),
        kill: false,
        rng,
        kills: 0,
        restarts: 0,
    };
    let (now, steps) = drive(&world, &plan, &mut nodes);
    for p in &mut nodes.procs {
        if let Some(mut child) = p.child.take() {
            child.close();
            let said = child.line();
            assert!(
                said.starts_with("stopped "),
                "node {} said {said:?}",
                child.name()
            );
            assert!(child.finish().success(), "node {} ended well", p.name());
        }
    }
    Counts {
        crashes: nodes.kills,
        restarts: nodes.restarts,
        steps,
        ..count(&world, &planned, now)
    }
}

/// Runs `run` with the plan, times it, prints its counts, and checks them.
fn stress(what: &str, run: impl FnOnce(Plan) -> Counts) {
    let plan = Plan::new();
    let t = Instant::now();
    let counts = run(plan);
    check(what, &plan, &counts, t.elapsed().as_secs_f64());
}

#[test]
fn every_occurrence_once_nodes_on_threads() {
    stress("threads on SQLite", |plan| threads(Backend::Sqlite, plan));
}

#[test]
fn every_occurrence_once_nodes_in_processes() {
    stress("processes on SQLite", |plan| {
        processes(Backend::Sqlite, plan)
    });
}

/// The same runs on PostgreSQL.
#[cfg(feature = "postgres")]
mod postgres {
    use super::*;

    #[test]
    fn every_occurrence_once_nodes_on_threads() {
        stress("threads on PostgreSQL", |plan| {
            threads(Backend::Postgres, plan)
        });
    }

    #[test]
    fn every_occurrence_once_nodes_in_processes() {
        stress("processes on PostgreSQL", |plan| {
            processes(Backend::Postgres, plan)
        });
    }
}
