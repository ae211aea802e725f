//! W8 `o1_schedule`: what one insert costs a timer that already holds `n`
//! pending timers, for a heap and for wheels, from about 10^3 to 10^6; and
//! what an idle timer costs while it waits.
//!
//! ```text
//! cargo bench -p wheel --bench wheel_schedule
//! cargo bench -p wheel --bench wheel_schedule -- --quick       # a shorter run
//! cargo bench -p wheel --bench wheel_schedule -- pending_1025  # one size
//! ```
//!
//! One criterion group per size, `wheel_schedule/pending_<n>`, with `n` =
//! 2^10 + 1, 2^13 + 1, 2^17 + 1 and 2^20 + 1 (about 10^3, 10^4, 10^5 and
//! 10^6). In each group, one insert into:
//!
//! - `heap_timer_schedule`: stage 5's finished `Timer::schedule`, the whole
//!   call: a clock read, its lock, the closure's box, a table slot, a heap
//!   push, the handle.
//! - `heap_push`: a bare `std::collections::BinaryHeap` push of an entry
//!   of the Timer's shape (deadline, sequence number, slot), no lock, no
//!   clock: the floor under any heap timer.
//! - `hashed_core_insert`: [`HashedCore::insert`], the hashed wheel's data
//!   structure (512 buckets of 1 ms, rounds beyond), no thread.
//! - `levels_insert`: [`Levels::insert`], the hierarchical wheel's data
//!   structure, no thread.
//! - `peer_quad_wheel_insert`: the crates.io crate
//!   `hierarchical_hash_wheel_timer`'s own low-level wheel,
//!   `wheels::quad_wheel::QuadWheelWithOverflow` (four byte wheels of 256
//!   slots and an overflow list; no cancel): the like-for-like insert.
//! - `peer_cancellable_insert`: the same crate's
//!   `wheels::cancellable::QuadWheelWithOverflow`, the wheel its thread
//!   timer runs: the plain wheel plus an `Rc` per entry and a hash map
//!   from id to entry, so that a timer can be cancelled (ours cancel by
//!   key, so this is the like-for-like in what it offers).
//! - `caller_hashed_wheel_schedule`, `caller_hierarchical_wheel_schedule`
//!   and `caller_peer_thread_timer_schedule`: **what the caller pays** on
//!   a running wheel (a deadline, an `Arc`, a channel send); **the ticker
//!   pays the insert**, on its own thread, at its next tick or wake-up.
//!   On this 2-core machine that ticker runs beside the caller.
//! - `draw_only`: the loop with the random draw and nothing else. Every
//!   other row includes it (a nanosecond or two); it is not subtracted.
//!
//! **Deadlines.** Every structure gets the same deadlines, drawn by a
//! small fixed-state generator written here (splitmix64), uniformly from
//! 1 to 10,000 ticks of 1 ms: (0, 10 s]. Zero is left out because the
//! peer's wheel refuses a delay of zero as already expired. The structures
//! with no clock (the bare heap, both cores, the peer's wheels) start at
//! tick 0 and take the drawn tick as is. The ones with a clock and a
//! thread (the Timer, the running wheels) get 100 hours *plus* the draw:
//! left at 0 to 10 s, their timers would start firing during the run, the
//! pending count would fall and their threads would be busy running them.
//! A heap's work depends only on the order of its keys, and the order is
//! the same; a running wheel's caller does no more than arithmetic with
//! the deadline.
//!
//! **What a random-deadline heap push costs.** Pushing a random key into a
//! binary heap sifts it up O(1) levels on average (about 1.6 swaps at any
//! size: half the nodes are leaves, and a random key rarely beats its
//! parent's), and the leaf it lands in is the end of the array, next to
//! the last one. The heap's log n is in `pop`, which sifts a leaf down the
//! whole height, and, as n grows, in cache misses on the way up. So a
//! random-key push is expected to stay almost flat; the table shows what
//! it does here. (W8 says the heap timer's *schedule* grows as log n; on
//! random deadlines, that is not what one push shows.)
//!
//! **Refill and allocation**, as in stage 5's `timer_schedule` bench: each
//! structure is filled with `n` timers (not timed), takes timed inserts
//! until it holds `2n - 2`, and is then dropped and filled afresh (neither
//! timed). Every call therefore finds between `n` and `2n - 3` timers
//! pending, and each fill replays the same deadlines. A heap keeps its
//! entries in one `Vec` that doubles from empty: after `2^k + 1` pushes it
//! has room for `2^(k + 1) = 2n - 2`, so no timed push pays for the
//! `Vec`'s growth. The wheels keep a list per slot, and those lists *do*
//! grow while a wheel goes from `n` to `2n - 2` (about one copy of each
//! list per fill, an amortised element copy per insert), and none of the
//! four wheels can be told to reserve: their numbers include that growth,
//! the heaps' do not. Handles of the running timers are kept, as a caller
//! that may cancel keeps them (dropping one is not free), in a `Vec`
//! reserved up front; the cores' `Copy` keys are passed to `black_box`.
//! The task is a closure that captures nothing, so its box allocates
//! nothing, for every structure alike.
//!
//! glibc hands large freed blocks back to the kernel, so a fresh fill would
//! fault in new pages where a long-lived timer reuses its own; the bench
//! runs itself again with `GLIBC_TUNABLES` asking glibc to keep freed
//! memory, unless that variable is set already (the same for all).
//!
//! **After criterion** the bench prints one table of criterion's mean ns
//! per insert (read back from `target/criterion/<group>/<fn>/new/
//! estimates.json`, only the entries this run wrote), with the W8 targets
//! and their verdicts: the hierarchical wheel flat (10^6 at most 2× 10^3),
//! at 10^6 at least 5× cheaper than the heap Timer, within 1.2× of the
//! peer's wheel insert. Then the **idle cost**, measured, not a criterion
//! timing: one timer 10 s away, and over 1 s of wall time the timer
//! thread's CPU time and wake-ups (its voluntary context switches, from
//! `/proc/self/task/<tid>/status`, and the wheels' own counters) for the
//! hashed wheel at a 1 ms tick, the hierarchical wheel, stage 5's Timer
//! and the peer's thread timer.
//!
//! Each criterion run is short (1 s of measurement per function, 10
//! samples): the whole bench takes about 70 s on 2 cores, `-- --quick`
//! less. On a 2-core machine shared with builds, expect noise of tens of
//! percent, and more for the structures that touch the most memory per
//! insert at 10^6 (the Timer's table and heap, the running wheels).
//!
//! [`HashedCore::insert`]: wheel::hashed_core::HashedCore::insert
//! [`Levels::insert`]: wheel::levels::Levels::insert

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fmt;
use std::hint::black_box;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use criterion::{Criterion, criterion_group};
use hierarchical_hash_wheel_timer::thread_timer::{TimerRef, TimerWithThread};
use hierarchical_hash_wheel_timer::wheels::{cancellable, quad_wheel};
use hierarchical_hash_wheel_timer::{ClosureTimer, OneShotClosureState, PeriodicClosureState};
use interrupt_cancel::timer::{TaskHandle, Timer};
use wheel::Job;
use wheel::OnTicker;
use wheel::hashed::{self, HashedConfig, HashedWheel};
use wheel::hashed_core::HashedCore;
use wheel::hierarchical::{self, HierarchicalConfig, HierarchicalWheel};
use wheel::levels::Levels;

/// `2^k + 1`: see the module docs.
const SIZES: [usize; 4] = [(1 << 10) + 1, (1 << 13) + 1, (1 << 17) + 1, (1 << 20) + 1];

/// Deadlines are drawn from 1 to this many ticks of [`TICK`].
const SPAN_TICKS: u64 = 10_000;

/// One tick, for every wheel: the wheels' deadlines are in ticks of it.
const TICK: Duration = Duration::from_millis(1);

/// Added to the draws of the structures with a clock: see the module docs.
const FAR: Duration = Duration::from_secs(100 * 3600);

/// The hashed wheel's buckets: Netty's default, and `HashedConfig`'s.
const HASHED_SLOTS: usize = 512;

/// splitmix64: a small generator with a fixed starting state, so that
/// every structure, and every fill, sees the same deadlines.
struct Draws(u64);

impl Draws {
    fn new() -> Draws {
        Draws(0x243F_6A88_85A3_08D3)
    }

    /// The next deadline, in ticks: 1 to [`SPAN_TICKS`], uniform.
    #[inline]
    fn next_tick(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        // The high 32 bits scaled to the span: no division in the loop.
        1 + (((z >> 32) * SPAN_TICKS) >> 32)
    }
}

/// A structure being measured, with the state of its fill.
struct Filled<S> {
    subject: S,
    draws: Draws,
    held: usize,
}

/// Times `iters` inserts. They go to the current filled structure until it
/// holds `2n - 2` timers; it is then replaced by a fresh one filled with
/// `n` (not timed), so every insert finds between `n` and `2n - 3` pending,
/// whatever batches criterion asks for.
fn time_inserts<S>(
    current: &mut Option<Filled<S>>,
    iters: u64,
    n: usize,
    make: &impl Fn() -> S,
    insert: &impl Fn(&mut S, u64),
) -> Duration {
    let full = 2 * n - 2;
    let mut total = Duration::ZERO;
    let mut left = iters as usize;
    while left > 0 {
        if current.as_ref().is_none_or(|f| f.held >= full) {
            *current = None; // drop the full one first: memory, threads
            let mut subject = make();
            let mut draws = Draws::new();
            for _ in 0..n {
                insert(&mut subject, draws.next_tick());
            }
            *current = Some(Filled {
                subject,
                draws,
                held: n,
            });
        }
        let filled = current.as_mut().expect("just filled");
        let batch = left.min(full - filled.held);
        let start = Instant::now();
        for _ in 0..batch {
            let tick = filled.draws.next_tick();
            insert(black_box(&mut filled.subject), tick);
        }
        total += start.elapsed();
        filled.held += batch;
        left -= batch;
    }
    total
}

/// The Timer's heap entry, copied in shape: when, the order scheduled in,
/// which table slot.
struct HeapEntry {
    deadline: Instant,
    seq: u64,
    #[expect(dead_code, reason = "carried as the Timer's entry carries it")]
    slot: usize,
}

impl Ord for HeapEntry {
    fn cmp(&self, other: &Self) -> Ordering {
        // Earliest on top, as the Timer's.
        (other.deadline, other.seq).cmp(&(self.deadline, self.seq))
    }
}

impl PartialOrd for HeapEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for HeapEntry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for HeapEntry {}

/// The bare heap: entries and the numbering a timer would give them.
struct BareHeap {
    heap: BinaryHeap<HeapEntry>,
    base: Instant,
    seq: u64,
}

/// The peer's plain wheel wants `Debug` entries; a job is not `Debug`.
struct PeerJob(#[expect(dead_code, reason = "held to be dropped, never run")] Job);

impl fmt::Debug for PeerJob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PeerJob")
    }
}

/// An entry of the peer's cancellable wheel: it cancels by an id the
/// caller picks.
struct PeerTimer {
    id: u64,
    #[expect(dead_code, reason = "held to be dropped, never run")]
    job: Job,
}

impl fmt::Debug for PeerTimer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PeerTimer({})", self.id)
    }
}

impl cancellable::CancellableTimerEntry for PeerTimer {
    type Id = u64;

    fn id(&self) -> &u64 {
        &self.id
    }
}

type PeerThreadTimer = TimerWithThread<u64, OneShotClosureState<u64>, PeriodicClosureState<u64>>;

/// The peer's thread timer, shut down (its thread joined) when dropped:
/// the crate's own type only does that in `shutdown`.
struct PeerThread {
    timer: Option<PeerThreadTimer>,
    /// The caller's handle, taken once (each `timer_ref` clones a sender).
    caller: PeerTimerRef,
    next_id: u64,
}

type PeerTimerRef = TimerRef<u64, OneShotClosureState<u64>, PeriodicClosureState<u64>>;

impl PeerThread {
    fn new() -> PeerThread {
        let timer = PeerThreadTimer::new().expect("spawn the peer's timer thread");
        PeerThread {
            caller: timer.timer_ref(),
            timer: Some(timer),
            next_id: 0,
        }
    }

    fn schedule(&mut self, delay: Duration) {
        self.next_id += 1;
        self.caller
            .schedule_action_once(self.next_id, delay, |_| {});
    }
}

impl Drop for PeerThread {
    fn drop(&mut self) {
        if let Some(timer) = self.timer.take() {
            timer.shutdown().expect("the peer's timer thread stops");
        }
    }
}

fn noop() -> Job {
    Box::new(|| {})
}

fn benches(c: &mut Criterion) {
    for n in SIZES {
        let mut g = c.benchmark_group(group_name(n));
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1));

        let mut current = None;
        g.bench_function("heap_timer_schedule", move |b| {
            b.iter_custom(|iters| {
                time_inserts(
                    &mut current,
                    iters,
                    n,
                    &|| {
                        let timer = Timer::new("bench-w8-heap").expect("spawn");
                        (timer, Vec::<TaskHandle>::with_capacity(2 * n))
                    },
                    &|(timer, handles), tick| {
                        let delay = FAR + TICK * tick as u32;
                        handles.push(timer.schedule(delay, || {}).expect("accepted"));
                    },
                )
            })
        });

        let mut current = None;
        g.bench_function("heap_push", move |b| {
            b.iter_custom(|iters| {
                time_inserts(
                    &mut current,
                    iters,
                    n,
                    &|| BareHeap {
                        heap: BinaryHeap::new(),
                        base: Instant::now(),
                        seq: 0,
                    },
                    &|h: &mut BareHeap, tick| {
                        h.seq += 1;
                        h.heap.push(HeapEntry {
                            deadline: h.base + FAR + TICK * tick as u32,
                            seq: h.seq,
                            slot: h.seq as usize,
                        });
                    },
                )
            })
        });

        let mut current = None;
        g.bench_function("hashed_core_insert", move |b| {
            b.iter_custom(|iters| {
                time_inserts(
                    &mut current,
                    iters,
                    n,
                    &|| HashedCore::<Job>::new(HASHED_SLOTS).expect("slots"),
                    &|core, tick| {
                        black_box(core.insert(tick, noop()));
                    },
                )
            })
        });

        let mut current = None;
        g.bench_function("levels_insert", move |b| {
            b.iter_custom(|iters| {
                time_inserts(
                    &mut current,
                    iters,
                    n,
                    &Levels::<Job>::new,
                    &|levels, tick| {
                        black_box(levels.insert(tick, noop()));
                    },
                )
            })
        });

        let mut current = None;
        g.bench_function("peer_quad_wheel_insert", move |b| {
            b.iter_custom(|iters| {
                time_inserts(
                    &mut current,
                    iters,
                    n,
                    &quad_wheel::QuadWheelWithOverflow::<PeerJob>::default,
                    &|wheel, tick| {
                        wheel
                            .insert_with_delay(PeerJob(noop()), TICK * tick as u32)
                            .expect("at least a tick ahead");
                    },
                )
            })
        });

        let mut current = None;
        g.bench_function("peer_cancellable_insert", move |b| {
            b.iter_custom(|iters| {
                time_inserts(
                    &mut current,
                    iters,
                    n,
                    &|| (cancellable::QuadWheelWithOverflow::<PeerTimer>::new(), 0u64),
                    &|(wheel, next_id), tick| {
                        *next_id += 1;
                        let entry = PeerTimer {
                            id: *next_id,
                            job: noop(),
                        };
                        wheel
                            .insert_ref_with_delay(Rc::new(entry), TICK * tick as u32)
                            .expect("at least a tick ahead");
                    },
                )
            })
        });

        let mut current = None;
        g.bench_function("caller_hashed_wheel_schedule", move |b| {
            b.iter_custom(|iters| {
                time_inserts(
                    &mut current,
                    iters,
                    n,
                    &|| {
                        let config = HashedConfig {
                            tick: TICK,
                            slots: HASHED_SLOTS,
                        };
                        let name = kit::threads::unique_name("bw8h");
                        let wheel =
                            HashedWheel::start(config, Arc::new(OnTicker), &name).expect("start");
                        (wheel, Vec::<hashed::Handle>::with_capacity(2 * n))
                    },
                    &|(wheel, handles), tick| {
                        let delay = FAR + TICK * tick as u32;
                        handles.push(wheel.schedule(delay, noop()).expect("accepted"));
                    },
                )
            })
        });

        let mut current = None;
        g.bench_function("caller_hierarchical_wheel_schedule", move |b| {
            b.iter_custom(|iters| {
                time_inserts(
                    &mut current,
                    iters,
                    n,
                    &|| {
                        let config = HierarchicalConfig { tick: TICK };
                        let name = kit::threads::unique_name("bw8l");
                        let wheel = HierarchicalWheel::start(config, Arc::new(OnTicker), &name)
                            .expect("start");
                        (wheel, Vec::<hierarchical::Handle>::with_capacity(2 * n))
                    },
                    &|(wheel, handles), tick| {
                        let delay = FAR + TICK * tick as u32;
                        handles.push(wheel.schedule(delay, noop()).expect("accepted"));
                    },
                )
            })
        });

        let mut current = None;
        g.bench_function("caller_peer_thread_timer_schedule", move |b| {
            b.iter_custom(|iters| {
                time_inserts(&mut current, iters, n, &PeerThread::new, &|peer, tick| {
                    peer.schedule(FAR + TICK * tick as u32)
                })
            })
        });

        let mut current = None;
        g.bench_function("draw_only", move |b| {
            b.iter_custom(|iters| {
                time_inserts(&mut current, iters, n, &|| (), &|(), tick| {
                    black_box(tick);
                })
            })
        });
        g.finish();
    }
}

criterion_group!(wheel_schedule, benches);

fn group_name(n: usize) -> String {
    format!("wheel_schedule/pending_{n}")
}

/// The table's rows: criterion's function name, and what it measures.
const ROWS: [(&str, &str); 10] = [
    ("heap_timer_schedule", "heap: stage 5 Timer::schedule"),
    ("heap_push", "heap: bare BinaryHeap::push"),
    ("hashed_core_insert", "hashed wheel: HashedCore::insert"),
    ("levels_insert", "hierarchical: Levels::insert"),
    ("peer_quad_wheel_insert", "peer: quad_wheel insert"),
    ("peer_cancellable_insert", "peer: cancellable insert"),
    (
        "caller_hashed_wheel_schedule",
        "caller: HashedWheel::schedule",
    ),
    (
        "caller_hierarchical_wheel_schedule",
        "caller: HierarchicalWheel::schedule",
    ),
    (
        "caller_peer_thread_timer_schedule",
        "caller: peer TimerRef::schedule",
    ),
    ("draw_only", "the draw alone (in every row)"),
];

/// Where criterion writes its results: the order criterion itself looks
/// in, with the bench executable's own target directory in place of
/// `cargo metadata`'s answer (the same directory when cargo runs it).
fn criterion_home() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return Some(PathBuf::from(home));
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return Some(PathBuf::from(target).join("criterion"));
    }
    // target/<profile>/deps/wheel_schedule-<hash>
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.parent()?.join("criterion"))
}

/// Criterion's mean, in ns per insert, for one function at one size, if
/// this run (started at `since`) measured it.
fn mean_ns(home: &std::path::Path, n: usize, function: &str, since: SystemTime) -> Option<f64> {
    // Criterion makes a group name safe for a directory by turning `/`
    // into `_`.
    let path = home
        .join(group_name(n).replace('/', "_"))
        .join(function)
        .join("new/estimates.json");
    let written = std::fs::metadata(&path).ok()?.modified().ok()?;
    if written < since {
        return None; // an older run's, left by a filtered one
    }
    let text = std::fs::read_to_string(&path).ok()?;
    let estimates: serde_json::Value = serde_json::from_str(&text).ok()?;
    estimates["mean"]["point_estimate"].as_f64()
}

/// The summary table and the verdicts. See the module docs.
fn print_table(since: SystemTime) {
    let Some(home) = criterion_home() else {
        println!("(no criterion directory found: no table)");
        return;
    };
    let means: Vec<Vec<Option<f64>>> = ROWS
        .iter()
        .map(|(function, _)| {
            SIZES
                .iter()
                .map(|&n| mean_ns(&home, n, function, since))
                .collect()
        })
        .collect();
    let mean = |function: &str, n: usize| -> Option<f64> {
        let row = ROWS.iter().position(|(f, _)| *f == function)?;
        let col = SIZES.iter().position(|&s| s == n)?;
        means[row][col]
    };
    let cell = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"));

    println!();
    println!(
        "W8 o1_schedule: ns per insert (criterion's mean) with n timers pending; deadlines uniform over (0, 10 s] at 1 ms"
    );
    print!("{:<38}", "n pending:");
    for n in SIZES {
        print!("{n:>10}");
    }
    println!("{:>12}", "10^6/10^3");
    for ((_, label), row) in ROWS.iter().zip(&means) {
        print!("{label:<38}");
        for v in row {
            print!("{:>10}", cell(*v));
        }
        let growth = row[0].zip(row[SIZES.len() - 1]).map(|(a, b)| b / a);
        println!(
            "{:>12}",
            growth.map_or_else(|| "-".to_owned(), |g| format!("{g:.2}x"))
        );
    }
    println!("(caller rows: what the caller pays; the ticker pays the insert, on its own thread)");

    let (small, large) = (SIZES[0], SIZES[SIZES.len() - 1]);
    println!();
    println!("W8 targets, hierarchical wheel (Levels::insert):");
    let verdict = |ok: bool| if ok { "MET" } else { "MISSED" };
    match mean("levels_insert", small).zip(mean("levels_insert", large)) {
        Some((a, b)) => println!(
            "  flat: {b:.1} ns at {large} / {a:.1} ns at {small} = {:.2}x (target at most 2x): {}",
            b / a,
            verdict(b / a <= 2.0)
        ),
        None => println!("  flat: not measured in this run"),
    }
    let levels = mean("levels_insert", large);
    match mean("heap_timer_schedule", large).zip(levels) {
        Some((heap, l)) => println!(
            "  at {large}: Timer::schedule {heap:.1} ns / Levels::insert {l:.1} ns = {:.1}x cheaper (target at least 5x): {}",
            heap / l,
            verdict(heap / l >= 5.0)
        ),
        None => println!("  against the heap Timer: not measured in this run"),
    }
    if let Some((push, l)) = mean("heap_push", large).zip(levels) {
        println!(
            "    (against the bare heap push, the floor of any heap timer: {push:.1} / {l:.1} = {:.1}x; no target)",
            push / l
        );
    }
    for (peer, what) in [
        (
            "peer_quad_wheel_insert",
            "the peer's quad_wheel (no cancel)",
        ),
        (
            "peer_cancellable_insert",
            "the peer's cancellable wheel (its thread timer's)",
        ),
    ] {
        println!("  within 1.2x of {what}:");
        for n in SIZES {
            match mean("levels_insert", n).zip(mean(peer, n)) {
                Some((l, p)) => println!(
                    "    n = {n:>7}: {l:.1} / {p:.1} ns = {:.2}x: {}",
                    l / p,
                    verdict(l / p <= 1.2)
                ),
                None => println!("    n = {n:>7}: not measured in this run"),
            }
        }
    }
}

/// One timer thread's cost over a window of wall time.
struct Idle {
    cpu: Duration,
    switches: u64,
    /// Involuntary ones: preempted, or a `yield` that let another run.
    yields: u64,
    /// The timer's own count of ticks or wake-ups, if it keeps one.
    own: Option<u64>,
    wall: Duration,
}

/// Context switches of thread `tid` so far, voluntary and not. A
/// voluntary one is a time the thread blocked, so each is followed by one
/// wake-up; an involuntary one is a preemption, or a `yield` that gave
/// the core away while the thread stayed ready to run.
fn switches(tid: i32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/self/task/{tid}/status"))
        .expect("the timer thread is alive");
    let field = |name: &str| -> u64 {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("Linux reports {name}"))
    };
    (
        field("voluntary_ctxt_switches:"),
        field("nonvoluntary_ctxt_switches:"),
    )
}

/// Lets the thread named `name` settle (start-up, filing its one timer),
/// then measures it over one second.
fn idle_of(name: &str, own: &dyn Fn() -> Option<u64>) -> Idle {
    let thread = kit::cpu::ThreadCpu::named(name).expect("the timer thread");
    std::thread::sleep(Duration::from_millis(200));
    let (cpu0, sw0, own0, wall0) = (
        thread.used().expect("alive"),
        switches(thread.tid()),
        own(),
        Instant::now(),
    );
    std::thread::sleep(Duration::from_secs(1));
    let (cpu1, sw1, own1, wall1) = (
        thread.used().expect("alive"),
        switches(thread.tid()),
        own(),
        Instant::now(),
    );
    Idle {
        cpu: cpu1 - cpu0,
        switches: sw1.0 - sw0.0,
        yields: sw1.1 - sw0.1,
        own: own0.zip(own1).map(|(a, b)| b - a),
        wall: wall1 - wall0,
    }
}

/// The idle section: one timer 10 s away on each timer. See the module docs.
fn print_idle() {
    const AWAY: Duration = Duration::from_secs(10);
    let mut rows: Vec<(&str, &str, Idle)> = Vec::new();

    let name = kit::threads::unique_name("idle-hw");
    let config = HashedConfig {
        tick: TICK,
        slots: HASHED_SLOTS,
    };
    let wheel = HashedWheel::start(config, Arc::new(OnTicker), &name).expect("start");
    let _handle = wheel.schedule(AWAY, noop()).expect("accepted");
    let idle = idle_of(&name, &|| Some(wheel.ticks()));
    drop(wheel.stop());
    rows.push(("hashed wheel, 1 ms tick", "ticks()", idle));

    let name = kit::threads::unique_name("idle-hi");
    let config = HierarchicalConfig { tick: TICK };
    let wheel = HierarchicalWheel::start(config, Arc::new(OnTicker), &name).expect("start");
    let _handle = wheel.schedule(AWAY, noop()).expect("accepted");
    let idle = idle_of(&name, &|| Some(wheel.wakeups()));
    drop(wheel.stop());
    rows.push(("hierarchical wheel, 1 ms tick", "wakeups()", idle));

    let name = kit::threads::unique_name("idle-ic");
    let timer = Timer::new(&name).expect("spawn");
    let _handle = timer.schedule(AWAY, || {}).expect("accepted");
    let idle = idle_of(&name, &|| None);
    drop(timer);
    rows.push(("stage 5 Timer (heap)", "-", idle));

    // The peer names its thread itself; no other is alive by now.
    let mut peer = PeerThread::new();
    peer.schedule(AWAY);
    let idle = idle_of("timer-thread", &|| None);
    drop(peer);
    rows.push(("peer thread timer (hhwt 1.3)", "-", idle));

    println!();
    println!(
        "Idle cost: one timer 10 s away; the timer thread over about 1 s of wall time (after 200 ms to settle)"
    );
    println!(
        "{:<32}{:>10}{:>12}{:>12}{:>18}",
        "timer", "CPU ms/s", "wake-ups/s", "yields/s", "own count/s"
    );
    for (label, counter, idle) in rows {
        let per_s = |x: f64| x / idle.wall.as_secs_f64();
        let own = idle.own.map_or_else(
            || "-".to_owned(),
            |v| format!("{:.0} {counter}", per_s(v as f64)),
        );
        println!(
            "{label:<32}{:>10.2}{:>12.0}{:>12.0}{own:>18}",
            per_s(idle.cpu.as_secs_f64() * 1e3),
            per_s(idle.switches as f64),
            per_s(idle.yields as f64),
        );
    }
    println!(
        "(wake-ups: the thread's voluntary context switches; yields: its involuntary ones, a preemption"
    );
    println!(" or a yield that gave the core away; both from /proc/self/task/<tid>/status)");
}

/// Keep freed memory in the process: see the module docs.
const TUNABLES: &str = "glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=18446744073709551615";

/// Whether criterion is measuring (`cargo bench`), not testing or listing:
/// only then are the table and the idle section worth printing.
fn benchmarking() -> bool {
    let args: Vec<String> = std::env::args().collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    has("--bench") && !has("--test") && !has("--list") && !has("--profile-time")
}

fn main() {
    if std::env::var_os("GLIBC_TUNABLES").is_none()
        && let Ok(me) = std::env::current_exe()
        && let Ok(status) = std::process::Command::new(me)
            .args(std::env::args_os().skip(1))
            .env("GLIBC_TUNABLES", TUNABLES)
            .status()
    {
        std::process::exit(status.code().unwrap_or(1));
    }
    let since = SystemTime::now();
    wheel_schedule();
    Criterion::default().configure_from_args().final_summary();
    if benchmarking() {
        print_table(since);
        print_idle();
    }
}
