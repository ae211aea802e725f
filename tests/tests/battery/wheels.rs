//! Stage 7's wheels as rows, and the columns only a wheel answers: W2, the
//! cursor race, and W8, a schedule's cost counted at two queue sizes. The
//! idle wake-ups column, which every timer answers, is here too.
//!
//! Each wheel row hands its due tasks to a stage 6 pool of two threads, as
//! the CAS hashed wheel timer post's wheel hands them to a pool: the wheel
//! decides *when*, the pool runs them, so a long task holds up one pool
//! thread and never the ticker (the I4 column). The ticker thread carries
//! the row's name, so the timer columns measure and hold it as they do a
//! timer's one thread. Dropping the row stops the wheel (the tasks it hands
//! back are dropped: the battery's tasks only record that they ran), joins
//! the ticker, then drops the pool, which joins its workers.

use std::sync::Arc;
use std::thread;
use std::time::Duration;

use kit::pause::Pause;
use kit::scale::in_ms;
use kit::threads::unique_name;
use kit::{Recorder, ms};
use threadpool_executor::ThreadPool;
use threadpool_executor::factory::NamedThreads;
use wheel::executor::WheelPool;
use wheel::hashed::HashedConfig;
use wheel::hashed_core::HashedCore;
use wheel::hierarchical::HierarchicalConfig;
use wheel::levels::Levels;
use wheel::lockfree::{LockFreeConfig, LockFreeWheel};

use super::gone::gone_within;
use super::scenarios::{Outcome, Verdict};
use super::versions::{AsTimer, Subject, Task, Version};

/// Which wheel a row is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// The post's lock-free wheel: adders compute a slot from the cursor.
    LockFree,
    /// The single-owner hashed wheel: adders send, the ticker files.
    Hashed,
    /// The hierarchical wheel: levels of 64 slots, asleep while idle.
    Hierarchical,
}

/// The lock-free wheel's tick and slots: a revolution of 640 ms, long
/// enough for every delay the timer columns use (the longest is 600 ms),
/// so the post's wraparound (W3) stays out of columns that do not ask it.
const LOCKFREE_TICK_MS: u64 = 10;
const LOCKFREE_SLOTS: usize = 64;
/// Tasks a lock-free slot holds (W4 stays out of the timer columns).
const LOCKFREE_CAPACITY: usize = 64;
/// The hashed wheel's: a revolution of 320 ms; its rounds carry the rest.
const HASHED_TICK_MS: u64 = 5;
const HASHED_SLOTS: usize = 64;
/// The hierarchical wheel's tick.
const HIERARCHICAL_TICK_MS: u64 = 1;

impl Kind {
    /// The pause point between the adder's look at the time (or the
    /// cursor) and its store (or send): W2's window.
    pub fn window(self) -> &'static str {
        match self {
            Kind::LockFree => "wheel::lockfree: slot computed, not yet claimed",
            Kind::Hashed => wheel::hashed::SEND_WINDOW,
            Kind::Hierarchical => "wheel::hierarchical: deadline computed, not yet sent",
        }
    }

    fn tick(self) -> Duration {
        ms(match self {
            Kind::LockFree => LOCKFREE_TICK_MS,
            Kind::Hashed => HASHED_TICK_MS,
            Kind::Hierarchical => HIERARCHICAL_TICK_MS,
        })
    }

    /// How long the post's wheel makes a task wait when it misses its
    /// slot: a whole revolution.
    fn revolution() -> Duration {
        ms(LOCKFREE_TICK_MS) * LOCKFREE_SLOTS as u32
    }
}

impl Kind {
    /// How a row of this kind starts its wheel, with its ticker named as
    /// given: the post's wheel in its own terms, the finished two as
    /// executors ([`WheelPool`]), through the executor trait.
    pub fn start(self) -> fn(&str) -> Box<dyn Subject> {
        match self {
            Kind::LockFree => |name| Box::new(LockFreeOnPool::start(name)),
            Kind::Hashed => |name| {
                let config = HashedConfig {
                    tick: Kind::Hashed.tick(),
                    slots: HASHED_SLOTS,
                };
                let wheel = WheelPool::hashed(config, pool(), name).expect("a valid hashed wheel");
                AsTimer::boxed(wheel)
            },
            Kind::Hierarchical => |name| {
                let config = HierarchicalConfig {
                    tick: Kind::Hierarchical.tick(),
                };
                let wheel = WheelPool::hierarchical(config, pool(), name)
                    .expect("a valid hierarchical wheel");
                AsTimer::boxed(wheel)
            },
        }
    }
}

/// A wheel row's pool of two threads.
fn pool() -> ThreadPool {
    threadpool_executor::presets::fixed(2)
        .thread_factory(NamedThreads::with_prefix(format!(
            "{}-",
            unique_name("pm-wp")
        )))
        // Reported by the battery, not by the default panic hook.
        .on_panic(|_| {})
        .build()
        .expect("a pool of two")
}

/// The post's wheel as the battery drives it: the wheel, then its pool
/// (fields drop in this order: the wheel's ticker is joined before the
/// pool).
struct LockFreeOnPool {
    wheel: Option<LockFreeWheel>,
    _pool: Arc<ThreadPool>,
}

impl LockFreeOnPool {
    fn start(name: &str) -> LockFreeOnPool {
        let pool = Arc::new(pool());
        let config = LockFreeConfig::new(Kind::LockFree.tick(), LOCKFREE_SLOTS, LOCKFREE_CAPACITY);
        let wheel =
            LockFreeWheel::start(config, pool.clone(), name).expect("a valid lock-free wheel");
        LockFreeOnPool {
            wheel: Some(wheel),
            _pool: pool,
        }
    }

    fn wheel(&self) -> &LockFreeWheel {
        self.wheel.as_ref().expect("running")
    }
}

impl Subject for LockFreeOnPool {
    /// Its ticks: the W2 column counts them too.
    fn wakeups(&self) -> Option<u64> {
        Some(self.wheel().stats().ticks)
    }

    fn schedule(&self, delay: Duration, task: Task) {
        assert!(self.try_schedule(delay, task), "a wheel refused a task");
    }

    fn try_schedule(&self, delay: Duration, task: Task) -> bool {
        self.wheel().add(delay, task).is_ok()
    }
}

impl Drop for LockFreeOnPool {
    fn drop(&mut self) {
        // What `stop` hands back had not run: the battery drops it.
        if let Some(wheel) = self.wheel.take() {
            drop(wheel.stop());
        }
    }
}

/// W2 `cursor_race`, asked of a wheel: the adder is held in its window
/// (between its look at the cursor or the clock and its store or send)
/// until the ticker has gone past the task's due time, then let go. Does
/// the task run a couple of ticks later, or a whole revolution later? (Not
/// run half a revolution after is the bug's bound: the rest is not waited
/// out.)
pub fn cursor_race(version: &Version) -> Outcome {
    let Some(kind) = version.wheel else {
        return Outcome {
            verdict: Verdict::NotApplicable,
            detail: "not a wheel".to_owned(),
            joined: true.into(),
        };
    };
    let name = unique_name("pm-w2");
    let wheel = (version.start)(&name);
    // The post's wheel is watched in its ticks, the others in time.
    let lockfree_ticks = || wheel.wakeups().filter(|_| kind == Kind::LockFree);
    let rec = Recorder::new();
    let adder = unique_name("pm-w2a");
    let pause = Pause::arm(kind.window(), &adder);
    let delay = kind.tick() * 2;
    let (due, released) = thread::scope(|s| {
        let handle = thread::Builder::new()
            .name(adder.clone())
            .spawn_scoped(s, || {
                let r = rec.clone();
                let called = rec.record("schedule called");
                wheel.schedule(
                    delay,
                    Box::new(move || {
                        r.record("ran");
                    }),
                );
                called + delay
            })
            .expect("the adder starts");
        pause.wait_reached();
        // Past the task's slot: for the post's wheel, counted in its
        // ticks (a slot is drained to the end by then); for the others,
        // in time, since nothing an adder does depends on their ticks.
        let passed = match lockfree_ticks() {
            Some(k) => kit::eventually(ms(2000), || lockfree_ticks().is_some_and(|t| t > k + 3)),
            None => {
                let until = rec.elapsed() + kind.tick() * 4;
                kit::eventually(ms(2000), || rec.elapsed() >= until)
            }
        };
        assert!(passed, "the ticker did not move");
        let released = rec.record_as("test", "adder released");
        pause.release();
        (handle.join().expect("the adder returns"), released)
    });
    let revolution = Kind::revolution();
    let from = due.max(released);
    // Not run half a revolution after: the bug's bound, reached. The rest
    // of the revolution is not waited out (the wheel's stop drops the
    // task, as it drops every task the battery leaves).
    let half = from + revolution / 2;
    let ran = rec.eventually("ran", half.saturating_sub(rec.elapsed()));
    drop(wheel);
    let joined = gone_within(&name, ms(1000));
    let (verdict, detail) = match ran {
        None => (
            Verdict::Bug("W2"),
            format!(
                "due at {} ms, adder let go at {} ms, not run by {} ms (half a revolution after)",
                in_ms(due),
                in_ms(released),
                in_ms(half)
            ),
        ),
        Some(ran) => {
            let late = ran.saturating_sub(from);
            let verdict = if late <= kind.tick() * 2 + ms(60) {
                Verdict::Ok
            } else if late >= revolution / 2 {
                Verdict::Bug("W2")
            } else {
                Verdict::Unclear
            };
            (
                verdict,
                format!(
                    "due at {} ms, adder let go at {} ms, ran at {} ms ({} ms after)",
                    in_ms(due),
                    in_ms(released),
                    in_ms(ran),
                    in_ms(late)
                ),
            )
        }
    };
    Outcome {
        verdict,
        detail,
        joined: joined.into(),
    }
}

/// W8 `o1_schedule`, from counts: the steps one insert adds to the
/// `steps()` counter of the wheel's data structure, with 10^3 and with
/// 10^5 timers already pending (deadlines spread over 10^4 ticks; the
/// wheel's time is never advanced, so nothing fires or cascades). What a
/// step is, each structure says: [`HashedCore::insert`] counts 2 (the
/// slab slot the entry goes in and its place in its bucket),
/// [`Levels::insert`] counts 1 (the slot it is filed in; its look at the
/// level bitmaps is not a step, there are six whatever is pending). A
/// `Vec` that grows copies its items now and then; that amortised cost is
/// counted by neither, as a heap's is not either. The same count at both
/// sizes is O(1): ok. The cell says only that; the counts go to the
/// details, and they are the same on every run.
///
/// n/a where the version keeps no count: the post's lock-free wheel
/// (its `add` is one load of the cursor, one `fetch_add` on the slot's
/// count and one store into a cell, whatever is pending, but its ring
/// counts nothing, and 64 slots of 64 cells cannot hold 10^5 timers), and
/// every heap timer and the scheduled pool (their heaps count no
/// comparisons; *A wheel of slots* counts a heap's in its own test and benchmark).
pub fn schedule_cost(version: &Version) -> Outcome {
    let per_insert = |sizes: [usize; 2], insert: &mut dyn FnMut(usize) -> u64| -> Vec<u64> {
        sizes.iter().map(|&n| insert(n)).collect()
    };
    let counts = match version.wheel {
        Some(Kind::Hashed) => per_insert([1_000, 100_000], &mut |n| {
            let mut core = HashedCore::new(HASHED_SLOTS).expect("slots");
            for i in 0..n as u64 {
                core.insert(spread(i), ());
            }
            let before = core.steps();
            core.insert(spread(n as u64), ());
            core.steps() - before
        }),
        Some(Kind::Hierarchical) => per_insert([1_000, 100_000], &mut |n| {
            let mut levels = Levels::new();
            for i in 0..n as u64 {
                levels.insert(spread(i), ());
            }
            let before = levels.steps();
            levels.insert(spread(n as u64), ());
            levels.steps() - before
        }),
        Some(Kind::LockFree) => {
            return Outcome {
                verdict: Verdict::NotApplicable,
                detail: format!(
                    "its ring counts no steps (add: a cursor load, a fetch_add, a store, \
                     whatever is pending; {LOCKFREE_SLOTS} slots of {LOCKFREE_CAPACITY} \
                     cells hold {} timers, not 10^5)",
                    LOCKFREE_SLOTS * LOCKFREE_CAPACITY
                ),
                joined: true.into(),
            };
        }
        None => {
            return Outcome {
                verdict: Verdict::NotApplicable,
                detail: "keeps no count of the work an insert does".to_owned(),
                joined: true.into(),
            };
        }
    };
    let verdict = if counts[0] == counts[1] {
        Verdict::Ok
    } else {
        Verdict::Unclear
    };
    Outcome {
        verdict,
        detail: format!(
            "steps per insert: {} with 10^3 pending, {} with 10^5",
            counts[0], counts[1]
        ),
        joined: true.into(),
    }
}

/// Deadlines spread over 10^4 ticks, the same for every row and run.
fn spread(i: u64) -> u64 {
    1 + i.wrapping_mul(7_919) % 10_000
}

/// How long the idle column watches the timer's thread.
const IDLE_WINDOW_MS: u64 = 200;
/// When the idle column's one task is due: after the window, so nothing
/// comes due in it, and no later. A task 10 s away would read the same
/// in the window for every version (none looks at a task before its
/// deadline, or its slot's tick: the hierarchical wheel files this one at
/// level 1 and wakes for it at 320 ms, well after the window), but the
/// post's wheel would wrap a 10 s delay round its 640 ms ring (W3) and
/// fire it inside the window. (`sleep_until`'s drop sits out its sleep,
/// as in N1 and P2: a reaper waits for it, not the wave; see
/// [`super::gone::Joined`].)
const IDLE_DUE_MS: u64 = 350;
/// At most this many wake-ups in the window is a thread that sleeps until
/// its deadline: one for the `schedule` that woke it, one to spare.
const IDLE_AT_MOST: u64 = 2;
/// At least this many is a thread that wakes on a clock: the ticking
/// wheels wake 20 (10 ms tick) and 40 (5 ms tick) times in 200 ms.
const TICKS_AT_LEAST: u64 = 10;

/// How long the idle column watches on, at most, for a ticker that a
/// loaded machine held back (see [`idle_wakeups`]).
const TICKS_WITHIN_MS: u64 = 1000;

/// Idle wake-ups: one task due just after a 200 ms window, nothing else.
/// How often does the timer's thread wake in the window?
///
/// Counted as the thread's voluntary context switches in the window (from
/// `/proc/self/task/<tid>/status`, [`kit::cpu::ThreadCpu::wakeups`]): each
/// is one block, so each wake-up after a block is one. A wheel also counts
/// its own ticker's turns ([`Subject::wakeups`]: the lock-free wheel's
/// ticks, the hashed wheel's ticks, the hierarchical wheel's wake-ups),
/// and for a wheel the larger count is taken: a ticker that falls behind
/// makes up several ticks in one wake-up, and the post's wheel's ticker,
/// behind on a loaded machine, never blocks at all (its channel's receive
/// yields a few times before it blocks, and by then the next tick is
/// due). Both go to the details.
///
/// Judged with the thread's CPU use first: a thread that never blocks but
/// burns a core is N1 (the busy loop). Then `ok` for at most
/// [`IDLE_AT_MOST`], and the cost `ticks` for at least [`TICKS_AT_LEAST`]
/// (a ticking wheel: correct, and it pays every tick). A ticker that a
/// loaded machine kept from the CPU can fall between the two in the
/// window, or even under the first (while it wanted a core most of the
/// window: a thread asleep does not); a wheel's is then watched on (up
/// to [`TICKS_WITHIN_MS`]) until its own count reaches
/// [`TICKS_AT_LEAST`] turns since the window began, which a ticker does,
/// however late, and a sleeping thread does not (nothing else is due
/// until 350 ms: at most its one task's wake-ups).
/// The numbers stay in the details, so the cell is the same on every run.
pub fn idle_wakeups(version: &Version) -> Outcome {
    let name = unique_name("pm-idle");
    let timer = (version.start)(&name);
    timer.schedule(ms(IDLE_DUE_MS), Box::new(|| {}));
    let thread = super::gone::thread_named(&name).expect("the timer's thread");
    let switches = || thread.wakeups().expect("its context switches");
    let (own_before, kernel_before) = (timer.wakeups(), switches());
    let began = std::time::Instant::now();
    let share = thread.share_over(ms(IDLE_WINDOW_MS)).expect("its CPU time");
    let (own_after, kernel_after) = (timer.wakeups(), switches());
    let kernel = kernel_after - kernel_before;
    let own = own_before.zip(own_after).map(|(b, a)| a - b);
    let wakeups = own.map_or(kernel, |own| own.max(kernel));
    let mut detail = match own {
        Some(own) => format!(
            "{wakeups} wake-ups in {} ms (its own count {own}, {kernel} voluntary context \
             switches)",
            in_ms(share.wall)
        ),
        None => format!(
            "{wakeups} wake-ups in {} ms (voluntary context switches)",
            in_ms(share.wall)
        ),
    };
    let mut ticks = wakeups >= TICKS_AT_LEAST;
    // Between the bounds, or few wake-ups while wanting a core most of the
    // window: a ticker held back, or a thread asleep?
    let held_back = wakeups > IDLE_AT_MOST || share.demand() >= 0.5;
    if let Some(before) = own_before
        && held_back
        && !ticks
    {
        let turns = || timer.wakeups().unwrap_or(before) - before;
        ticks = kit::eventually(ms(TICKS_WITHIN_MS), || turns() >= TICKS_AT_LEAST);
        let by = in_ms(began.elapsed());
        detail += &format!("; {} turns of its own by {by} ms", turns());
    }
    let joined = super::scenarios::reap(version, &name, timer);
    let verdict = if share.is_busy() {
        Verdict::Bug("N1")
    } else if ticks {
        Verdict::Cost("ticks")
    } else if wakeups <= IDLE_AT_MOST {
        Verdict::Ok
    } else {
        Verdict::Unclear
    };
    Outcome {
        verdict,
        detail: format!("{detail}; {share}"),
        joined,
    }
}
