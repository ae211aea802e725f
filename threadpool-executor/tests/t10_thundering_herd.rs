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
//!   per deadline: the target of at most [`SUCCESSOR_BOUND`] with 4 takers,
//!   counted on every deadline that met a successor in place (a loaded
//!   machine decides how many do, not what each one costs).
//!
//! The correctness check: with 8 takers, at most [`WAKEUPS_BOUND`]
//! wake-ups per fired deadline. Both kinds take every item, never early
//! (the table shows how late the latest was): the herd costs wake-ups,
//! not lateness.
//!
//! The table is a burst, as a pool meets one, and on a loaded machine its
//! counts drift: a taker not back in its wait by the next deadline does
//! not wake for it (the herd's 8 takers then cost 3.25 per deadline, not
//! 8), or leaves the successor slot empty. So the verdicts are counted
//! deadline by deadline ([`counted_steps`]): each deadline that met every
//! taker parked in its place, the head and the next item queued, costs
//! what the algorithm says, and only those are judged. The machine
//! decides how many deadlines are judged, never what one costs; a run
//! with too few fails.
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
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::{Arc, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use interrupt_cancel::interrupt::{InterruptHandle, InterruptToken};
use kit::pause::Pause;
use kit::scale::in_ms;
use kit::{Recorder, ms};
use parking_lot::Mutex;
use threadpool_executor::deadline::Deadline;
use threadpool_executor::delayed_queue::{Delayed, DelayedQueue, Plain, Wait};
use threadpool_executor::queue::WorkQueue;

/// Where a taker stops once it took an item and handed leadership on.
const TOOK: &str = "threadpool-executor::delayed_queue: took an item, leadership handed on";

/// Deadlines fired in one measurement, and how far apart.
const DEADLINES: u64 = 24;
const GAP_MS: u64 = 5;
/// The widest gap [`counted_steps`] opens between deadlines on a loaded
/// machine.
const MAX_GAP_MS: u64 = 80;
/// The first deadline, after the last offer.
const FIRST_MS: u64 = 5;
/// The taker counts measured.
const TAKERS: [usize; 4] = [1, 2, 4, 8];
/// The correctness check: wake-ups per fired deadline, at most. The
/// leader's timed wake-up plus the follower it hands on to is 2; the rest
/// is room for a rare spurious or early wake-up.
const WAKEUPS_BOUND: f64 = 2.5;
/// Leader-successor's target (issue 10, item 7): wake-ups per fired
/// deadline with 4 takers, at most, counted over the deadlines that met a
/// successor in place ([`counted_steps`]). Each of those costs one, the
/// leader's own; the rest is room for a rare early wake-up. (Over a whole
/// burst on a machine at rest the count is 26 for 24 deadlines, 1.08, at
/// every taker count from 2: one per deadline, the offer's wake-up of a
/// first leader, and one hand-on at the first deadline.)
const SUCCESSOR_BOUND: f64 = 1.1;
/// Deadlines that met every taker in its place ([`counted_steps`]),
/// counted before a verdict...
const COUNTED_STEPS: usize = 16;
/// ...out of at most this many deadlines. Loaded with two busy loops on 2
/// cores, most deadlines still meet every taker in place (back within the
/// 5 ms), and each one missed widens the gap; a machine that lets too few
/// of 400 do has stalled the takers outright, and the test fails saying so
/// rather than pass unjudged.
const COUNTED_MAX_STEPS: usize = 400;
/// How late an item may be taken in a passing run (generous: a loaded
/// machine). The bugs these tests would catch leave it seconds late, or
/// never taken.
const LATE_MS: u64 = 300;

// ---------------------------------------------------------------------
// A test item and a crew of takers.

/// A test item: its label, the value it carries.
type Item = Plain<String>;

fn item(label: impl Into<String>, deadline: Deadline) -> Arc<Item> {
    static SEQUENCE: AtomicU64 = AtomicU64::new(0);
    Arc::new(Item::new(
        deadline,
        SEQUENCE.fetch_add(1, SeqCst),
        label.into(),
    ))
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
                        label: item.value.clone(),
                        by: support::me(),
                        early: now < item.deadline(),
                        late: now.saturating_duration_since(item.deadline()),
                    });
                    rec.record(format!("took {}", item.value));
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

/// Whether `n` takers wait (and, if `leader`, one of them leads).
fn idle(queue: &DelayedQueue<Item>, n: usize, leader: bool) -> bool {
    queue.waiting() == n && (!leader || queue.has_leader())
}

/// Waits until `n` takers wait (and, if `leader`, one of them leads): 10 s
/// at most, a bound for "eventually" no loaded machine reaches.
fn wait_idle(queue: &DelayedQueue<Item>, n: usize, leader: bool) {
    let idle = support::eventually(ms(10_000), || idle(queue, n, leader));
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
    /// core during the run (`None` where the kernel does not say): how
    /// loaded the machine was, for the table.
    waited: Option<Duration>,
}

impl Run {
    fn per_deadline(&self) -> f64 {
        self.wakeups as f64 / DEADLINES as f64
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
        rec.wait_until_count("took", DEADLINES as usize, last + ms(10_000))
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
        // All twelve side by side, each on a queue and a crew of its own:
        // mostly they sleep, and the few wake-ups at each deadline are
        // done long before the next. A verdict read here only bounds a
        // count from above, and a loaded machine only lowers these counts
        // (see `t10_thundering_herd_fixed`); the verdicts that a load
        // could bend are counted deadline by deadline ([`counted_steps`]).
        let (herd, leader_follower, successor) = thread::scope(|s| {
            let row = |wait| TAKERS.map(|n| s.spawn(move || measure(wait, n)));
            let rows = [
                row(Wait::Herd),
                row(Wait::LeaderFollower),
                row(Wait::LeaderSuccessor),
            ];
            let [herd, leader_follower, successor] = rows.map(|row| {
                row.into_iter()
                    .map(|run| run.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                    .collect::<Vec<Run>>()
            });
            (herd, leader_follower, successor)
        });
        let table = Table {
            herd,
            leader_follower,
            successor,
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

/// The three ways of waiting, counted deadline by deadline
/// ([`counted_steps`]): the herd with 1 and 8 takers, leader-follower with
/// 8. Measured once for the whole binary.
struct Counted {
    herd_1: Steps,
    herd_8: Steps,
    leader_follower_8: Steps,
}

fn counted() -> &'static Counted {
    static COUNTED: OnceLock<Counted> = OnceLock::new();
    COUNTED.get_or_init(|| Counted {
        herd_1: counted_steps(Wait::Herd, 1),
        herd_8: counted_steps(Wait::Herd, 8),
        leader_follower_8: counted_steps(Wait::LeaderFollower, 8),
    })
}

/// The correctness check: with 8 takers, few wake-ups per deadline,
/// counted on the deadlines that met every taker parked.
fn assert_few_wakeups(wait: Wait) {
    let steps = match wait {
        Wait::Herd => &counted().herd_8,
        Wait::LeaderFollower => &counted().leader_follower_8,
        Wait::LeaderSuccessor => unreachable!("leader-successor has its own target"),
    };
    let per = steps.per_deadline();
    assert!(
        per <= WAKEUPS_BOUND,
        "T10 thundering_herd: {per:.1} wake-ups per fired deadline with 8 takers ({wait:?}), \
         expected at most {WAKEUPS_BOUND}\n{steps}\n{}",
        table().render()
    );
}

#[test]
fn t10_thundering_herd_reproduces() {
    let counted = counted();
    let (one, eight) = (counted.herd_1.per_deadline(), counted.herd_8.per_deadline());
    // Every taker parked, timed on the head, wakes when it is due: 8 per
    // deadline with 8 takers, 1 with one, counted on the deadlines that met
    // every taker parked, however loaded the machine. (A wake-up that is
    // due but not yet back when the test looks is counted with the next
    // deadline: half the takers leaves room for it.)
    assert!(
        eight >= 4.0,
        "the herd woke {eight:.2} times per deadline with 8 takers, expected at least 4: {}",
        counted.herd_8
    );
    assert!(
        eight > one + 2.5,
        "the herd's wake-ups grow with the takers: {one:.2} with 1 ({}), {eight:.2} with 8",
        counted.herd_1
    );
}

#[test]
fn t10_thundering_herd_fixed() {
    assert_few_wakeups(Wait::LeaderFollower);
    let table = table();
    // The bound is the same for 1 taker as for 8 in the burst too: a
    // single taker pays about 1 per deadline (its own timed wait), two or
    // more about 2 (the hand-on adds one), and more takers add nothing. A
    // loaded machine only lowers these counts: a taker that comes back
    // late finds its next item already due and does not wait at all.
    for takers in TAKERS {
        let per = table.row(Wait::LeaderFollower, takers).per_deadline();
        assert!(per <= WAKEUPS_BOUND, "{takers} takers\n{}", table.render());
    }
    let (eight, herd) = (
        counted().leader_follower_8.per_deadline(),
        counted().herd_8.per_deadline(),
    );
    assert!(
        2.0 * eight < herd,
        "far fewer than the herd: {eight:.2} against {herd:.2} ({})",
        counted().herd_8
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
/// That holds for a deadline that meets a successor in place: the taker
/// that took the item before came back, while the next one was still
/// queued, and now times the one after. On a loaded machine a taker may
/// not be back in time; that deadline finds no successor and costs the
/// JDK's two (the leader's, and the follower it hands on to). How many
/// deadlines meet a successor is the machine's business; what each one
/// costs is the algorithm's. So the test counts, it does not time:
///
/// - the burst of the table, every taker count, loaded or not: never worse
///   than leader-follower's own bound, [`WAKEUPS_BOUND`] (a deadline costs
///   at most the JDK's two);
/// - [`counted_steps`], with 4 takers: deadline by deadline, the cost of
///   each that met a successor in place, as the queue itself shows it with
///   every taker parked (a leader, a successor, the head and the second
///   queued) before the deadline and again after it. Over
///   [`COUNTED_STEPS`] such deadlines: at most [`SUCCESSOR_BOUND`] each.
///
/// (An earlier version judged whole bursts the machine ran at rest, by the
/// takers' time waiting for a core, the best of three, and on a machine
/// loaded for all three it judged nothing and still went green. Every run
/// is judged now.) That
/// the successor leads for the next deadline without a wake-up is also
/// proven, held at the pause point, by `t10_successor_leads_without_a_wakeup`.
#[test]
fn t10_leader_successor_wakes_once_per_deadline() {
    let table = table();
    for takers in TAKERS {
        let per = table.row(Wait::LeaderSuccessor, takers).per_deadline();
        assert!(
            per <= WAKEUPS_BOUND,
            "T10 leader-successor: {per:.2} wake-ups per fired deadline with {takers} takers, \
             expected at most {WAKEUPS_BOUND}, leader-follower's bound, even loaded\n{}",
            table.render()
        );
    }
    let steps = counted_steps(Wait::LeaderSuccessor, 4);
    let per = steps.per_deadline();
    assert!(
        per <= SUCCESSOR_BOUND,
        "T10 leader-successor: {per:.2} wake-ups per fired deadline that met a successor in \
         place, with 4 takers, expected at most {SUCCESSOR_BOUND}: {steps}"
    );
    println!("T10 leader-successor, 4 takers: {per:.2} wake-ups per deadline; {steps}");
}

/// What the queue looked like at one moment when every taker was parked.
#[derive(Debug, Clone, Copy)]
struct Settled {
    /// Items taken so far.
    taken: usize,
    wakeups: u64,
    queued: usize,
    leader: bool,
    successor: bool,
}

impl Settled {
    /// The steady state of each way of waiting, between two deadlines: the
    /// head and the second queued and nothing else (the next item is
    /// offered after this look: it is third, and wakes nobody); for
    /// leader-follower a leader times the head; for leader-successor, a
    /// successor the second too.
    fn steady(&self, wait: Wait) -> bool {
        self.queued == 2
            && match wait {
                Wait::Herd => true,
                Wait::LeaderFollower => self.leader,
                Wait::LeaderSuccessor => self.leader && self.successor,
            }
    }
}

/// Waits until all `takers` are parked, and reads the queue then: one
/// consistent look, retried if a taker came back from a wait meanwhile
/// (every change a parked taker can make to the queue starts with a
/// wake-up, which the look counts before and after).
fn settled(queue: &DelayedQueue<Item>, rec: &Recorder, takers: usize) -> Settled {
    loop {
        wait_idle(queue, takers, false);
        let (wakeups, taken) = (queue.wakeups(), rec.count("took"));
        let look = Settled {
            taken,
            wakeups,
            queued: queue.len(),
            leader: queue.has_leader(),
            successor: queue.has_successor(),
        };
        if queue.waiting() == takers && queue.wakeups() == wakeups && rec.count("took") == taken {
            return look;
        }
    }
}

/// Deadlines counted one at a time ([`counted_steps`]).
struct Steps {
    /// The wake-ups of each deadline that met the steady state (every
    /// taker parked; for leader-successor, a successor in place) and left
    /// it.
    met: Vec<u64>,
    /// Deadlines seen in all (the first, before any look, left out).
    tried: usize,
    /// Of those, the deadlines with the steady state before them (whether
    /// or not the takers were back in time after).
    had_steady: usize,
}

impl Steps {
    fn per_deadline(&self) -> f64 {
        self.met.iter().sum::<u64>() as f64 / self.met.len() as f64
    }
}

impl std::fmt::Display for Steps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} of {} deadlines met every taker in its place, their wake-ups {:?}",
            self.met.len(),
            self.tried,
            self.met
        )
    }
}

/// `takers` threads take items due [`GAP_MS`] apart, three queued at a
/// time; after each take the test waits until every taker is parked and
/// looks at the queue ([`settled`]), then tops it up to three. A deadline
/// whose look before and after both show the steady state
/// ([`Settled::steady`]), with exactly one take between, met every taker
/// in its place and was not mixed with the next: its wake-ups are the
/// difference of the two looks' counts. The others are counted as tried,
/// and not judged. A loaded machine decides how many deadlines are
/// judged, not what one costs: the herd's every parked taker times the
/// head and wakes for it; leader-follower's leader wakes and hands on to
/// one follower; leader-successor's leader wakes and its successor leads.
fn counted_steps(wait: Wait, takers: usize) -> Steps {
    let queue = DelayedQueue::with_wait(wait);
    let rec = Recorder::new();
    let mut crew = Takers::new();
    for _ in 0..takers {
        crew.spawn(&queue, &rec);
    }
    wait_idle(&queue, takers, false);
    let mut last_due = Deadline::now();
    let mut offered = 0;
    // The gap between deadlines: GAP_MS, doubled (up to MAX_GAP_MS) after
    // every deadline a taker was not back for, so that a loaded machine
    // has the time to put every taker in its place. The gap decides how
    // many deadlines are judged, not what one costs.
    let gap = std::cell::Cell::new(ms(GAP_MS));
    let mut top_up = |queued: usize| {
        for _ in queued..3 {
            // Always the latest: never a new head or a new second.
            last_due = last_due.max(Deadline::now()).after(gap.get());
            queue.offer(item(offered.to_string(), last_due)).unwrap();
            offered += 1;
        }
    };
    top_up(0);
    let mut steps = Steps {
        met: Vec::new(),
        tried: 0,
        had_steady: 0,
    };
    let mut before: Option<Settled> = None;
    while steps.met.len() < COUNTED_STEPS && steps.tried < COUNTED_MAX_STEPS {
        // One more take than the last look saw: the queue held an item
        // then, or was topped up after it.
        let taken = before.map_or(0, |b| b.taken);
        assert!(
            rec.wait_until_count("took", taken + 1, ms(10_000))
                .is_some(),
            "leader-successor: nothing taken in 10 s with {} queued\n{}",
            queue.len(),
            rec.log()
        );
        let now = settled(&queue, &rec, takers);
        if let Some(before) = before {
            steps.tried += 1;
            steps.had_steady += usize::from(before.steady(wait));
            if before.steady(wait) && now.steady(wait) && now.taken == before.taken + 1 {
                steps.met.push(now.wakeups - before.wakeups);
            } else {
                gap.set((gap.get() * 2).min(ms(MAX_GAP_MS)));
            }
        }
        top_up(now.queued);
        before = Some(now);
    }
    let taken = crew.all_taken();
    assert!(taken.iter().all(|t| !t.early), "taken early: {taken:?}");
    assert!(
        steps.had_steady > 0,
        "T10 {wait:?}: no deadline of {} found every one of {takers} takers in its place, with \
         the head and the second queued",
        steps.tried
    );
    assert!(
        steps.met.len() >= COUNTED_STEPS,
        "T10 {wait:?}: only {} of {} deadlines met every one of {takers} takers in its place and \
         left it so ({} had it before): the takers were kept off the cores for nearly all of \
         them, even {MAX_GAP_MS} ms apart, so this run could not be judged, and fails",
        steps.met.len(),
        steps.tried,
        steps.had_steady
    );
    steps
}

// ---------------------------------------------------------------------
// The hand-offs, forced.

/// Checks that `label` was taken, not before its deadline, and at most
/// `LATE_MS` after.
fn assert_on_time(crew: &Takers, rec: &Recorder, label: &str) -> Taken {
    let taken = rec
        .eventually(&format!("took {label}"), ms(10_000))
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
///
/// The three must all wait before `first` is due; a machine that kept them
/// from it gets the scenario set up again ([`forced`]).
#[test]
fn t10_leader_hands_on_after_taking() {
    forced(
        "the leader and two followers waiting",
        leader_hands_on_after_taking,
    );
}

fn leader_hands_on_after_taking() -> Option<()> {
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
    let leads = support::eventually(ms(10_000), || idle(&queue, 1, true) || pause.is_holding())
        && idle(&queue, 1, true);
    if !leads {
        return None;
    }
    crew.spawn(&queue, &rec);
    crew.spawn(&queue, &rec);
    // All three wait, or the leader took `first` already (it is held).
    let all_waiting =
        support::eventually(ms(10_000), || idle(&queue, 3, true) || pause.is_holding())
            && idle(&queue, 3, true);
    if !all_waiting {
        return None;
    }
    pause.wait_reached();
    rec.record_as("test", "leader held after taking an item");
    let second = assert_on_time(&crew, &rec, "second");
    assert_ne!(second.by, leader, "a follower took it");
    pause.release();
    // The held leader had taken the first (it records once released).
    assert!(rec.eventually("took first", ms(10_000)).is_some());
    assert_eq!(crew.taken("first").unwrap().by, leader);
    Some(())
}

/// Runs `scenario` until it happened as written (it returns `Some`), at
/// most [`CREW_TRIES`] times: a scenario the machine kept from happening
/// (a thread not in its place before a deadline came) is set up again,
/// never judged, and never passed.
fn forced<T>(what: &str, mut scenario: impl FnMut() -> Option<T>) -> T {
    for _ in 0..CREW_TRIES {
        if let Some(done) = scenario() {
            return done;
        }
    }
    panic!(
        "{what}: the machine kept the scenario from happening as written, {CREW_TRIES} times \
         (a machine too slow: KIT_TIME_SCALE)"
    );
}

/// The leader is interrupted (`shutdown_now` interrupts every worker)
/// while a follower waits untimed: the head must still be taken on time.
///
/// The leader must hear the interrupt before the head is due: a leader
/// that wakes to a due head takes it, interrupted or not, and only its
/// next `take` reports the interrupt. A machine that keeps the leader off
/// its core until the head is due has made that happen instead, and the
/// scenario is set up again (at most [`CREW_TRIES`] times); a leader that
/// never hears its interrupt in time would fail every try.
#[test]
fn t10_interrupted_leader_hands_on() {
    for wait in [Wait::LeaderFollower, Wait::LeaderSuccessor] {
        let handed_on = (0..CREW_TRIES).any(|_| interrupted_leader_hands_on(wait));
        assert!(
            handed_on,
            "{wait:?}: the interrupted leader took the head itself, {CREW_TRIES} times"
        );
    }
}

/// One run; false if the leader took the head before it heard the
/// interrupt (it woke to a due head).
fn interrupted_leader_hands_on(wait: Wait) -> bool {
    let queue = DelayedQueue::with_wait(wait);
    let rec = Recorder::new();
    let mut crew = Takers::new();
    queue
        .offer(item("head", Deadline::now().after(ms(80))))
        .unwrap();
    // Each waits, the leader timing the head; or the head came due first,
    // and was taken, so nobody leads: not the scenario.
    let leads = |n: usize| {
        support::eventually(ms(10_000), || {
            idle(&queue, n, true) || rec.count("took") > 0
        }) && idle(&queue, n, true)
    };
    let leader = crew.spawn(&queue, &rec);
    if !leads(1) {
        return false;
    }
    let follower = crew.spawn(&queue, &rec);
    if !leads(2) {
        return false;
    }
    crew.interrupt(&leader);
    assert!(rec.eventually("interrupted", ms(10_000)).is_some());
    let taken = assert_on_time(&crew, &rec, "head");
    if taken.by == leader {
        return false;
    }
    assert_eq!(taken.by, follower);
    true
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
        support::eventually(ms(10_000), || queue.has_successor()),
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

impl Crew {
    /// Waits until the leader is held, having taken `first`. False if
    /// another taker took `first`: the leader was kept off its core until
    /// the next deadline came, and the taker woken for it found `first`
    /// due. The scenario did not happen.
    fn leader_held(&self) -> bool {
        let someone = support::eventually(ms(10_000), || {
            self.pause.is_holding() || self.crew.taken("first").is_some()
        });
        assert!(someone, "nobody took first in 10 s\n{}", self.rec.log());
        self.crew
            .taken("first")
            .is_none_or(|taken| taken.by == self.leader)
            && self.pause.is_holding()
    }
}

fn leader_successor_crew(first_ms: u64, second_ms: u64) -> Crew {
    // Every role is taken before `first` is due, or the scenario never
    // happened: a machine that kept the crew from starting in time gets
    // the scenario set up again (on a fresh queue and crew), not a verdict
    // on a scenario that did not happen, nor a pass.
    for _ in 0..CREW_TRIES {
        if let Some(crew) = try_leader_successor_crew(first_ms, second_ms) {
            return crew;
        }
    }
    panic!(
        "the crew took longer than {first_ms} ms to start, {CREW_TRIES} times (a machine too \
         slow: KIT_TIME_SCALE)"
    );
}

/// Setups of the leader-successor crew tried, at most.
const CREW_TRIES: usize = 5;

/// One setup of [`leader_successor_crew`]; `None` if `first` was due
/// before every taker was in its role.
fn try_leader_successor_crew(first_ms: u64, second_ms: u64) -> Option<Crew> {
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
    // leads, the second succeeds, the third follows. (Not in time, if the
    // leader took `first` meanwhile: it is held, and they never all wait.)
    let in_place = |n: usize| {
        support::eventually(ms(10_000), || {
            idle(&queue, n, true) && (n < 2 || queue.has_successor())
        })
    };
    crew.spawn_named(&queue, &rec, leader.clone());
    if !in_place(1) {
        return None;
    }
    let successor = crew.spawn(&queue, &rec);
    if !in_place(2) {
        return None;
    }
    let follower = crew.spawn(&queue, &rec);
    if !in_place(3) {
        return None;
    }
    let crew = Crew {
        pause,
        queue,
        crew,
        rec,
        leader,
        successor,
        follower,
    };
    // Dropped if late: the pause first, then the takers, joined.
    (Deadline::now() < now.after(ms(first_ms))).then_some(crew)
}

/// The leader takes the head while a successor waits for the second and a
/// follower waits untimed; the leader is held once it took. The successor,
/// already timed for what is now the head, leads without being woken and
/// takes it: two wake-ups in all (the leader's and the successor's, each
/// at its own deadline), and the follower never wakes.
#[test]
fn t10_successor_leads_without_a_wakeup() {
    forced("the leader taking first", successor_leads_without_a_wakeup);
}

fn successor_leads_without_a_wakeup() -> Option<()> {
    let c = leader_successor_crew(FIRST, SECOND);
    let before = c.queue.wakeups();
    if !c.leader_held() {
        return None;
    }
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
    assert!(c.rec.eventually("took first", ms(10_000)).is_some());
    assert_eq!(c.crew.taken("first").unwrap().by, c.leader);
    Some(())
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
    assert!(rec.eventually("took first", ms(10_000)).is_some());
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
    forced("the leader taking first", new_second_is_taken_on_time);
}

fn new_second_is_taken_on_time() -> Option<()> {
    let c = leader_successor_crew(FIRST, 5000);
    c.rec.record_as("test", "offer near");
    c.queue
        .offer(item("near", Deadline::now().after(ms(SECOND))))
        .unwrap();
    if !c.leader_held() {
        return None;
    }
    c.rec.record_as("test", "leader held after taking first");
    let near = assert_on_time(&c.crew, &c.rec, "near");
    assert_ne!(near.by, c.leader);
    assert!(c.crew.taken("second").is_none(), "second is not due");
    assert_eq!(c.queue.len(), 1);
    c.pause.release();
    Some(())
}

/// The successor is interrupted while the leader times `first` and a
/// follower waits; it gives up its role as it leaves. The leader takes
/// `first` and is held, so only the follower can take `second`, on time.
/// The interrupt wakes every taker: if the follower looks again after the
/// successor has left, it succeeds and is promoted; if before, it follows
/// again, nobody succeeds, and the leader hands on as it takes `first`.
#[test]
fn t10_interrupted_successor_hands_on() {
    forced("the leader taking first", interrupted_successor_hands_on);
}

fn interrupted_successor_hands_on() -> Option<()> {
    let c = leader_successor_crew(FIRST, SECOND);
    c.crew.interrupt(&c.successor);
    assert!(c.rec.eventually("interrupted", ms(10_000)).is_some());
    // The successor heard its interrupt before it took anything; one kept
    // off its core until `first` was due took an item instead (and the
    // test's interrupt came too late to matter): not the scenario.
    if c.crew.all_taken().iter().any(|t| t.by == c.successor) {
        return None;
    }
    // Interrupting wakes every taker (an interrupt's waker notifies all);
    // the leader and follower go back to their waits (or the leader has
    // taken `first` by then, and is held).
    let back = support::eventually(ms(10_000), || {
        idle(&c.queue, 2, true) || c.pause.is_holding()
    });
    assert!(back, "the leader and the follower did not wait again");
    if !c.leader_held() {
        return None;
    }
    c.rec.record_as("test", "leader held after taking first");
    let second = assert_on_time(&c.crew, &c.rec, "second");
    assert_eq!(second.by, c.follower);
    c.pause.release();
    assert!(c.rec.eventually("took first", ms(10_000)).is_some());
    assert_eq!(c.crew.taken("first").unwrap().by, c.leader);
    Some(())
}
