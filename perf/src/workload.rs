//! What the nanosecond benches feed every side alike: how full a
//! structure is when it is timed, which deadlines and closures it gets,
//! and how many operations a round times.
//!
//! **Fair by construction.** Every side gets a *fresh* structure, filled
//! to the same `n` untimed, then a fixed number `k` of timed operations,
//! then it is dropped untimed. No side carries entries another side does
//! not: nothing cancelled lingers in a heap because the bench cancelled it
//! (a peer that only flags a cancelled job would otherwise hold them all).
//!
//! **No timed operation grows a container.** The sizes are `2^j + 1` and
//! `k` is at most `n - 1`: a `Vec` that doubles from empty has room for
//! `2^(j + 1)` entries after the fill, so the `k` timed pushes all fit, on
//! every side (ours and the peers cannot be told to reserve, so this is
//! how each gets the same room). A wheel's per-slot lists are the
//! exception, and the wheel bench says so.
//!
//! **Best case and realistic inputs.** [`Input::Best`] is what the old
//! benches measured: every deadline later than all others (a heap push
//! that never moves up) and a closure that captures nothing (its box
//! allocates nothing). [`Input::Random`] is what a server sees: deadlines
//! drawn at random over an hour (a push sifts up a level or two, on
//! average) and a closure that captures a `u64` (its box allocates). In
//! both, no timed call makes a new head: the random fill starts with one
//! task due before every draw, so no timed call wakes a timer's thread
//! (the `syscalls` bench counts what a new head costs).

use std::hint::black_box;
use std::time::{Duration, Instant};

use crate::rounds::Sample;

/// Far enough that nothing comes due during a run.
pub const FAR: Duration = Duration::from_secs(100 * 3600);

/// The span random deadlines are drawn over, after [`FAR`].
pub const SPAN: Duration = Duration::from_secs(3600);

/// splitmix64: a small generator with a fixed start, so that every side,
/// and every fill, sees the same numbers.
#[derive(Debug, Clone)]
pub struct Draws(u64);

impl Draws {
    /// A generator started at `seed`.
    pub fn new(seed: u64) -> Draws {
        Draws(seed)
    }

    /// The next number.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`, uniform (Lemire's multiply-shift, no division).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// Which inputs a round feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// Every deadline later than all others; a closure that captures
    /// nothing.
    Best,
    /// Deadlines drawn over an hour; a closure that captures a `u64`.
    Random,
}

impl Input {
    /// Both, best case first.
    pub const BOTH: [Input; 2] = [Input::Best, Input::Random];

    /// How the reports name it.
    pub fn label(self) -> &'static str {
        match self {
            Input::Best => "best case",
            Input::Random => "random",
        }
    }
}

/// One call's arguments: a delay, and the value a capturing closure
/// captures (`None`: the closure captures nothing).
#[derive(Debug, Clone, Copy)]
pub struct Call {
    /// From now.
    pub delay: Duration,
    /// What the task's closure captures, if anything.
    pub capture: Option<u64>,
}

/// The calls of one fill and its timed part, the same for every side.
#[derive(Debug, Clone)]
pub struct Calls {
    input: Input,
    draws: Draws,
    first: bool,
}

impl Calls {
    /// The calls for `input`, from the start: every fill replays them.
    pub fn new(input: Input) -> Calls {
        Calls {
            input,
            draws: Draws::new(0x243F_6A88_85A3_08D3),
            first: true,
        }
    }

    /// The next call.
    #[inline]
    pub fn next_call(&mut self) -> Call {
        match self.input {
            Input::Best => Call {
                delay: FAR,
                capture: None,
            },
            Input::Random => {
                let x = self.draws.next_u64();
                let delay = if std::mem::take(&mut self.first) {
                    // Due before every draw: the head for the whole round.
                    FAR - Duration::from_secs(1)
                } else {
                    FAR + Duration::from_nanos(x % SPAN.as_nanos() as u64)
                };
                Call {
                    delay,
                    capture: Some(x),
                }
            }
        }
    }
}

/// How much a round does at one size: fills of `n`, `k` timed operations
/// after each, `fills` fills per round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Entries each fresh structure is filled with, untimed.
    pub n: usize,
    /// Operations timed after each fill.
    pub k: usize,
    /// Fills per round.
    pub fills: usize,
}

impl Plan {
    /// For a size `n = 2^j + 1`: `k` an eighth of `n - 1` (so a timed
    /// call finds from `n` to `1.125 n` pending), and enough fills for at
    /// least `min_ops` timed operations per round.
    ///
    /// # Panics
    /// If `n - 1` is not a power of two at least 8.
    pub fn at(n: usize, min_ops: usize) -> Plan {
        assert!(
            n > 8 && (n - 1).is_power_of_two(),
            "{n} is not 2^j + 1: a fill would leave no known room"
        );
        let k = (n - 1) / 8;
        Plan {
            n,
            k,
            fills: min_ops.div_ceil(k).max(1),
        }
    }

    /// Timed operations per round.
    pub fn ops(self) -> u64 {
        (self.k * self.fills) as u64
    }
}

/// One round of schedules: `plan.fills` times, a fresh structure from
/// `make` gets `plan.n` calls of `schedule` untimed, [`settle`]s, then
/// gets `plan.k` more, timed, then it and every handle are dropped,
/// untimed. Every fill
/// replays the same calls; the timed calls' arguments are drawn before
/// the clock starts. Handles are kept, in a `Vec` reserved for all of
/// them, as a caller that may cancel keeps them.
pub fn schedule_round<T, H>(
    plan: Plan,
    input: Input,
    make: impl Fn() -> T,
    schedule: impl Fn(&T, Call) -> H,
) -> Sample {
    let mut total = Duration::ZERO;
    for _ in 0..plan.fills {
        let subject = make();
        let mut handles = Vec::with_capacity(plan.n + plan.k);
        let mut calls = Calls::new(input);
        for _ in 0..plan.n {
            handles.push(schedule(&subject, calls.next_call()));
        }
        let timed: Vec<Call> = (0..plan.k).map(|_| calls.next_call()).collect();
        settle();
        let start = Instant::now();
        for &call in &timed {
            handles.push(schedule(black_box(&subject), call));
        }
        total += start.elapsed();
        drop(handles);
        drop(subject);
    }
    Sample {
        elapsed: total,
        ops: plan.ops(),
    }
}

/// Lets a freshly started structure's own threads (a timer's, a pool's
/// worker) reach their wait before the clock starts, so that none of them
/// is still starting beside the timed calls: 1 ms, untimed.
pub fn settle() {
    std::thread::sleep(Duration::from_millis(1));
}

/// The sizes the schedule and cancel benches run at: about 10^3, 10^5 and
/// 10^6 (`2^10 + 1`, `2^17 + 1`, `2^20 + 1`); about 10^3 and 10^4 in quick
/// mode.
pub fn sizes() -> Vec<usize> {
    crate::size(
        vec![(1 << 10) + 1, (1 << 17) + 1, (1 << 20) + 1],
        vec![(1 << 10) + 1, (1 << 13) + 1],
    )
}

/// The least count of timed operations per round: 16384, 2048 in quick
/// mode.
pub fn min_ops() -> usize {
    crate::size(1 << 14, 1 << 11)
}

/// "10^3" for 1025, as the reports name a size.
pub fn size_label(n: usize) -> String {
    let power = (n as f64).log10().round() as u32;
    format!("10^{power}")
}

/// Keep freed memory in the process for the whole run: glibc hands large
/// freed blocks back to the kernel, so every fresh fill would fault in new
/// pages (a fault and a zeroed page per 4 KiB) where a long-lived timer
/// reuses its own. The bench runs itself again with `GLIBC_TUNABLES`
/// asking glibc to keep what is freed (no `mmap`, no trimming), unless
/// that variable is set already; it is the same for every side, all in
/// one process.
pub fn keep_freed_memory() {
    const TUNABLES: &str =
        "glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=18446744073709551615";
    if std::env::var_os("GLIBC_TUNABLES").is_none()
        && let Ok(me) = std::env::current_exe()
        && let Ok(status) = std::process::Command::new(me)
            .args(std::env::args_os().skip(1))
            .env("GLIBC_TUNABLES", TUNABLES)
            .status()
    {
        std::process::exit(status.code().unwrap_or(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_stays_within_the_room_a_fill_leaves() {
        for n in [(1 << 10) + 1, (1 << 17) + 1, (1 << 20) + 1] {
            let plan = Plan::at(n, 1 << 14);
            // A Vec doubled from empty holds 2^(j+1) after n = 2^j + 1.
            let room = (n - 1) * 2;
            assert!(plan.n + plan.k <= room, "{plan:?}");
            assert!(plan.ops() >= 1 << 14);
        }
        assert_eq!(Plan::at(1025, 1 << 14).fills, 128);
        assert_eq!(Plan::at((1 << 20) + 1, 1 << 14).fills, 1);
    }

    #[test]
    fn random_calls_start_with_a_head_no_draw_beats() {
        let mut calls = Calls::new(Input::Random);
        let head = calls.next_call().delay;
        for _ in 0..10_000 {
            let c = calls.next_call();
            assert!(c.delay > head && c.delay < FAR + SPAN);
            assert!(c.capture.is_some());
        }
        let mut best = Calls::new(Input::Best);
        let c = best.next_call();
        assert_eq!((c.delay, c.capture), (FAR, None));
    }

    #[test]
    fn sizes_are_named_by_their_power_of_ten() {
        assert_eq!(size_label(1025), "10^3");
        assert_eq!(size_label(8193), "10^4");
        assert_eq!(size_label(131_073), "10^5");
        assert_eq!(size_label(1_048_577), "10^6");
    }

    #[test]
    fn draws_below_stay_below() {
        let mut d = Draws::new(1);
        assert!((0..1000).all(|_| d.below(7) < 7));
    }
}
