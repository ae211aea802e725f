//! The hierarchical wheel's data structure on its own: six levels of 64
//! slots, no threads, no clock. Time is a tick number (`u64`) that the
//! caller moves forward, so a test or a benchmark drives it by hand.
//!
//! A hashed wheel with rounds (Netty's, and this stage's `hashed.rs`) keeps
//! a timer 10^6 ticks away in a ring of 512 slots and looks at it on every
//! revolution: about 2,000 visits before it fires. Levels look at it a
//! handful of times. Level 0 has 64 slots of one tick each; level 1, 64
//! slots of 64 ticks; level 2, of 4,096 ticks; and so on: level 5's slots
//! are 2^30 ticks wide, and the six levels together cover 2^36 ticks
//! ([`RANGE`], about 2.2 years of 1 ms ticks).
//!
//! - **Insert** puts a timer in the level where its deadline's tick number
//!   first differs from now's, six bits to a level: a deadline in now's
//!   64-tick block goes to level 0, one in now's 4,096-tick block to level 1,
//!   and so on. Two bit operations, no search: O(1).
//! - **The next expiration** is the first occupied slot of the lowest
//!   occupied level. Each level keeps a `u64` with one bit per occupied slot,
//!   so finding it is a `trailing_zeros`, never a walk over empty slots.
//! - **Advancing** to a higher level's slot *cascades* it: its timers move
//!   down to the level where they now belong (their deadlines are closer
//!   to now). A timer only ever moves down, so it moves at most once per
//!   level: five moves, however far away it was scheduled.
//! - **Cancel** is O(1): a [`Key`] names the timer's entry, the entry knows
//!   its slot and its position there, and a `swap_remove` takes it out.
//!
//! A deadline past the top level's range is still taken: it *laps* the top
//! level, a round counter in all but name, one extra cascade per 2^36 ticks.
//! The running wheel ([`hierarchical`](crate::hierarchical)) refuses such
//! delays up front; the lap is there so that a ticker that falls behind
//! can never misfile a timer. tokio does not refuse (1.53.1, time/sleep.rs
//! and runtime/time/wheel/mod.rs): it clamps a deadline too far for an
//! `Instant` to about 30 years ahead, and files any deadline beyond its
//! top level's range in the top level, where it laps as here.
//!
//! The design is tokio's time driver wheel (levels of 64 slots, bitmaps,
//! level by the highest differing bit), the same idea as Kafka's
//! hierarchical timing wheels (an overflow wheel above each wheel, buckets
//! in a delay queue, so an idle timer costs nothing) and Linux's timer
//! wheel, which since 4.8 does *not* cascade: a far timer fires at its
//! level's granularity, late by up to an eighth of its delay, because
//! most far timers are timeouts cancelled before they expire. Ours
//! cascades, and fires every timer at its own tick. Written fresh for
//! this book.

/// Slots in one level: 64, so that one `u64` holds a level's occupied bits.
pub const SLOTS: usize = 64;

/// The tick-number bits one level covers: log2 of [`SLOTS`].
const SLOT_BITS: u32 = 6;

/// Levels: six cover 2^36 ticks.
pub const LEVELS: usize = 6;

/// Ticks the levels cover without lapping the top level: 2^36.
pub const RANGE: u64 = 1 << (SLOT_BITS * LEVELS as u32);

/// Names one timer in the [`Levels`], for [`Levels::cancel`].
///
/// A key stays valid while its timer waits, however often the timer
/// cascades. Once the timer fires or is cancelled its entry is reused,
/// with a new generation, so an old key matches nothing: cancelling a
/// timer that already fired can never cancel the stranger that took its
/// place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    index: usize,
    generation: u64,
}

/// Six levels of 64 slots holding values of type `T` until their tick.
/// See the module docs.
pub struct Levels<T> {
    /// The current tick: every timer due at or before it has been handed out.
    now: u64,
    /// One bit per slot that holds a timer, one word per level.
    occupied: [u64; LEVELS],
    /// `LEVELS * SLOTS` lists of entry indices; slot `s` of level `l` is
    /// list `l * SLOTS + s`.
    slots: Vec<Vec<usize>>,
    /// The timers, by index, with stable indices (a slab): a key's index
    /// never changes while the timer moves between slots.
    entries: Vec<Entry<T>>,
    /// Indices of vacant entries, reused before the slab grows.
    free: Vec<usize>,
    len: usize,
    steps: u64,
    /// An empty list swapped in for a slot being expired, so that the
    /// slot's allocation is reused instead of freed.
    spare: Vec<usize>,
}

struct Entry<T> {
    generation: u64,
    timer: Option<Timer<T>>,
}

struct Timer<T> {
    value: T,
    deadline: u64,
    /// The list this timer is in, and its position there.
    slot: usize,
    pos: usize,
}

impl<T> Default for Levels<T> {
    fn default() -> Self {
        Levels::new()
    }
}

impl<T> Levels<T> {
    /// Empty levels at tick 0.
    pub fn new() -> Levels<T> {
        Levels::starting_at(0)
    }

    /// Empty levels at tick `now`: tests start just below a level's
    /// boundary to see timers cross it.
    pub fn starting_at(now: u64) -> Levels<T> {
        Levels {
            now,
            occupied: [0; LEVELS],
            slots: (0..LEVELS * SLOTS).map(|_| Vec::new()).collect(),
            entries: Vec::new(),
            free: Vec::new(),
            len: 0,
            steps: 0,
            spare: Vec::new(),
        }
    }

    /// The current tick.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// How many timers wait.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no timer waits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Where the timer of `key` sits now: its level and its slot there;
    /// `None` once it has fired or been cancelled. (For pictures and
    /// tests: the wheel itself never asks.)
    pub fn whereabouts(&self, key: Key) -> Option<(usize, usize)> {
        let timer = self.entries.get(key.index)?;
        if timer.generation != key.generation {
            return None;
        }
        let list = timer.timer.as_ref()?.slot;
        Some((list / SLOTS, list % SLOTS))
    }

    /// The occupied bitmaps, one word per level: bit `s` of word `l` is
    /// set when slot `s` of level `l` holds a timer.
    pub fn occupied(&self) -> [u64; LEVELS] {
        self.occupied
    }

    /// Work done so far, counted in steps: one per slot written, emptied or
    /// cascaded, and one per timer moved out of a slot (down a level, or
    /// out to the caller). Reading a level's bitmap is not a step: there
    /// are six of them, whatever the number of timers. W8 counts these.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Adds `value`, due at tick `deadline`; one step.
    ///
    /// A deadline at or before now is due at once: the next
    /// [`advance_to`](Levels::advance_to) hands it out. A deadline
    /// [`RANGE`] or more ahead laps the top level (see the module docs).
    pub fn insert(&mut self, deadline: u64, value: T) -> Key {
        let index = match self.free.pop() {
            Some(index) => index,
            None => {
                self.entries.push(Entry {
                    generation: 0,
                    timer: None,
                });
                self.entries.len() - 1
            }
        };
        let entry = &mut self.entries[index];
        entry.timer = Some(Timer {
            value,
            deadline,
            slot: 0,
            pos: 0,
        });
        let key = Key {
            index,
            generation: entry.generation,
        };
        self.place(index, deadline);
        self.len += 1;
        self.steps += 1;
        key
    }

    // ANCHOR: insert
    /// Files entry `index`, due at `deadline`, in the slot where it belongs
    /// as seen from now.
    fn place(&mut self, index: usize, deadline: u64) {
        // A deadline already past waits in now's own slot of level 0, due
        // at once. Filed by its own tick it would land behind now, in a
        // slot the next expiration reads as one revolution ahead.
        let at = deadline.max(self.now);
        let level = level_for(self.now, at);
        let slot = level * SLOTS + slot_for(at, level);
        let list = &mut self.slots[slot];
        let timer = self.entries[index].timer.as_mut().expect("a live entry");
        timer.slot = slot;
        timer.pos = list.len();
        list.push(index);
        self.occupied[level] |= 1 << (slot % SLOTS);
    }
    // ANCHOR_END: insert

    /// Takes the timer `key` names out, if it still waits; one step.
    /// Returns `None` for a timer that fired or was cancelled already.
    pub fn cancel(&mut self, key: Key) -> Option<T> {
        let entry = self.entries.get_mut(key.index)?;
        if entry.generation != key.generation {
            return None;
        }
        let timer = entry.timer.take()?;
        self.unlink(timer.slot, timer.pos);
        self.vacate(key.index);
        self.steps += 1;
        Some(timer.value)
    }

    /// Removes position `pos` from list `slot` in O(1): the last entry of
    /// the list moves into the hole, and is told its new position.
    fn unlink(&mut self, slot: usize, pos: usize) {
        let list = &mut self.slots[slot];
        list.swap_remove(pos);
        if let Some(&moved) = list.get(pos) {
            self.entries[moved]
                .timer
                .as_mut()
                .expect("a live entry")
                .pos = pos;
        }
        if list.is_empty() {
            self.occupied[slot / SLOTS] &= !(1 << (slot % SLOTS));
        }
    }

    /// Frees entry `index` for reuse, under a new generation.
    fn vacate(&mut self, index: usize) {
        self.entries[index].generation += 1;
        self.free.push(index);
        self.len -= 1;
    }

    // ANCHOR: next_expiration
    /// The tick at which the levels next have work: a level-0 slot's timers
    /// come due, or a higher slot must cascade. `None` when empty.
    ///
    /// This is the tick a ticker sleeps until. For a level-0 slot it is the
    /// timers' own deadline; for a higher slot it is the slot's first tick,
    /// when its timers move down (and may come due).
    pub fn next_expiration(&self) -> Option<u64> {
        self.next_slot().map(|(_, _, tick)| tick)
    }

    /// The earliest occupied slot: its level, its index and its tick.
    fn next_slot(&self) -> Option<(usize, usize, u64)> {
        // The lowest occupied level holds the earliest timer: a timer in
        // level l shares now's tick number above level l's bits, so it is
        // due before anything in a level above, which differs from now
        // in a higher bit.
        let level = self.occupied.iter().position(|&bits| bits != 0)?;
        let shift = level as u32 * SLOT_BITS;
        let now_slot = ((self.now >> shift) % SLOTS as u64) as u32;
        // Rotate the bitmap so that now's slot is bit 0; the lowest set bit
        // is then the next occupied slot at or after now's, wrapping past
        // slot 63 to slot 0, found by one instruction instead of a loop.
        let ahead = self.occupied[level].rotate_right(now_slot).trailing_zeros();
        let slot = ((now_slot + ahead) % SLOTS as u32) as usize;
        let level_start = self.now & !((1u64 << (shift + SLOT_BITS)) - 1);
        let mut tick = level_start + ((slot as u64) << shift);
        if level > 0 && tick <= self.now {
            // Only the top level wraps: a slot at or behind now's holds
            // timers of the next 2^36-tick span (or laps beyond it).
            debug_assert_eq!(level, LEVELS - 1);
            tick += RANGE;
        }
        Some((level, slot, tick))
    }
    // ANCHOR_END: next_expiration

    /// Moves time forward to tick `now`, pushing every timer due at or
    /// before it onto `out`, earliest first (timers due on the same tick
    /// come in no particular order). Time never goes back: a `now` behind
    /// the current tick only hands out what is already due.
    pub fn advance_to(&mut self, now: u64, out: &mut Vec<T>) {
        while let Some((level, slot, tick)) = self.next_slot() {
            if tick > now {
                break;
            }
            // Step to that slot's tick, never past a slot not yet looked
            // at: the timers cascading from it are filed as seen from
            // there, not from `now`.
            self.now = self.now.max(tick);
            self.expire(level, slot, out);
        }
        self.now = self.now.max(now);
    }

    // ANCHOR: cascade
    /// Empties slot `slot` of `level` at its tick: timers due now go to
    /// `out`, the others cascade down to a lower level.
    fn expire(&mut self, level: usize, slot: usize, out: &mut Vec<T>) {
        let list = level * SLOTS + slot;
        let spare = std::mem::take(&mut self.spare);
        let mut taken = std::mem::replace(&mut self.slots[list], spare);
        self.occupied[level] &= !(1 << slot);
        self.steps += 1;
        for &index in &taken {
            self.steps += 1;
            let timer = self.entries[index].timer.as_ref().expect("a live entry");
            if timer.deadline <= self.now {
                let timer = self.entries[index].timer.take().expect("a live entry");
                self.vacate(index);
                out.push(timer.value);
            } else {
                // Its deadline now shares more of now's high bits: it
                // belongs to a lower level. Each timer moves down at most
                // once per level (a lap of the top level aside).
                debug_assert!(level > 0, "a level-0 slot holds only due timers");
                let deadline = timer.deadline;
                self.place(index, deadline);
            }
        }
        taken.clear();
        self.spare = taken;
    }
    // ANCHOR_END: cascade

    /// Takes every waiting timer out, in no particular order (a stopping
    /// wheel returns them to its caller).
    pub fn drain(&mut self) -> Vec<T> {
        let mut all = Vec::with_capacity(self.len);
        for index in 0..self.entries.len() {
            if let Some(timer) = self.entries[index].timer.take() {
                self.vacate(index);
                all.push(timer.value);
            }
        }
        self.slots.iter_mut().for_each(Vec::clear);
        self.occupied = [0; LEVELS];
        all
    }
}

// ANCHOR: level_for
/// The level a timer due at `deadline` belongs to, seen from `now`: the
/// level of the highest bit in which the two tick numbers differ.
fn level_for(now: u64, deadline: u64) -> usize {
    // `| 63`: a deadline in now's 64-tick block (or equal to now, where
    // the xor is zero) has its highest "difference" in level 0's bits.
    let differs = (now ^ deadline) | (SLOTS as u64 - 1);
    let highest_bit = 63 - differs.leading_zeros();
    // Beyond the top level's bits: lap the top level.
    ((highest_bit / SLOT_BITS) as usize).min(LEVELS - 1)
}

/// The slot of `level` a timer due at `deadline` sits in: that level's six
/// bits of the tick number.
fn slot_for(deadline: u64, level: usize) -> usize {
    ((deadline >> (level as u32 * SLOT_BITS)) % SLOTS as u64) as usize
}
// ANCHOR_END: level_for

#[cfg(test)]
mod tests {
    use super::*;

    /// Advances to `now` and returns what came due.
    fn due(levels: &mut Levels<u64>, now: u64) -> Vec<u64> {
        let mut out = Vec::new();
        levels.advance_to(now, &mut out);
        out.sort_unstable();
        out
    }

    #[test]
    fn level_is_where_the_deadline_first_differs_from_now() {
        assert_eq!(level_for(0, 0), 0);
        assert_eq!(level_for(0, 63), 0);
        assert_eq!(level_for(0, 64), 1);
        assert_eq!(level_for(0, 4095), 1);
        assert_eq!(level_for(0, 4096), 2);
        assert_eq!(level_for(0, RANGE - 1), 5);
        // Close in time, far in bits: 63 -> 64 crosses a block boundary.
        assert_eq!(level_for(63, 64), 1);
        assert_eq!(level_for(4095, 4096), 2);
        // Beyond the range: the top level.
        assert_eq!(level_for(0, RANGE), 5);
        assert_eq!(level_for(0, u64::MAX), 5);
    }

    #[test]
    fn empty_levels_have_no_next_expiration() {
        let mut levels = Levels::<u64>::new();
        assert_eq!(levels.next_expiration(), None);
        assert!(due(&mut levels, 1_000_000).is_empty());
        assert_eq!(levels.now(), 1_000_000);
    }

    #[test]
    fn a_deadline_equal_to_now_is_due_now() {
        let mut levels = Levels::starting_at(100);
        levels.insert(100, 1);
        assert_eq!(levels.next_expiration(), Some(100));
        assert_eq!(due(&mut levels, 100), [1]);
        assert!(levels.is_empty());
    }

    #[test]
    fn a_deadline_in_the_past_is_due_now_not_a_revolution_later() {
        // 70 is behind now (100) in the same 64-tick block's terms: slot 6
        // of level 0 is behind now's slot 36. Filed there, it would read
        // as due at 134; filed at now, it is due at once.
        let mut levels = Levels::starting_at(100);
        levels.insert(70, 7);
        levels.insert(3, 3);
        assert_eq!(levels.next_expiration(), Some(100));
        assert_eq!(due(&mut levels, 100), [3, 7]);
    }

    #[test]
    fn a_timer_across_a_level_boundary_cascades_at_the_boundary() {
        // now 60, deadline 70: close in time, but 70 is in the next 64-tick
        // block, so it waits in level 1 until tick 64, then in level 0.
        let mut levels = Levels::starting_at(60);
        levels.insert(70, 70);
        assert_eq!(levels.next_expiration(), Some(64));
        assert!(due(&mut levels, 64).is_empty());
        assert_eq!(levels.next_expiration(), Some(70));
        assert!(due(&mut levels, 69).is_empty());
        assert_eq!(due(&mut levels, 70), [70]);
    }

    #[test]
    fn level_zero_wraps_past_slot_63() {
        // now 62 (slot 62); deadlines 63 and 64+1 = 65 (level 1): then from
        // 64, slot 1 of level 0 comes after slot 63 of the block before.
        let mut levels = Levels::starting_at(62);
        levels.insert(63, 63);
        levels.insert(65, 65);
        assert_eq!(levels.next_expiration(), Some(63));
        assert_eq!(due(&mut levels, 63), [63]);
        assert_eq!(levels.next_expiration(), Some(64));
        assert_eq!(due(&mut levels, 65), [65]);
    }

    #[test]
    fn one_advance_far_ahead_hands_out_everything_in_order() {
        let mut levels = Levels::new();
        for deadline in [5_000_000, 3, 70, 4_100, 300_000] {
            levels.insert(deadline, deadline);
        }
        let mut out = Vec::new();
        levels.advance_to(10_000_000, &mut out);
        assert_eq!(out, [3, 70, 4_100, 300_000, 5_000_000]);
    }

    #[test]
    fn a_far_timer_moves_down_at_most_once_per_level() {
        let mut levels = Levels::new();
        levels.insert(1_000_000, ());
        let mut wakes = 0;
        let mut out = Vec::new();
        while out.is_empty() {
            let tick = levels.next_expiration().expect("still waiting");
            assert!(tick <= 1_000_000, "woke past the deadline: {tick}");
            levels.advance_to(tick, &mut out);
            wakes += 1;
        }
        assert_eq!(levels.now(), 1_000_000);
        // Level 3 to 2 to 1 to 0, then due: 4 slots, each with 1 timer.
        assert!(wakes <= LEVELS, "{wakes} wake-ups");
        assert_eq!(levels.steps(), 1 + 2 * wakes as u64);
    }

    #[test]
    fn the_top_level_wraps_and_laps() {
        // Near the end of a 2^36-tick span, a deadline in the next span
        // sits in a top slot behind now's: due a span later, not now.
        let start = RANGE - 10;
        let mut levels = Levels::starting_at(start);
        let next_span = start + (RANGE - 1);
        let laps = start + 3 * RANGE + 5;
        levels.insert(next_span, next_span);
        levels.insert(laps, laps);
        let mut fired = Vec::new();
        let mut wakes = 0;
        while let Some(tick) = levels.next_expiration() {
            assert!(tick > levels.now(), "next {tick} is not ahead");
            let mut out = Vec::new();
            levels.advance_to(tick, &mut out);
            for deadline in out {
                assert_eq!(deadline, tick, "fired at {tick}, due at {deadline}");
                fired.push(deadline);
            }
            wakes += 1;
            assert!(wakes < 40, "lapping without end");
        }
        assert_eq!(fired, [next_span, laps]);
    }

    #[test]
    fn cancel_takes_a_timer_out_and_leaves_its_slot_mates() {
        let mut levels = Levels::new();
        let a = levels.insert(10, 'a');
        let b = levels.insert(10, 'b');
        let c = levels.insert(10, 'c');
        assert_eq!(levels.cancel(a), Some('a'));
        assert_eq!(levels.cancel(a), None, "cancelled twice");
        assert_eq!(levels.len(), 2);
        let mut out = Vec::new();
        levels.advance_to(10, &mut out);
        out.sort_unstable();
        assert_eq!(out, ['b', 'c']);
        assert_eq!(levels.cancel(b), None, "cancelled after it fired");
        assert_eq!(levels.cancel(c), None);
        assert_eq!(levels.next_expiration(), None, "the slot's bit is clear");
    }

    #[test]
    fn an_old_key_cannot_cancel_the_timer_that_reused_its_entry() {
        let mut levels = Levels::new();
        let old = levels.insert(5, 1);
        assert_eq!(levels.cancel(old), Some(1));
        let new = levels.insert(6, 2);
        assert_eq!(old.index, new.index, "the entry is reused");
        assert_eq!(levels.cancel(old), None);
        assert_eq!(levels.cancel(new), Some(2));
    }

    #[test]
    fn cancelling_the_last_timer_of_a_higher_slot_clears_its_bit() {
        let mut levels = Levels::new();
        let far = levels.insert(100_000, 1);
        levels.insert(20, 2);
        assert_eq!(levels.cancel(far), Some(1));
        assert_eq!(levels.next_expiration(), Some(20));
        assert_eq!(due(&mut levels, 1_000_000), [2]);
    }

    /// Against a sorted list, over random deadlines, cancels and jumps of
    /// time: every timer comes out at the first advance that reaches its
    /// deadline, never before, never after.
    #[test]
    fn matches_a_sorted_list_on_random_work() {
        let mut rng = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move |bound: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % bound
        };
        let start = 4096 * 64 - 300; // just below a level-2 boundary
        let mut levels = Levels::starting_at(start);
        let mut waiting: Vec<(u64, Key)> = Vec::new();
        let mut now = start;
        for round in 0..2_000 {
            for _ in 0..next(4) {
                let span = [70, 5_000, 300_000, 20_000_000][next(4) as usize];
                let deadline = now + next(span);
                waiting.push((deadline, levels.insert(deadline, deadline)));
            }
            if !waiting.is_empty() && next(5) == 0 {
                let (deadline, key) = waiting.swap_remove(next(waiting.len() as u64) as usize);
                assert_eq!(levels.cancel(key), Some(deadline));
            }
            let previous = now;
            now += match next(10) {
                0 => 0,
                1..=6 => next(40),
                7 | 8 => next(3_000),
                _ => next(2_000_000),
            };
            let got = due(&mut levels, now);
            let mut want: Vec<u64> = waiting
                .iter()
                .map(|&(deadline, _)| deadline)
                .filter(|&deadline| deadline <= now)
                .collect();
            want.sort_unstable();
            waiting.retain(|&(deadline, _)| deadline > now);
            assert_eq!(got, want, "round {round}: advance {previous} -> {now}");
            assert_eq!(levels.len(), waiting.len());
            if let Some(tick) = levels.next_expiration() {
                let earliest = waiting.iter().map(|&(d, _)| d).min().unwrap();
                assert!(
                    tick > now && tick <= earliest,
                    "next {tick}, earliest {earliest}"
                );
            }
        }
    }

    #[test]
    fn drain_takes_everything_and_leaves_the_levels_empty() {
        let mut levels = Levels::new();
        for deadline in [1, 100, 10_000, 1_000_000] {
            levels.insert(deadline, deadline);
        }
        let mut all = levels.drain();
        all.sort_unstable();
        assert_eq!(all, [1, 100, 10_000, 1_000_000]);
        assert!(levels.is_empty());
        assert_eq!(levels.next_expiration(), None);
    }
}
