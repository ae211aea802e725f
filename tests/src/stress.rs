//! Nothing lost under stress: many clients schedule tasks with random
//! delays, cancel some of them at random (and, where the version can,
//! move some to a new random deadline), and one of them shuts the version
//! down midway. Afterwards every task must be accounted for exactly once:
//! it ran, or it was cancelled and the version said so, or it was refused
//! with an error, or the version handed it back, or (stage 8's timer) its
//! `Sleep` ended with the shutdown's error.
//!
//! The ledger does not trust the versions' own counts. Each task carries
//! its number; running it marks the number. A task handed back is run by
//! the harness instead, with a flag up that marks the number as returned.
//! What is neither ran nor returned must have been cancelled (the call
//! said `true`, or the task's handle says so after the shutdown) or
//! refused; anything else is lost, and anything marked twice is a
//! duplicate.
//!
//! The randomness comes from one replay number, printed with the result, so a
//! failure can be replayed: `cargo xtask stress --replay R`.

mod versions;

use std::cell::Cell;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicU8;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::SeqCst;

use parking_lot::RwLock;
use std::thread;
use std::time::{Duration, Instant};

pub use versions::{ASYNC, Fixed, all};

/// A task as the stress hands it to a version.
pub type Task = Box<dyn FnOnce() + Send + 'static>;

/// What a version says of one task after it has stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Report {
    /// It ran.
    Ran,
    /// The shutdown (or a cancel) discarded it, and its handle says so.
    Cancelled,
    /// It never ran and was handed back, in a form the harness cannot run
    /// (the scheduled pool's `shutdown_now` hands back its own tasks):
    /// the number handed back is checked instead.
    HandedBack,
    /// The shutdown ended it with an error its owner saw (stage 8: the
    /// `Sleep` that was waiting gave `Err(Shutdown)` to its `await`).
    ShutDown,
    /// The handle says nothing (the wheels' handles, the pool's `()`).
    Nothing,
}

/// What the shutdown gave back, once every thread has been joined.
#[derive(Default)]
pub struct HandBack {
    /// Tasks the harness can run: it runs them with the "returned" flag up.
    pub runnable: Vec<Task>,
    /// How many tasks came back in a form the harness cannot run; their
    /// handles must say [`Report::HandedBack`], exactly this many.
    pub opaque: usize,
}

/// One version, as the stress drives it. Every method may be called from
/// any client thread, at once.
pub trait Stressed: Sync {
    /// What `schedule` gives back: the version's own handle.
    type Handle: Send;

    /// Schedules `task` to run `delay` from now; `None` if the version
    /// refused it with an error (the task, handed back in the error, is
    /// dropped unrun).
    fn schedule(&self, delay: Duration, task: Task) -> Option<Self::Handle>;
    /// Cancels the task: true if this call stopped it from ever running.
    fn cancel(&self, handle: &Self::Handle) -> bool;
    /// Shuts the version down, now: it takes no new task. Whatever it
    /// hands back is kept for [`Stressed::finish`].
    fn shutdown(&self);
    /// Waits for every thread the version started (dropping it), and
    /// returns what the shutdown handed back.
    fn finish(self) -> HandBack;
    /// What the handle says, after `finish`.
    fn report(handle: &Self::Handle) -> Report;

    /// Whether the version can move a waiting task to a new deadline
    /// ([`Stressed::reset`]); the clients then draw resets too.
    const RESETS: bool = false;

    /// Moves the task to run `delay` from now, if it is still waiting:
    /// true if it was (stage 8's `Sleep::reset`). Never called unless
    /// [`Stressed::RESETS`].
    fn reset(&self, _handle: &Self::Handle, _delay: Duration) -> bool {
        false
    }

    /// Whether a cancel can succeed on a task that is already running,
    /// which then runs to its end with its outcome thrown away: Java's
    /// `Future.cancel(false)`, and the scheduled pool's. Such a task ran
    /// once and was cancelled once, and that is one fate, not two.
    const CANCEL_WHILE_RUNNING: bool = false;
}

/// The size of a run, and its replay number.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    /// Client threads scheduling at once.
    pub clients: usize,
    /// Tasks in all, shared out among the clients.
    pub tasks: usize,
    /// Delays are uniform in `0..=max_delay`.
    pub max_delay: Duration,
    /// One task in this many is cancelled (a random one of the client's
    /// own, scheduled before).
    pub cancel_one_in: u32,
    /// Where the version can move a task ([`Stressed::RESETS`]), one task
    /// in this many is followed by a reset of a random one of the
    /// client's own to a new random delay.
    pub reset_one_in: u32,
    /// The replay number every client's randomness starts from.
    pub replay: u64,
}

impl Plan {
    /// The issue's size: 8 clients, 100 000 tasks, delays up to 20 ms, a
    /// quarter of them cancelled (and, where the version can, a quarter
    /// reset).
    pub fn full(replay: u64) -> Plan {
        Plan {
            clients: 8,
            tasks: 100_000,
            max_delay: Duration::from_millis(20),
            cancel_one_in: 4,
            reset_one_in: 4,
            replay,
        }
    }

    /// The same with `tasks` tasks.
    pub fn with_tasks(self, tasks: usize) -> Plan {
        Plan { tasks, ..self }
    }
}

/// Every task's fate, counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Tasks the clients offered.
    pub tasks: usize,
    /// Ran once, on the version's threads.
    pub ran: usize,
    /// Cancelled, and reported so (by the cancel call or the handle).
    pub cancelled: usize,
    /// Refused with an error.
    pub refused: usize,
    /// Handed back by the shutdown.
    pub handed_back: usize,
    /// Ended by the shutdown with an error its owner saw.
    pub shut_down: usize,
    /// Moved to a new deadline (once or more) and then given one of the
    /// fates above: not a fate, a count of what the clients did.
    pub reset: usize,
    /// Of those that ran: cancelled while running, where the version's
    /// cancel allows it (see [`Stressed::CANCEL_WHILE_RUNNING`]).
    pub cancelled_while_running: usize,
    /// Accounted for by nothing: lost.
    pub lost: usize,
    /// Accounted for more than once (ran twice, or ran and reported
    /// cancelled, ...).
    pub twice: usize,
    /// How long the run took, from the first schedule to the last join.
    pub took: Duration,
}

impl Tally {
    /// True if every task was accounted for exactly once.
    pub fn all_accounted(&self) -> bool {
        self.lost == 0
            && self.twice == 0
            && self.ran + self.cancelled + self.refused + self.handed_back + self.shut_down
                == self.tasks
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} tasks: {} ran ({} cancelled while running), {} cancelled, {} refused, {} handed back, {} shut down ({} reset); {} lost, {} twice ({} ms)",
            self.tasks,
            self.ran,
            self.cancelled_while_running,
            self.cancelled,
            self.refused,
            self.handed_back,
            self.shut_down,
            self.reset,
            self.lost,
            self.twice,
            self.took.as_millis()
        )
    }
}

thread_local! {
    /// Up while the harness runs the tasks a shutdown handed back.
    static RETURNING: Cell<bool> = const { Cell::new(false) };
}

/// Per task: how many times it ran on the version's threads, and how many
/// times it came back to the harness.
struct Ledger {
    ran: Vec<AtomicU8>,
    returned: Vec<AtomicU8>,
    /// Tasks run so far, for the shutdown to wait on a few.
    runs: AtomicUsize,
}

impl Ledger {
    fn new(tasks: usize) -> Ledger {
        Ledger {
            ran: (0..tasks).map(|_| AtomicU8::new(0)).collect(),
            returned: (0..tasks).map(|_| AtomicU8::new(0)).collect(),
            runs: AtomicUsize::new(0),
        }
    }

    fn mark(&self, id: usize) {
        if RETURNING.get() {
            self.returned[id].fetch_add(1, SeqCst);
        } else {
            self.ran[id].fetch_add(1, SeqCst);
            self.runs.fetch_add(1, SeqCst);
        }
    }
}

/// What one client saw of one task.
struct Seen<H> {
    id: usize,
    handle: Option<H>,
    cancelled: bool,
    reset: bool,
}

/// A small generator per client: `fastrand`'s, started from the replay
/// number, so it replays the same delays and cancels.
fn client_rng(replay: u64, client: usize) -> fastrand::Rng {
    fastrand::Rng::with_seed(replay ^ (client as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Runs the plan against `version` and counts every task's fate.
pub fn run<V: Stressed>(version: V, plan: Plan) -> Tally {
    // Shared with every task: a handle may keep its closure after the run.
    let ledger = Arc::new(Ledger::new(plan.tasks));
    let offered = AtomicUsize::new(0);
    // Cancels hold it shared, the shutdown alone: no cancel overlaps the
    // shutdown or follows it, so a task handed back is never also
    // cancelled. Schedules do race the shutdown: that is the point.
    let shut = RwLock::new(false);
    let start = Instant::now();
    let max_delay = u64::try_from(plan.max_delay.as_micros()).unwrap_or(u64::MAX);
    let seen: Vec<Seen<V::Handle>> = thread::scope(|s| {
        let clients: Vec<_> = (0..plan.clients)
            .map(|c| {
                let (ledger, offered, shut, version) = (&ledger, &offered, &shut, &version);
                s.spawn(move || {
                    let mut rng = client_rng(plan.replay, c);
                    let mut mine: Vec<Seen<V::Handle>> = Vec::new();
                    for id in (c..plan.tasks).step_by(plan.clients) {
                        let delay = Duration::from_micros(rng.u64(0..=max_delay));
                        let marks = Arc::clone(ledger);
                        let task: Task = Box::new(move || marks.mark(id));
                        let handle = version.schedule(delay, task);
                        mine.push(Seen {
                            id,
                            handle,
                            cancelled: false,
                            reset: false,
                        });
                        if rng.u32(0..plan.cancel_one_in) == 0 {
                            let victim = rng.usize(0..mine.len());
                            let open = shut.read();
                            if let Some(h) = &mine[victim].handle
                                && !mine[victim].cancelled
                                && !*open
                            {
                                mine[victim].cancelled = version.cancel(h);
                            }
                        }
                        // A reset may come after the shutdown too: it must
                        // then end the task with the shutdown's error.
                        if V::RESETS && rng.u32(0..plan.reset_one_in) == 0 {
                            let victim = rng.usize(0..mine.len());
                            let delay = Duration::from_micros(rng.u64(0..=max_delay));
                            if let Some(h) = &mine[victim].handle
                                && version.reset(h, delay)
                            {
                                mine[victim].reset = true;
                            }
                        }
                        // Midway: the client that offers the middle task
                        // shuts the version down, once a few tasks have run
                        // (or 1 s has passed), so every fate occurs.
                        if offered.fetch_add(1, SeqCst) == plan.tasks / 2 {
                            let until = Instant::now() + Duration::from_secs(1);
                            while ledger.runs.load(SeqCst) < plan.tasks / 100
                                && Instant::now() < until
                            {
                                thread::yield_now();
                            }
                            let mut closed = shut.write();
                            version.shutdown();
                            *closed = true;
                        }
                    }
                    mine
                })
            })
            .collect();
        clients
            .into_iter()
            .flat_map(|c| c.join().expect("a client panicked"))
            .collect()
    });
    if !*shut.read() {
        version.shutdown();
    }
    let back = version.finish();
    RETURNING.set(true);
    for task in back.runnable {
        task();
    }
    RETURNING.set(false);
    let mut tally = Tally {
        tasks: plan.tasks,
        took: start.elapsed(),
        ..Tally::default()
    };
    let mut opaque = 0;
    for seen in &seen {
        let ran = usize::from(ledger.ran[seen.id].load(SeqCst));
        let returned = usize::from(ledger.returned[seen.id].load(SeqCst));
        let report = seen.handle.as_ref().map(V::report);
        let refused = seen.handle.is_none();
        tally.reset += usize::from(seen.reset);
        // Each way a task can be accounted for, counted: exactly one must
        // hold.
        let marks = ran
            + returned
            + usize::from(seen.cancelled || report == Some(Report::Cancelled))
            + usize::from(refused)
            + usize::from(report == Some(Report::HandedBack))
            + usize::from(report == Some(Report::ShutDown));
        if V::CANCEL_WHILE_RUNNING
            && ran == 1
            && returned == 0
            && !refused
            && (seen.cancelled || report == Some(Report::Cancelled))
        {
            // It had started when its cancel came: it ran, once.
            tally.ran += 1;
            tally.cancelled_while_running += 1;
            continue;
        }
        if report == Some(Report::Ran) && ran == 0 {
            // Says it ran, but its task never did: lost.
            tally.lost += 1;
            continue;
        }
        match marks {
            0 => tally.lost += 1,
            1 if ran == 1 => tally.ran += 1,
            1 if returned == 1 => tally.handed_back += 1,
            1 if refused => tally.refused += 1,
            1 if report == Some(Report::HandedBack) => {
                tally.handed_back += 1;
                opaque += 1;
            }
            1 if report == Some(Report::ShutDown) => tally.shut_down += 1,
            1 => tally.cancelled += 1,
            _ => tally.twice += 1,
        }
    }
    if opaque != back.opaque {
        // Handed back in a count that does not match the handles: the
        // difference was lost (or invented).
        tally.lost += opaque.abs_diff(back.opaque);
    }
    tally.took = start.elapsed();
    tally
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_number_replays_the_same_choices() {
        let a: Vec<u64> = (0..5).map(|_| client_rng(7, 3).u64(..)).collect();
        let b: Vec<u64> = (0..5).map(|_| client_rng(7, 3).u64(..)).collect();
        assert_eq!(a, b);
        assert_ne!(client_rng(7, 3).u64(..), client_rng(7, 4).u64(..));
    }

    /// Keeps every task, runs the even ones at once, and drops the rest
    /// at the shutdown without a word.
    struct DropsOnShutdown(parking_lot::Mutex<Vec<Task>>, AtomicUsize);

    impl Stressed for DropsOnShutdown {
        type Handle = ();
        fn schedule(&self, _delay: Duration, task: Task) -> Option<()> {
            if self.1.fetch_add(1, SeqCst).is_multiple_of(2) {
                task();
            } else {
                self.0.lock().push(task);
            }
            Some(())
        }
        fn cancel(&self, _handle: &()) -> bool {
            false
        }
        fn shutdown(&self) {
            self.0.lock().clear();
        }
        fn finish(self) -> HandBack {
            HandBack::default()
        }
        fn report(_handle: &()) -> Report {
            Report::Nothing
        }
    }

    /// Runs every task at once, and then says each was cancelled.
    struct RunsAndSaysCancelled;

    impl Stressed for RunsAndSaysCancelled {
        type Handle = ();
        fn schedule(&self, _delay: Duration, task: Task) -> Option<()> {
            task();
            Some(())
        }
        fn cancel(&self, _handle: &()) -> bool {
            false
        }
        fn shutdown(&self) {}
        fn finish(self) -> HandBack {
            HandBack::default()
        }
        fn report(_handle: &()) -> Report {
            Report::Cancelled
        }
    }

    fn small() -> Plan {
        Plan::full(11).with_tasks(1000)
    }

    #[test]
    fn a_task_dropped_without_a_word_is_lost() {
        let version = DropsOnShutdown(parking_lot::Mutex::new(Vec::new()), AtomicUsize::new(0));
        let tally = run(version, small());
        assert!(!tally.all_accounted(), "{tally}");
        assert_eq!(
            (tally.ran, tally.lost, tally.twice),
            (500, 500, 0),
            "{tally}"
        );
    }

    #[test]
    fn a_task_that_ran_and_is_reported_cancelled_counts_twice() {
        let tally = run(RunsAndSaysCancelled, small());
        assert!(!tally.all_accounted(), "{tally}");
        assert_eq!((tally.ran, tally.twice), (0, 1000), "{tally}");
    }

    #[test]
    fn stage_8s_sleeps_are_each_accounted_for_once() {
        let version = versions::SleepsUnderStress::start(None);
        let tally = run(version, Plan::full(13).with_tasks(2000));
        assert!(tally.all_accounted(), "{tally}");
        assert!(tally.reset > 0, "{tally}");
    }

    #[test]
    fn a_sleep_whose_wake_is_lost_reads_lost() {
        // One `Sleep` in ten polled once with a waker that wakes nobody.
        let version = versions::SleepsUnderStress::start(Some(10));
        let tally = run(version, Plan::full(13).with_tasks(2000));
        assert!(!tally.all_accounted(), "{tally}");
        assert!(tally.lost > 0 && tally.twice == 0, "{tally}");
    }

    #[test]
    fn a_drained_shutdown_runs_every_task_it_took() {
        for fixed in versions::all_drained() {
            let tally = (fixed.run)(Plan::full(17).with_tasks(4000));
            assert!(tally.all_accounted(), "{}: {tally}", fixed.name);
            assert_eq!(tally.handed_back, 0, "{}: {tally}", fixed.name);
            // Whether any task came after the shutdown (and was refused)
            // depends on how the clients were scheduled: on a loaded
            // machine they may all have offered theirs before it, so that
            // is not asked.
            assert!(tally.ran > 0, "{}: {tally}", fixed.name);
        }
    }

    #[test]
    fn a_full_plan_is_the_issues_size() {
        let plan = Plan::full(1);
        assert_eq!((plan.clients, plan.tasks), (8, 100_000));
    }
}
