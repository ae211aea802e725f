//! The ctl word (T4): the pool's run state and its worker count, packed in
//! one `AtomicU32` and changed only by compare-and-swap.
//!
//! Two facts decide almost everything the pool does: may it take work (the
//! run state), and how many workers has it (the count). `execute` reads
//! both at once; a worker that decides to exit must lower the count only if
//! neither changed since it looked. With two atomics there would be a
//! moment when one had changed and the other not yet, and a thread reading
//! between them would act on a state that never existed (a worker count
//! already lowered by a pool still "running", say). One word, one CAS:
//! every change is to both at once or to neither.
//!
//! The layout is ThreadPoolExecutor's, unsigned: the state in the top three
//! bits, the count in the other 29, so at most [`CAPACITY`] workers (about
//! 537 million). Because the state sits above the count, comparing whole
//! words compares states: "at least SHUTDOWN" is `word >= SHUTDOWN << 29`,
//! whatever the count, and no unpacking is needed on the hot path.
//!
//! The states only move forward:
//!
//! ```text
//! RUNNING ──shutdown──> SHUTDOWN ──queue and pool empty──┐
//!    │                     │                             v
//!    └───shutdown_now──────┴──> STOP ──pool empty──> TIDYING ──terminated hook ran──> TERMINATED
//! ```
//!
//! Every operation here is SeqCst: the word is read far more often than it
//! is written (once per `execute`, twice per worker life), and its writes
//! must be seen in one order by every thread.

use std::fmt;

use crate::sync::AtomicU32;
use std::sync::atomic::Ordering::SeqCst;

/// Bits of the word that hold the worker count.
pub const COUNT_BITS: u32 = u32::BITS - 3;

/// The most workers the word can count: `2^29 - 1`.
pub const CAPACITY: usize = (1 << COUNT_BITS) - 1;

const COUNT_MASK: u32 = (1 << COUNT_BITS) - 1;

// ANCHOR: states
/// Where the pool is in its life. The order is the order of the word: a
/// later state compares greater.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RunState {
    /// Takes new tasks and runs queued ones.
    Running = 0,
    /// After `shutdown`: takes no new tasks, still runs the queued ones.
    Shutdown = 1,
    /// After `shutdown_now`: takes no new tasks, runs no queued ones, and
    /// has interrupted the running ones.
    Stop = 2,
    /// Every task is over and no worker is left; the terminated hook runs.
    Tidying = 3,
    /// The terminated hook has returned.
    Terminated = 4,
}
// ANCHOR_END: states

impl RunState {
    /// The state's bits in place: the smallest word in this state.
    #[inline]
    const fn bits(self) -> u32 {
        (self as u32) << COUNT_BITS
    }

    fn of_bits(bits: u32) -> RunState {
        match bits >> COUNT_BITS {
            0 => RunState::Running,
            1 => RunState::Shutdown,
            2 => RunState::Stop,
            3 => RunState::Tidying,
            _ => RunState::Terminated,
        }
    }
}

/// One value of the ctl word: a run state and a worker count, read
/// together.
///
/// ```
/// use threadpool_executor::ctl::{RunState, Word};
///
/// let word = Word::new(RunState::Shutdown, 3);
/// assert_eq!(word.run_state(), RunState::Shutdown);
/// assert_eq!(word.worker_count(), 3);
/// assert!(!word.is_running());
/// assert!(word.at_least(RunState::Shutdown) && word.less_than(RunState::Stop));
/// // The state decides the comparison, whatever the counts.
/// assert!(Word::new(RunState::Running, 1000) < Word::new(RunState::Shutdown, 0));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Word(u32);

// ANCHOR: word
impl Word {
    /// The word for `state` with `count` workers.
    ///
    /// # Panics
    /// If `count` is more than [`CAPACITY`].
    pub fn new(state: RunState, count: usize) -> Word {
        assert!(count <= CAPACITY, "{count} workers do not fit in the word");
        Word(state.bits() | count as u32)
    }

    /// The run state, from the top three bits.
    #[inline]
    pub fn run_state(self) -> RunState {
        RunState::of_bits(self.0 & !COUNT_MASK)
    }

    /// The worker count, from the low 29 bits.
    #[inline]
    pub fn worker_count(self) -> usize {
        (self.0 & COUNT_MASK) as usize
    }

    /// Whether the pool takes new tasks: one comparison, no unpacking.
    #[inline]
    pub fn is_running(self) -> bool {
        self.0 < RunState::Shutdown.bits()
    }

    /// Whether the state is `state` or later.
    #[inline]
    pub fn at_least(self, state: RunState) -> bool {
        self.0 >= state.bits()
    }

    /// Whether the state is before `state`.
    #[inline]
    pub fn less_than(self, state: RunState) -> bool {
        self.0 < state.bits()
    }
    // ANCHOR_END: word

    /// The raw bits, as the atomic holds them.
    #[inline]
    pub fn bits(self) -> u32 {
        self.0
    }
}

impl fmt::Debug for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Word({:?}, {} workers)",
            self.run_state(),
            self.worker_count()
        )
    }
}

/// The atomic ctl word. See the module docs.
///
/// ```
/// use threadpool_executor::ctl::{Ctl, RunState};
///
/// let ctl = Ctl::new();
/// let seen = ctl.get();
/// assert!(ctl.compare_and_increment(seen), "nobody changed it meanwhile");
/// assert!(!ctl.compare_and_increment(seen), "stale: the count moved");
/// ctl.advance_run_state(RunState::Shutdown);
/// assert_eq!(ctl.get().run_state(), RunState::Shutdown);
/// assert_eq!(ctl.get().worker_count(), 1, "the count is kept");
/// ```
pub struct Ctl(AtomicU32);

impl Default for Ctl {
    fn default() -> Self {
        Ctl::new()
    }
}

// ANCHOR: ctl
impl Ctl {
    /// RUNNING, with no workers.
    pub fn new() -> Ctl {
        Ctl(AtomicU32::new(Word::new(RunState::Running, 0).0))
    }

    /// The current word.
    #[inline]
    pub fn get(&self) -> Word {
        Word(self.0.load(SeqCst))
    }

    /// One more worker, if the word is still `expect`: whoever saw the
    /// state and count that allow a new worker gets it, and a thread whose
    /// view went stale must look again.
    #[inline]
    pub fn compare_and_increment(&self, expect: Word) -> bool {
        debug_assert!(expect.worker_count() < CAPACITY);
        self.compare_and_set(expect, Word(expect.0 + 1))
    }

    /// One worker fewer, if the word is still `expect`: how an idle worker
    /// leaves, so that two of them cannot both see "one above core" and
    /// both leave.
    #[inline]
    pub fn compare_and_decrement(&self, expect: Word) -> bool {
        debug_assert!(expect.worker_count() > 0);
        self.compare_and_set(expect, Word(expect.0 - 1))
    }
    // ANCHOR_END: ctl

    /// One worker fewer, whatever the word: for a worker that died of a
    /// panic, which leaves without asking.
    pub fn decrement(&self) {
        let before = Word(self.0.fetch_sub(1, SeqCst));
        debug_assert!(before.worker_count() > 0, "decremented below zero");
    }

    /// Moves the state forward to `target` (SHUTDOWN or STOP), keeping the
    /// count; does nothing if the state is already there or later.
    pub fn advance_run_state(&self, target: RunState) {
        debug_assert!(matches!(target, RunState::Shutdown | RunState::Stop));
        let mut word = self.get();
        while !word.at_least(target) {
            match self.0.compare_exchange(
                word.0,
                Word::new(target, word.worker_count()).0,
                SeqCst,
                SeqCst,
            ) {
                Ok(_) => return,
                Err(now) => word = Word(now),
            }
        }
    }

    /// Replaces `expect` with `new`, if the word is still `expect`.
    #[inline]
    pub fn compare_and_set(&self, expect: Word, new: Word) -> bool {
        self.0
            .compare_exchange(expect.0, new.0, SeqCst, SeqCst)
            .is_ok()
    }

    /// Stores `word`: only for TIDYING to TERMINATED, which no other
    /// thread can race (nothing changes a TIDYING word but its owner).
    pub fn set(&self, word: Word) {
        self.0.store(word.0, SeqCst);
    }
}
