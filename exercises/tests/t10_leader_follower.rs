//! The check of exercise T10: the stage's check of the delayed queue's
//! takers, run against `exercises::t10_leader_follower`.
//!
//! 1. Wake-ups: 8 takers loop on `take` while 24 items fall due 5 ms
//!    apart. At most 2.5 wake-ups per fired deadline (the leader's timed
//!    wake-up, the follower it hands on to, and room for a spurious one),
//!    and every item taken on time. The herd pays about 8.
//! 2. The leader leaves: a taker is held right after it took an item, while
//!    two others wait. One of them must take the next item on time.
//! 3. A new, earlier head while a leader waits for a far one: taken on
//!    time.
//!
//! 2 and 3 are where leadership gets lost: a deadline with nobody waiting
//! timed for it. `cargo xtask exercise check t10` runs them against your
//! file.

use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use exercises::t10_leader_follower::{DelayedQueue, TOOK};
use kit::pause::Pause;
use kit::scale::in_ms;
use kit::{Recorder, ms, threads};

/// Takers in the wake-up count: the stage's check uses 8, so that even a
/// herd slowed down by a loaded machine stays far above the bound.
const TAKERS: usize = 8;
/// Deadlines fired in the wake-up count, how far apart, and the first one
/// after the last offer.
const DEADLINES: u64 = 24;
const GAP_MS: u64 = 5;
const FIRST_MS: u64 = 5;
/// Wake-ups per fired deadline, at most: the stage's bound.
const WAKEUPS_BOUND: f64 = 2.5;
/// How late an item may be taken (generous: a loaded machine). Lost
/// leadership leaves an item seconds late, or never taken.
const LATE_MS: u64 = 300;

/// What the queue holds.
struct Item {
    label: String,
    due: Instant,
}

/// An item a taker took.
#[derive(Debug, Clone)]
struct Taken {
    label: String,
    by: String,
    early: bool,
    late: Duration,
}

/// Named threads looping on `take`, each recording "took <label>" and
/// "took". Dropping the crew closes the queue and joins them.
struct Crew {
    queue: Arc<DelayedQueue<Item>>,
    rec: Recorder,
    taken: Arc<Mutex<Vec<Taken>>>,
    threads: Vec<JoinHandle<()>>,
}

impl Crew {
    fn new() -> Crew {
        Crew {
            queue: Arc::new(DelayedQueue::new()),
            rec: Recorder::new(),
            taken: Arc::new(Mutex::new(Vec::new())),
            threads: Vec::new(),
        }
    }

    fn spawn(&mut self, name: String) {
        let (queue, rec, taken) = (
            Arc::clone(&self.queue),
            self.rec.clone(),
            Arc::clone(&self.taken),
        );
        let thread = thread::Builder::new()
            .name(name.clone())
            .spawn(move || {
                while let Some(item) = queue.take() {
                    let now = Instant::now();
                    taken
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(Taken {
                            label: item.label.clone(),
                            by: name.clone(),
                            early: now < item.due,
                            late: now.saturating_duration_since(item.due),
                        });
                    rec.record(format!("took {}", item.label));
                    rec.record("took");
                }
            })
            .expect("spawn a taker");
        self.threads.push(thread);
    }

    fn offer(&self, label: &str, due: Instant) {
        let label = label.to_owned();
        self.queue.offer(due, Item { label, due });
    }

    fn taken(&self) -> Vec<Taken> {
        self.taken
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Waits, at most 2 s, until `done` holds.
    fn until(&self, done: impl Fn(&DelayedQueue<Item>) -> bool) -> bool {
        kit::eventually(ms(2000), || done(&self.queue))
    }

    /// Waits until `n` takers wait: the crew is idle.
    fn wait_idle(&self, n: usize) {
        assert!(
            self.until(|q| q.waiting() == n),
            "{} takers waiting, expected {n}: does every wait go through `park`?",
            self.queue.waiting()
        );
    }
}

impl Drop for Crew {
    fn drop(&mut self) {
        self.queue.close();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// Asserts that every taken item was taken not before its deadline and at
/// most `LATE_MS` after it.
fn assert_on_time(crew: &Crew, what: &str) {
    for t in crew.taken() {
        assert!(
            !t.early,
            "T10 leader_follower: {} taken before its deadline ({what})\n{}",
            t.label,
            crew.rec.log()
        );
        assert!(
            t.late < ms(LATE_MS),
            "T10 leader_follower: {} taken {} ms late ({what}), allowed {LATE_MS}: \
             for a while nobody waited timed for it\n{}",
            t.label,
            in_ms(t.late),
            crew.rec.log()
        );
    }
}

#[test]
fn t10_few_wakeups_per_deadline() {
    let mut crew = Crew::new();
    for _ in 0..TAKERS {
        crew.spawn(threads::unique_name("ex-t10"));
    }
    // Quiet before counting: every taker waits for an item.
    crew.wait_idle(TAKERS);
    let before = crew.queue.wakeups();
    let start = Instant::now();
    for i in 0..DEADLINES {
        crew.offer(&i.to_string(), start + ms(FIRST_MS + i * GAP_MS));
    }
    let last = ms(FIRST_MS + DEADLINES * GAP_MS);
    let all = crew
        .rec
        .wait_until_count("took", DEADLINES as usize, last + ms(LATE_MS));
    assert!(
        all.is_some(),
        "T10 leader_follower: {} of {DEADLINES} items taken by {} ms after the last was due, \
         {TAKERS} takers: some deadline had nobody waiting timed for it\n{}",
        crew.rec.count("took"),
        LATE_MS,
        crew.rec.log()
    );
    // Quiet again before reading the count: the takers that woke for the
    // last deadline are back in their waits.
    crew.wait_idle(TAKERS);
    let wakeups = crew.queue.wakeups() - before;
    let per = wakeups as f64 / DEADLINES as f64;
    let latest = crew
        .taken()
        .iter()
        .map(|t| t.late)
        .max()
        .unwrap_or_default();
    assert!(
        per <= WAKEUPS_BOUND,
        "T10 thundering_herd: {per:.1} wake-ups per fired deadline with {TAKERS} takers, \
         expected at most {WAKEUPS_BOUND} ({wakeups} wake-ups for {DEADLINES} deadlines {GAP_MS} ms apart)"
    );
    assert_on_time(&crew, &format!("{TAKERS} takers, {DEADLINES} deadlines"));
    println!(
        "{per:.2} wake-ups per deadline with {TAKERS} takers; latest take {} ms after its deadline",
        in_ms(latest)
    );
}

#[test]
fn t10_leader_leaves_and_a_follower_takes_the_next() {
    let mut crew = Crew::new();
    let names: Vec<String> = (0..3).map(|_| threads::unique_name("ex-t10")).collect();
    // Declared after the crew: dropped first, so a failing check lets a
    // held taker go before the crew joins it. Whichever taker takes an item
    // first is held; the others are let through.
    let mut pauses: Vec<Pause> = names.iter().map(|name| Pause::arm(TOOK, name)).collect();
    crew.spawn(names[0].clone());
    crew.wait_idle(1);
    // The one taker wakes for the new head and leads.
    let before = crew.queue.wakeups();
    let now = Instant::now();
    let second = now + ms(200);
    crew.offer("first", now + ms(100));
    crew.offer("second", second);
    let holding = |pauses: &[Pause]| pauses.iter().any(Pause::is_holding);
    let led = crew.until(|q| q.wakeups() > before && q.waiting() == 1 || holding(&pauses));
    assert!(led, "the one taker never went back to waiting for `first`");
    // Two more, waiting before `first` is due (unless the machine is so
    // slow that it was taken already).
    crew.spawn(names[1].clone());
    crew.spawn(names[2].clone());
    assert!(
        crew.until(|q| q.waiting() == 3 || holding(&pauses)),
        "{} takers waiting, expected 3",
        crew.queue.waiting()
    );
    assert!(
        crew.until(|_| holding(&pauses)),
        "no taker reached `kit::pause_point(TOOK)` with `first` due: keep that call \
         where the skeleton has it, after a take lets go of the lock\n{}",
        crew.rec.log()
    );
    let at = pauses
        .iter()
        .position(Pause::is_holding)
        .unwrap_or_default();
    let held = pauses.swap_remove(at);
    pauses.clear(); // the others go through
    let holder = &names[at];
    crew.rec
        .record_as("check", format!("{holder} held just after its take"));
    // Held there, it cannot come back for the next item: another must.
    let by = Instant::now().max(second) + ms(LATE_MS);
    let next = crew
        .rec
        .eventually("took", by.saturating_duration_since(Instant::now()));
    assert!(
        next.is_some(),
        "T10 leader_follower: the taker that took `first` is held just after its take, \
         and `second`, due at 200 ms, was not taken by {} ms: the other takers wait \
         with no time limit and none leads (leadership lost when the leader left)\n{}",
        in_ms(by.saturating_duration_since(now)),
        crew.rec.log()
    );
    assert!(
        crew.taken().iter().all(|t| t.by != *holder),
        "the held taker took nothing more"
    );
    assert_on_time(&crew, "the taker of `first` held after its take");
    held.release();
    assert!(
        crew.rec.wait_until_count("took", 2, ms(1000)).is_some(),
        "the held taker, let go, never returned its item\n{}",
        crew.rec.log()
    );
}

#[test]
fn t10_new_earlier_head_is_taken_on_time() {
    let mut crew = Crew::new();
    crew.spawn(threads::unique_name("ex-t10"));
    crew.spawn(threads::unique_name("ex-t10"));
    crew.wait_idle(2);
    // A far head: one taker wakes to lead for it. The other has waited
    // longer, so a single notify reaches it first: if it cannot lead for a
    // new head, nobody will.
    let before = crew.queue.wakeups();
    crew.offer("far", Instant::now() + ms(5000));
    assert!(
        crew.until(|q| q.wakeups() > before && q.waiting() == 2),
        "the takers never went back to waiting with `far` queued"
    );
    crew.rec.record_as("check", "offer near, due in 40 ms");
    let due = Instant::now() + ms(40);
    crew.offer("near", due);
    let by = due + ms(LATE_MS);
    let taken = crew
        .rec
        .eventually("took near", by.saturating_duration_since(Instant::now()));
    assert!(
        taken.is_some(),
        "T10 leader_follower: `near`, offered in front of `far` (due at 5000 ms), was not \
         taken {LATE_MS} ms after its deadline: whoever waited timed waited for `far`\n{}",
        crew.rec.log()
    );
    assert_on_time(&crew, "a new head in front of a far one");
}
