//! T10 `thundering_herd`: how idle workers wait for the head of the delayed
//! queue, counted in wake-ups.
//!
//! N taker threads loop on `take()` of one [`DelayedQueue`]; a producer
//! offers a row of items due a few milliseconds apart. Every time a taker
//! comes back from a wait (timed out, notified, or spuriously), the queue
//! counts a wake-up. Wake-ups per fired deadline is the cost:
//!
//! - herd.rs ([`Wait::Herd`]): every idle taker waits timed for the head,
//!   so all N wake at every deadline and N - 1 go back to sleep: about N
//!   wake-ups per deadline, growing with the pool.
//! - delayed_queue.rs ([`Wait::LeaderFollower`], the fix, the JDK's): one
//!   leader waits timed; it takes the head and wakes one follower to lead
//!   for the next. About 2 wake-ups per deadline (1 with a single taker),
//!   whatever the pool's size.
//! - successor.rs ([`Wait::LeaderSuccessor`], ours, the scheduled pool's
//!   default): a second taker waits timed for the next deadline and leads
//!   without being woken when the leader takes the head. About 1 wake-up
//!   per deadline: the target of at most [`SUCCESSOR_BOUND`] with 4 takers.
//!
//! The correctness check: with 8 takers, at most [`WAKEUPS_BOUND`]
//! wake-ups per fired deadline. Both kinds take every item, never early
//! (the table shows how late the latest was): the herd costs wake-ups,
//! not lateness.
//!
//! Then the three hand-offs leader-follower depends on, each forced: a new
//! earlier head while a leader waits for a later one; a leader that takes
//! its item while followers wait (held at the queue's pause point, so
//! that only a follower can take the next); a leader interrupted (what
//! `shutdown_now` does) while a follower waits. Leader-successor runs
//! those too, and the hand-offs of its own: a new second item earlier
//! than the one the successor times; the successor promoted when the
//! leader takes the head (without a wake-up); a leader that takes the
//! head with no successor; an interrupted successor.
#![cfg(not(loom))]

mod support;

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use interrupt_cancel::interrupt::{InterruptHandle, InterruptToken};
use kit::pause::Pause;
use kit::scale::in_ms;
use kit::{Recorder, ms};
use parking_lot::Mutex;
use threadpool_executor::deadline::Deadline;
use threadpool_executor::delayed_queue::{Delayed, DelayedQueue, NOT_QUEUED, Wait};
use threadpool_executor::queue::WorkQueue;

/// Where a taker stops once it took an item and handed leadership on.
const TOOK: &str = "threadpool-executor::delayed_queue: took an item, leadership handed on";

/// Deadlines fired in one measurement, and how far apart.
const DEADLINES: u64 = 24;
const GAP_MS: u64 = 5;
/// The first deadline, after the last offer.
const FIRST_MS: u64 = 5;
/// The taker counts measured.
const TAKERS: [usize; 4] = [1, 2, 4, 8];
/// The correctness check: wake-ups per fired deadline, at most. The
/// leader's timed wake-up plus the follower it hands on to is 2; the rest
/// is room for a rare spurious or early wake-up.
const WAKEUPS_BOUND: f64 = 2.5;
/// Leader-successor's target (issue 10, item 7): wake-ups per fired
/// deadline with 4 takers, at most, on a machine at rest. The count there
/// is 26 for 24 deadlines (1.08) at every taker count from 2: one per
/// deadline, the offer's wake-up of a first leader, and one hand-on at the
/// first deadline (nobody succeeds yet).
const SUCCESSOR_BOUND: f64 = 1.1;
/// Leader-successor on a loaded machine, every taker count: at most this.
/// A taker that ran a task and is not back before the next deadline has
/// not filled the successor slot, so that deadline costs the JDK's two.
/// With two busy loops on 2 cores, 1.33 was the most seen in 100 runs.
const SUCCESSOR_LOADED_BOUND: f64 = 1.5;
/// Measurements of leader-successor with 4 takers, at most, to find one
/// the machine ran at rest.
const SUCCESSOR_TRIES: usize = 3;
/// A run is "at rest" when its takers, together, waited for a core less
/// than this: 0.15 to 0.4 ms on an idle 2-core machine (the file's other
/// tests running); 2 to 100 ms with two busy loops.
const AT_REST_WAITED_MS: u64 = 1;
/// How late an item may be taken in a passing run (generous: a loaded
/// machine). The bugs these tests would catch leave it seconds late, or
/// never taken.
const LATE_MS: u64 = 300;

// ---------------------------------------------------------------------
// A test item and a crew of takers.

#[derive(Debug)]
struct Item {
    label: String,
    deadline: Deadline,
    sequence: u64,
    index: AtomicUsize,
}

impl Delayed for Item {
    fn deadline(&self) -> Deadline {
        self.deadline
    }
    fn sequence(&self) -> u64 {
        self.sequence
    }
    fn heap_index(&self) -> &AtomicUsize {
        &self.index
    }
}

fn item(label: impl Into<String>, deadline: Deadline) -> Arc<Item> {
    static SEQUENCE: AtomicU64 = AtomicU64::new(0);
    Arc::new(Item {
        label: label.into(),
        deadline,
        sequence: SEQUENCE.fetch_add(1, SeqCst),
        index: AtomicUsize::new(NOT_QUEUED),
    })
}

/// What a taker recorded of an item it took.
#[derive(Debug, Clone)]
struct Taken {
    label: String,
    by: String,
    /// Taken before its deadline: never allowed.
    early: bool,
    late: Duration,
}

/// Named taker threads looping on `take()`; each records "took" and
/// "took <label>" with the recorder. Interrupted and joined on drop.
struct Takers {
    names: Vec<String>,
    handles: Vec<InterruptHandle>,
    threads: Vec<JoinHandle<()>>,
    taken: Arc<Mutex<Vec<Taken>>>,
}

impl Takers {
    fn new() -> Takers {
        Takers {
            names: Vec::new(),
            handles: Vec::new(),
            threads: Vec::new(),
            taken: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// Starts one more taker; returns its name.
    fn spawn(&mut self, queue: &DelayedQueue<Item>, rec: &Recorder) -> String {
        self.spawn_named(queue, rec, kit::threads::unique_name("t10"))
    }

    /// Starts one more taker called `name`.
    fn spawn_named(&mut self, queue: &DelayedQueue<Item>, rec: &Recorder, name: String) -> String {
        let token = InterruptToken::new();
        self.handles.push(token.handle());
        let (queue, rec, taken) = (queue.clone(), rec.clone(), Arc::clone(&self.taken));
        let thread = thread::Builder::new()
            .name(name.clone())
            .spawn(move || {
                while let Ok(item) = queue.take(&token) {
                    let now = Deadline::now();
                    taken.lock().push(Taken {
                        label: item.label.clone(),
                        by: support::me(),
                        early: now < item.deadline,
                        late: now.saturating_duration_since(item.deadline),
                    });
                    rec.record(format!("took {}", item.label));
                    rec.record("took");
                }
                rec.record("interrupted");
            })
            .unwrap();
        self.names.push(name.clone());
        self.threads.push(thread);
        name
    }

    fn taken(&self, label: &str) -> Option<Taken> {
        self.taken.lock().iter().find(|t| t.label == label).cloned()
    }

    fn all_taken(&self) -> Vec<Taken> {
        self.taken.lock().clone()
    }

    fn interrupt(&self, name: &str) {
        let at = self.names.iter().position(|n| n == name).unwrap();
        self.handles[at].interrupt();
    }
}

impl Drop for Takers {
    fn drop(&mut self) {
        for handle in &self.handles {
            handle.interrupt();
        }
        for thread in self.threads.drain(..) {
            thread.join().unwrap();
        }
    }
}

/// Waits until `n` takers wait (and, if `leader`, one of them leads).
fn wait_idle(queue: &DelayedQueue<Item>, n: usize, leader: bool) {
    let idle = support::eventually(ms(2000), || {
        queue.waiting() == n && (!leader || queue.has_leader())
    });
    assert!(
        idle,
        "{} takers waiting (leader: {}), expected {n}",
        queue.waiting(),
        queue.has_leader()
    );
}

// ---------------------------------------------------------------------
// The measurement.

/// One measurement: `takers` threads, `DEADLINES` items.
#[derive(Debug, Clone, Copy)]
struct Run {
    wakeups: u64,
    max_late: Duration,
    /// How long the takers, together, were ready to run but waited for a
    /// core during the run (`None` where the kernel does not say).
    waited: Option<Duration>,
}

impl Run {
    fn per_deadline(&self) -> f64 {
        self.wakeups as f64 / DEADLINES as f64
    }

    /// Whether the machine let every taker run when it was ready: all of
    /// them together waited for a core less than [`AT_REST_WAITED_MS`].
    fn at_rest(&self) -> bool {
        self.waited.is_some_and(|w| w < ms(AT_REST_WAITED_MS))
    }
}

/// A run's `waited`, for a message.
fn waited(run: &Run) -> String {
    run.waited
        .map_or("?".into(), |w| format!("{} µs", w.as_micros()))
}

/// The takers' time waiting for a core, together, from each one's
/// scheduler statistics; `None` if the kernel keeps none.
fn waited_for_cpu(crew: &Takers) -> Option<Duration> {
    crew.names
        .iter()
        .map(|name| {
            kit::cpu::ThreadCpu::named(name)
                .and_then(|thread| thread.waited_for_cpu())
                .ok()
        })
        .sum()
}

fn measure(wait: Wait, takers: usize) -> Run {
    let queue = DelayedQueue::with_wait(wait);
    let rec = Recorder::new();
    let mut crew = Takers::new();
    for _ in 0..takers {
        crew.spawn(&queue, &rec);
    }
    // Quiet before counting: every taker waits for an item.
    wait_idle(&queue, takers, false);
    let before = queue.wakeups();
    let waited_before = waited_for_cpu(&crew);
    let start = Deadline::now();
    for i in 0..DEADLINES {
        let due = start.after(ms(FIRST_MS + i * GAP_MS));
        queue.offer(item(i.to_string(), due)).unwrap();
    }
    let last = ms(FIRST_MS + DEADLINES * GAP_MS);
    assert!(
        rec.wait_until_count("took", DEADLINES as usize, last + ms(2000))
            .is_some(),
        "{wait:?} with {takers} takers: {} of {DEADLINES} taken",
        rec.count("took")
    );
    // Quiet again before reading the count: the takers that woke for the
    // last deadline are back in their waits.
    wait_idle(&queue, takers, false);
    let wakeups = queue.wakeups() - before;
    let taken = crew.all_taken();
    assert!(taken.iter().all(|t| !t.early), "taken early: {taken:?}");
    let max_late = taken.iter().map(|t| t.late).max().unwrap();
    let waited = waited_for_cpu(&crew)
        .zip(waited_before)
        .map(|(after, before)| after.saturating_sub(before));
    Run {
        wakeups,
        max_late,
        waited,
    }
}

/// Herd, leader-follower and leader-successor for each taker count,
/// measured once for the whole binary (the tests below read the same
/// table).
struct Table {
    herd: Vec<Run>,
    leader_follower: Vec<Run>,
    successor: Vec<Run>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        // One after the other, never side by side: a measurement running
        // next to another is a loaded machine (see the tests' comments).
        let row = |wait| TAKERS.map(|n| measure(wait, n)).to_vec();
        let table = Table {
            herd: row(Wait::Herd),
            leader_follower: row(Wait::LeaderFollower),
            successor: row(Wait::LeaderSuccessor),
        };
        println!("{}", table.render());
        table
    })
}

impl Table {
    fn render(&self) -> String {
        let mut out = format!(
            "wake-ups per fired deadline ({DEADLINES} deadlines {GAP_MS} ms apart)\n\
             takers   herd   leader-follower   leader-successor   \
             (latest take: herd, leader-follower, leader-successor; \
             leader-successor's takers waited for a core)\n"
        );
        for (i, n) in TAKERS.iter().enumerate() {
            let (h, l, s) = (self.herd[i], self.leader_follower[i], self.successor[i]);
            writeln!(
                out,
                "{n:>6} {:>6.2} {:>17.2} {:>18.2}   ({} ms, {} ms, {} ms; {})",
                h.per_deadline(),
                l.per_deadline(),
                s.per_deadline(),
                in_ms(h.max_late),
                in_ms(l.max_late),
                in_ms(s.max_late),
                waited(&s),
            )
            .unwrap();
        }
        out
    }

    fn row(&self, wait: Wait, takers: usize) -> Run {
        let at = TAKERS.iter().position(|&n| n == takers).unwrap();
        match wait {
            Wait::Herd => self.herd[at],
            Wait::LeaderFollower => self.leader_follower[at],
            Wait::LeaderSuccessor => self.successor[at],
        }
    }
}

/// The correctness check: with 8 takers, few wake-ups per deadline.
fn assert_few_wakeups(wait: Wait) {
    let table = table();
    let per = table.row(wait, 8).per_deadline();
    assert!(
        per <= WAKEUPS_BOUND,
        "T10 thundering_herd: {per:.1} wake-ups per fired deadline with 8 takers ({wait:?}), \
         expected at most {WAKEUPS_BOUND}\n{}",
        table.render()
    );
}

#[test]
fn t10_thundering_herd_reproduces() {
    let table = table();
    let (one, eight) = (
        table.row(Wait::Herd, 1).per_deadline(),
        table.row(Wait::Herd, 8).per_deadline(),
    );
    // At rest every taker wakes at every deadline: 8.33 with 8 takers (the
    // first offer wakes them all too). A loaded machine takes some off: a
    // taker not back in its wait when the next deadline comes wakes once
    // for two (5.9 was the lowest seen, with four busy loops on 2 cores).
    // Half the takers is what a run on any machine shows.
    assert!(
        eight >= 4.0,
        "the herd woke {eight:.2} times per deadline with 8 takers, expected at least 4\n{}",
        table.render()
    );
    assert!(
        eight > one + 2.5,
        "the herd's wake-ups grow with the takers\n{}",
        table.render()
    );
}

#[test]
fn t10_thundering_herd_fixed() {
    assert_few_wakeups(Wait::LeaderFollower);
    let table = table();
    // The bound is the same for 1 taker as for 8: a single taker pays
    // about 1 per deadline (its own timed wait), two or more about 2 (the
    // hand-on adds one), and more takers add nothing. A loaded machine
    // only lowers these counts: a taker that comes back late finds its
    // next item already due and does not wait at all.
    for takers in TAKERS {
        let per = table.row(Wait::LeaderFollower, takers).per_deadline();
        assert!(per <= WAKEUPS_BOUND, "{takers} takers\n{}", table.render());
    }
    let eight = table.row(Wait::LeaderFollower, 8).per_deadline();
    let herd = table.row(Wait::Herd, 8).per_deadline();
    assert!(
        2.0 * eight < herd,
        "far fewer than the herd\n{}",
        table.render()
    );
}

#[test]
#[ignore = "T10 thundering_herd: shows the bug in herd.rs"]
fn t10_thundering_herd_on_herd() {
    assert_few_wakeups(Wait::Herd);
}

/// Ours, one step past the JDK: about one wake-up per fired deadline, the
/// leader's own, since the successor leads without being woken.
///
/// The target, at most [`SUCCESSOR_BOUND`] with 4 takers, is what the
/// algorithm costs when every taker gets a core when it is ready: 1.08 on
/// every run at rest. A loaded machine adds wake-ups (a taker not back by
/// the next deadline leaves the successor slot empty, and the leader hands
/// on, as the JDK's always does): with two busy loops on 2 cores, runs
/// with 4 takers went up to 1.29, and one in three or so over 1.1. So:
///
/// - every run, loaded or not, stays under [`SUCCESSOR_LOADED_BOUND`];
/// - the target is checked on runs the machine ran at rest, judged by the
///   takers' own scheduler statistics (time ready to run but waiting for
///   a core, [`AT_REST_WAITED_MS`]): the best of the first
///   [`SUCCESSOR_TRIES`] runs. A machine loaded on every try gets no
///   verdict on the target, and the test says so.
///
/// (A run stalled for tens of milliseconds counts less for every kind,
/// since a taker that finds its item already due does not wait: such a run
/// proves nothing either way. At rest the JDK's wait costs 2.00 on every
/// run.) That the successor leads for the next deadline without a wake-up
/// is proven without timing luck by `t10_successor_leads_without_a_wakeup`.
#[test]
fn t10_leader_successor_wakes_once_per_deadline() {
    let table = table();
    for takers in TAKERS {
        let per = table.row(Wait::LeaderSuccessor, takers).per_deadline();
        assert!(
            per <= SUCCESSOR_LOADED_BOUND,
            "T10 leader-successor: {per:.2} wake-ups per fired deadline with {takers} takers, \
             expected at most {SUCCESSOR_LOADED_BOUND} even loaded\n{}",
            table.render()
        );
    }
    let meets = |run: &Run| run.per_deadline() <= SUCCESSOR_BOUND;
    let mut runs = vec![table.row(Wait::LeaderSuccessor, 4)];
    while runs.len() < SUCCESSOR_TRIES && !runs.iter().any(|r| r.at_rest() && meets(r)) {
        runs.push(measure(Wait::LeaderSuccessor, 4));
    }
    let shown: Vec<String> = runs
        .iter()
        .map(|r| format!("{:.2} (waited for a core {})", r.per_deadline(), waited(r)))
        .collect();
    let at_rest: Vec<&Run> = runs.iter().filter(|r| r.at_rest()).collect();
    if at_rest.is_empty() {
        println!(
            "T10 leader-successor: the machine was loaded on every run with 4 takers, \
             no verdict on the target of {SUCCESSOR_BOUND}: {shown:?}"
        );
        return;
    }
    assert!(
        at_rest.iter().any(|r| meets(r)),
        "T10 leader-successor: over {SUCCESSOR_BOUND} wake-ups per fired deadline with 4 takers \
         on every run at rest: {shown:?}\n{}",
        table.render()
    );
}

// ---------------------------------------------------------------------
// The hand-offs, forced.

/// Checks that `label` was taken, not before its deadline, and at most
/// `LATE_MS` after.
fn assert_on_time(crew: &Takers, rec: &Recorder, label: &str) -> Taken {
    let taken = rec
        .eventually(&format!("took {label}"), ms(LATE_MS + 1000))
        .and_then(|_| crew.taken(label));
    let taken = taken.unwrap_or_else(|| panic!("{label} never taken\n{}", rec.log()));
    assert!(!taken.early, "{taken:?}\n{}", rec.log());
    assert!(
        taken.late < ms(LATE_MS),
        "{label} taken {} ms late\n{}",
        in_ms(taken.late),
        rec.log()
    );
    taken
}

/// A leader waits for a far head; an earlier item arrives. Whoever waited
/// for the far one would sleep through it: `offer` must wake a taker to
/// time the new head.
#[test]
fn t10_new_earlier_head_is_taken_on_time() {
    // (Leader-successor's: `t10_new_head_leaves_no_successor_too_late`.)
    for wait in [Wait::LeaderFollower, Wait::Herd] {
        let queue = DelayedQueue::with_wait(wait);
        let rec = Recorder::new();
        let mut crew = Takers::new();
        let far = item("far", Deadline::now().after(ms(5000)));
        queue.offer(Arc::clone(&far)).unwrap();
        crew.spawn(&queue, &rec);
        wait_idle(&queue, 1, wait == Wait::LeaderFollower);
        crew.spawn(&queue, &rec);
        wait_idle(&queue, 2, wait == Wait::LeaderFollower);
        rec.record_as("test", "offer near, due in 40 ms");
        queue
            .offer(item("near", Deadline::now().after(ms(40))))
            .unwrap();
        assert_on_time(&crew, &rec, "near");
        assert!(queue.contains(&far), "{wait:?}");
    }
}

/// The leader takes its item while two followers wait; the test holds it
/// right after (lock released, leadership handed on), so it cannot come
/// back for the next item. A follower must: without the hand-on both
/// sleep untimed, and the next item waits for the leader's release.
///
/// (Leader-successor's version of this, where the second taker succeeds
/// and leads without a wake-up, is `t10_successor_leads_without_a_wakeup`.)
#[test]
fn t10_leader_hands_on_after_taking() {
    let queue = DelayedQueue::new();
    let rec = Recorder::new();
    let mut crew = Takers::new();
    let now = Deadline::now();
    queue.offer(item("first", now.after(ms(60)))).unwrap();
    queue.offer(item("second", now.after(ms(120)))).unwrap();
    let leader = kit::threads::unique_name("t10");
    let pause = Pause::arm(TOOK, &leader);
    // The crew's first taker gets the held name: it is started alone, so
    // it leads.
    crew.spawn_named(&queue, &rec, leader.clone());
    wait_idle(&queue, 1, true);
    crew.spawn(&queue, &rec);
    crew.spawn(&queue, &rec);
    wait_idle(&queue, 3, true);
    pause.wait_reached();
    rec.record_as("test", "leader held after taking an item");
    let second = assert_on_time(&crew, &rec, "second");
    assert_ne!(second.by, leader, "a follower took it");
    pause.release();
    // The held leader had taken the first (it records once released).
    assert!(rec.eventually("took first", ms(1000)).is_some());
    assert_eq!(crew.taken("first").unwrap().by, leader);
}

/// The leader is interrupted (`shutdown_now` interrupts every worker)
/// while a follower waits untimed: the head must still be taken on time.
#[test]
fn t10_interrupted_leader_hands_on() {
    for wait in [Wait::LeaderFollower, Wait::LeaderSuccessor] {
        interrupted_leader_hands_on(wait);
    }
}

fn interrupted_leader_hands_on(wait: Wait) {
    let queue = DelayedQueue::with_wait(wait);
    let rec = Recorder::new();
    let mut crew = Takers::new();
    queue
        .offer(item("head", Deadline::now().after(ms(80))))
        .unwrap();
    let leader = crew.spawn(&queue, &rec);
    wait_idle(&queue, 1, true);
    let follower = crew.spawn(&queue, &rec);
    wait_idle(&queue, 2, true);
    crew.interrupt(&leader);
    assert!(rec.eventually("interrupted", ms(1000)).is_some());
    let taken = assert_on_time(&crew, &rec, "head");
    assert_eq!(taken.by, follower);
}

// ---------------------------------------------------------------------
// Leader-successor's own hand-offs, forced.

/// When `first` and `second` are due, in ms from the start. The crew
/// (three takers, started one at a time) is in its roles in under 15 ms
/// even loaded; the 100 ms between the two leave the leader, loaded, time
/// to take `first` before `second` is due (at 60 ms apart, one loaded run
/// in 20 failed with the leader never taking: starved, it seems, until the
/// successor woke and took both).
const FIRST: u64 = 150;
const SECOND: u64 = 250;

/// Waits until a taker succeeds (waits timed for the item after the head).
fn wait_successor(queue: &DelayedQueue<Item>) {
    assert!(
        support::eventually(ms(2000), || queue.has_successor()),
        "no successor ({} takers waiting)",
        queue.waiting()
    );
}

/// A queue holding `first` and `second`, due `first_ms` and `second_ms`
/// from now; a leader (held at the pause point once it took an item), a
/// successor and a follower, each in its role: the crew, the recorder,
/// the leader's pause and the three names.
struct Crew {
    // First, so that it is dropped first: a test that fails while the
    // leader is held releases it before the crew joins its threads.
    pause: Pause,
    queue: DelayedQueue<Item>,
    crew: Takers,
    rec: Recorder,
    leader: String,
    successor: String,
    follower: String,
}

fn leader_successor_crew(first_ms: u64, second_ms: u64) -> Crew {
    let queue = DelayedQueue::with_wait(Wait::LeaderSuccessor);
    let rec = Recorder::new();
    let mut crew = Takers::new();
    let now = Deadline::now();
    queue.offer(item("first", now.after(ms(first_ms)))).unwrap();
    queue
        .offer(item("second", now.after(ms(second_ms))))
        .unwrap();
    let leader = kit::threads::unique_name("t10");
    let pause = Pause::arm(TOOK, &leader);
    // Started one at a time, each waits before the next starts: the first
    // leads, the second succeeds, the third follows.
    crew.spawn_named(&queue, &rec, leader.clone());
    wait_idle(&queue, 1, true);
    let successor = crew.spawn(&queue, &rec);
    wait_idle(&queue, 2, true);
    wait_successor(&queue);
    let follower = crew.spawn(&queue, &rec);
    wait_idle(&queue, 3, true);
    // Every role is taken before `first` is due, or the test shows nothing.
    assert!(
        Deadline::now() < now.after(ms(first_ms)),
        "the crew took longer than {first_ms} ms to start (a machine too slow: KIT_TIME_SCALE)"
    );
    Crew {
        pause,
        queue,
        crew,
        rec,
        leader,
        successor,
        follower,
    }
}

/// The leader takes the head while a successor waits for the second and a
/// follower waits untimed; the leader is held once it took. The successor,
/// already timed for what is now the head, leads without being woken and
/// takes it: two wake-ups in all (the leader's and the successor's, each
/// at its own deadline), and the follower never wakes.
#[test]
fn t10_successor_leads_without_a_wakeup() {
    let c = leader_successor_crew(FIRST, SECOND);
    let before = c.queue.wakeups();
    c.pause.wait_reached();
    c.rec.record_as("test", "leader held after taking first");
    assert!(c.queue.has_leader(), "the successor leads at once");
    assert!(!c.queue.has_successor());
    let second = assert_on_time(&c.crew, &c.rec, "second");
    assert_eq!(
        second.by,
        c.successor,
        "the successor took it\n{}",
        c.rec.log()
    );
    // The successor is back in a wait (nothing left to time: it follows).
    wait_idle(&c.queue, 2, false);
    let wakeups = c.queue.wakeups() - before;
    assert_eq!(
        wakeups,
        2,
        "the leader's and the successor's wake-ups only, none for the follower {:?}\n{}",
        c.follower,
        c.rec.log()
    );
    c.pause.release();
    assert!(c.rec.eventually("took first", ms(1000)).is_some());
    assert_eq!(c.crew.taken("first").unwrap().by, c.leader);
}

/// A leader times `far`, a successor `farther`. Then `near` arrives, a new
/// head. The old head `far` is now the second, and the leader timed
/// exactly it: the leader becomes the successor. The old successor timed
/// `farther`: it must lose the role, or, promoted when `near` is taken, it
/// would lead for `far` still parked until `farther`'s time, 650 ms late.
/// Both `near` and `far` are taken on time.
#[test]
fn t10_new_head_leaves_no_successor_too_late() {
    let queue = DelayedQueue::with_wait(Wait::LeaderSuccessor);
    let rec = Recorder::new();
    let mut crew = Takers::new();
    let now = Deadline::now();
    queue
        .offer(item("far", now.after(ms(FIRST + 100))))
        .unwrap();
    let farther = item("farther", now.after(ms(FIRST + 750)));
    queue.offer(Arc::clone(&farther)).unwrap();
    crew.spawn(&queue, &rec);
    wait_idle(&queue, 1, true);
    crew.spawn(&queue, &rec);
    wait_idle(&queue, 2, true);
    wait_successor(&queue);
    rec.record_as("test", "offer near, due in 40 ms");
    queue
        .offer(item("near", Deadline::now().after(ms(40))))
        .unwrap();
    assert_on_time(&crew, &rec, "near");
    assert_on_time(&crew, &rec, "far");
    assert!(queue.contains(&farther));
}

/// A leader times `first`, a follower waits untimed, and nobody succeeds:
/// there was no second when they started. Then `second` arrives: a new
/// second with nobody to re-time, so `offer` wakes nobody. The leader takes
/// `first` and is held: with no successor it must hand on (the JDK's way),
/// and the follower takes `second` on time.
#[test]
fn t10_leader_without_successor_hands_on() {
    let queue = DelayedQueue::with_wait(Wait::LeaderSuccessor);
    let rec = Recorder::new();
    let mut crew = Takers::new();
    queue
        .offer(item("first", Deadline::now().after(ms(FIRST))))
        .unwrap();
    let leader = kit::threads::unique_name("t10");
    let pause = Pause::arm(TOOK, &leader);
    crew.spawn_named(&queue, &rec, leader.clone());
    wait_idle(&queue, 1, true);
    let follower = crew.spawn(&queue, &rec);
    wait_idle(&queue, 2, true);
    assert!(!queue.has_successor(), "no second: nothing to succeed for");
    let before = queue.wakeups();
    queue
        .offer(item("second", Deadline::now().after(ms(SECOND))))
        .unwrap();
    assert!(!queue.has_successor());
    assert_eq!(
        queue.wakeups(),
        before,
        "a new second with no successor wakes nobody"
    );
    pause.wait_reached();
    rec.record_as("test", "leader held after taking first");
    let second = assert_on_time(&crew, &rec, "second");
    assert_eq!(second.by, follower, "the follower, woken by the hand-on");
    pause.release();
    assert!(rec.eventually("took first", ms(1000)).is_some());
}

/// A leader times `first`, a successor times a far `second`, a follower
/// waits. Then `near`, earlier than `second`, arrives: the successor's time
/// is too late. The leader takes `first` and is held. If `offer` left the
/// successor in place, the successor would be promoted to lead for `near`
/// still parked until `second`'s time, seconds late. `offer` clears it and
/// wakes one taker: the successor or the follower then succeeds for
/// `near` and is promoted; or, if the notify reaches the leader, the
/// leader leads again and, with no successor, hands on when it takes
/// `first`. Either way `near` is taken on time.
#[test]
fn t10_new_second_is_taken_on_time() {
    let c = leader_successor_crew(FIRST, 5000);
    c.rec.record_as("test", "offer near");
    c.queue
        .offer(item("near", Deadline::now().after(ms(SECOND))))
        .unwrap();
    c.pause.wait_reached();
    c.rec.record_as("test", "leader held after taking first");
    let near = assert_on_time(&c.crew, &c.rec, "near");
    assert_ne!(near.by, c.leader);
    assert!(c.crew.taken("second").is_none(), "second is not due");
    assert_eq!(c.queue.len(), 1);
    c.pause.release();
}

/// The successor is interrupted while the leader times `first` and a
/// follower waits; it gives up its role as it leaves. The leader takes
/// `first` and is held, so only the follower can take `second`, on time.
/// The interrupt wakes every taker: if the follower looks again after the
/// successor has left, it succeeds and is promoted; if before, it follows
/// again, nobody succeeds, and the leader hands on as it takes `first`.
#[test]
fn t10_interrupted_successor_hands_on() {
    let c = leader_successor_crew(FIRST, SECOND);
    c.crew.interrupt(&c.successor);
    assert!(c.rec.eventually("interrupted", ms(1000)).is_some());
    // Interrupting wakes every taker (an interrupt's waker notifies all);
    // the leader and follower go back to their waits.
    wait_idle(&c.queue, 2, true);
    c.pause.wait_reached();
    c.rec.record_as("test", "leader held after taking first");
    let second = assert_on_time(&c.crew, &c.rec, "second");
    assert_eq!(second.by, c.follower);
    c.pause.release();
    assert!(c.rec.eventually("took first", ms(1000)).is_some());
    assert_eq!(c.crew.taken("first").unwrap().by, c.leader);
}
