//! The hashed wheel itself, with no thread and no clock: a ring of
//! buckets, and time as a tick number that only [`HashedCore::advance`]
//! moves. Everything here runs on one thread, the ticker's, so nothing is
//! atomic and nothing races; a test drives it tick by tick, and a benchmark
//! measures it alone. [`hashed`](crate::hashed) puts a thread and a clock
//! round it.
//!
//! Three things make it right where the CAS hashed wheel timer post's
//! wheel goes wrong:
//!
//! - **Deadlines are tick numbers, rounded up.** A task due at 25 ms on a
//!   10 ms wheel is due at tick 3 (30 ms), never tick 2 (20 ms):
//!   [`ticks_for`] divides with the ceiling. Rounding down, or truncating
//!   the delay as the post does, fires early. Rounding up costs at most one
//!   tick of lateness: W6.
//! - **Remaining rounds** (as Netty's HashedWheelTimer keeps them). A task
//!   due 2.5 revolutions ahead sits in its bucket while the cursor passes
//!   it twice, counting `rounds` down; it fires on the third visit. The
//!   post's wheel keeps no rounds, so such a task fires on the first visit,
//!   two revolutions early (W3).
//! - **O(1) cancel.** A bucket is a `Vec` of slab indexes; an entry knows
//!   its bucket and its position there, so removing it is a `swap_remove`
//!   and one fix-up of the entry that moved into its place. No search.
//!
//! Every operation counts its work in [`HashedCore::steps`] (slab slots and
//! bucket positions touched, entries moved), so a test can show that an
//! insert or a cancel costs the same with a thousand tasks pending as with
//! a hundred thousand. A `Vec` that grows copies its items, once in a
//! while; that amortised O(1) is not counted (a heap pays it too).

use std::time::Duration;

use crate::error::ConfigError;

/// The tick a deadline falls in: `deadline / tick`, rounded **up**, so that
/// the tick's instant is never before the deadline. `None` if the count
/// does not fit in a `u64` (or `tick` is zero).
///
/// ```
/// use std::time::Duration;
/// use wheel::hashed_core::ticks_for;
/// let tick = Duration::from_millis(10);
/// assert_eq!(ticks_for(Duration::ZERO, tick), Some(0));
/// assert_eq!(ticks_for(Duration::from_millis(10), tick), Some(1));
/// assert_eq!(ticks_for(Duration::from_millis(25), tick), Some(3));
/// assert_eq!(ticks_for(Duration::MAX, tick), None);
/// ```
// ANCHOR: ticks_for
pub fn ticks_for(deadline: Duration, tick: Duration) -> Option<u64> {
    let (deadline, tick) = (deadline.as_nanos(), tick.as_nanos());
    match (u64::try_from(deadline), u64::try_from(tick)) {
        (_, Ok(0)) => None,
        // Both under 584 years, as every real deadline is: one 64-bit
        // division. (A u128 one is two library calls, a tenth of what a
        // schedule costs its caller.)
        (Ok(deadline), Ok(tick)) => Some(deadline.div_ceil(tick)),
        // Duration::MAX is about 1.8e28 ns, which no u64 holds: divide in
        // u128, and the conversion says whether the tick count fits.
        _ => u64::try_from(deadline.div_ceil(tick)).ok(),
    }
}
// ANCHOR_END: ticks_for

/// Names one entry of a [`HashedCore`]: its slab index and the generation
/// of that slab slot. A key whose entry has fired or been cancelled is
/// stale: the slot's generation has moved on, so the key can never reach
/// an entry inserted later into the same slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    index: usize,
    generation: u64,
}

/// One pending task, filed in a bucket.
struct Entry<T> {
    item: T,
    /// The tick it is due at: it fires when the wheel expires this tick.
    due: u64,
    /// How many more times the cursor passes its bucket before it fires.
    rounds: u64,
    /// Its bucket, and its position in that bucket's list.
    bucket: usize,
    pos: usize,
}

/// A slab slot: an entry, or a hole waiting on the free list.
struct Slot<T> {
    generation: u64,
    entry: Option<Entry<T>>,
}

/// A hashed timing wheel of `slots` buckets, driven one tick at a time.
/// See the module docs.
pub struct HashedCore<T> {
    /// Bucket `b` holds the slab indexes of the entries due at ticks
    /// `t` with `t % slots == b`.
    buckets: Vec<Vec<usize>>,
    slab: Vec<Slot<T>>,
    /// Slab slots free for reuse.
    free: Vec<usize>,
    /// The last tick expired. The next [`advance`](Self::advance) expires
    /// `now + 1`.
    now: u64,
    len: usize,
    steps: u64,
}

impl<T> HashedCore<T> {
    /// An empty wheel of `slots` buckets at tick 0.
    ///
    /// # Errors
    /// [`ConfigError::ZeroSlots`] for a wheel of no buckets.
    pub fn new(slots: usize) -> Result<HashedCore<T>, ConfigError> {
        if slots == 0 {
            return Err(ConfigError::ZeroSlots);
        }
        Ok(HashedCore {
            buckets: (0..slots).map(|_| Vec::new()).collect(),
            slab: Vec::new(),
            free: Vec::new(),
            now: 0,
            len: 0,
            steps: 0,
        })
    }

    /// How many buckets the ring has.
    pub fn slots(&self) -> usize {
        self.buckets.len()
    }

    /// The last tick expired (0 before the first [`advance`](Self::advance)).
    pub fn now(&self) -> u64 {
        self.now
    }

    /// How many entries are pending.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no entry is pending.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The work done so far: slab slots and bucket positions touched,
    /// entries moved or visited. Read it before and after an operation to
    /// see what the operation cost.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Files `item` to fire at tick `due`. A tick already expired (`due <=
    /// now`) cannot come round again: the item fires at the next tick,
    /// `now + 1`, late but never lost. O(1).
    // ANCHOR: insert
    pub fn insert(&mut self, due: u64, item: T) -> Key {
        let due = due.max(self.now + 1);
        let slots = self.buckets.len() as u64;
        // The cursor visits the bucket `ahead % slots` ticks from the next
        // one, then once more every revolution; `rounds` counts the visits
        // the entry must sit through before its own.
        let ahead = due - (self.now + 1);
        let rounds = ahead / slots;
        let bucket = (due % slots) as usize;
        let pos = self.buckets[bucket].len();
        let entry = Entry {
            item,
            due,
            rounds,
            bucket,
            pos,
        };
        let index = match self.free.pop() {
            Some(index) => {
                self.slab[index].entry = Some(entry);
                index
            }
            None => {
                self.slab.push(Slot {
                    generation: 0,
                    entry: Some(entry),
                });
                self.slab.len() - 1
            }
        };
        self.buckets[bucket].push(index);
        self.len += 1;
        self.steps += 2; // one slab slot, one bucket position
        Key {
            index,
            generation: self.slab[index].generation,
        }
    }
    // ANCHOR_END: insert

    /// The item `key` names, if it is still pending.
    pub fn get(&self, key: Key) -> Option<&T> {
        self.entry(key).map(|e| &e.item)
    }

    /// The tick the entry `key` names fires at, if it is still pending.
    pub fn due(&self, key: Key) -> Option<u64> {
        self.entry(key).map(|e| e.due)
    }

    /// How many more times the cursor passes the entry's bucket before it
    /// fires, if it is still pending.
    pub fn rounds(&self, key: Key) -> Option<u64> {
        self.entry(key).map(|e| e.rounds)
    }

    fn entry(&self, key: Key) -> Option<&Entry<T>> {
        let slot = self.slab.get(key.index)?;
        if slot.generation != key.generation {
            return None;
        }
        slot.entry.as_ref()
    }

    /// Takes the entry `key` names out of the wheel and gives its item
    /// back; `None` if it has fired or was cancelled already. O(1): the
    /// entry knows where it sits, and the bucket's last entry moves into
    /// its place.
    // ANCHOR: cancel
    pub fn cancel(&mut self, key: Key) -> Option<T> {
        self.entry(key)?;
        let entry = self.vacate(key.index);
        let list = &mut self.buckets[entry.bucket];
        list.swap_remove(entry.pos);
        self.steps += 2; // the slab slot, the bucket position
        if let Some(&moved) = list.get(entry.pos) {
            // The bucket's last entry now sits where the cancelled one
            // did: tell it, or its own cancel would remove a stranger.
            if let Some(e) = self.slab[moved].entry.as_mut() {
                e.pos = entry.pos;
            }
            self.steps += 1;
        }
        Some(entry.item)
    }
    // ANCHOR_END: cancel

    /// Empties slab slot `index` and puts it on the free list with a new
    /// generation, so that every key to the old entry goes stale.
    fn vacate(&mut self, index: usize) -> Entry<T> {
        let slot = &mut self.slab[index];
        let entry = slot.entry.take().expect("vacate: a live slot");
        slot.generation += 1;
        self.free.push(index);
        self.len -= 1;
        entry
    }

    /// Moves time on by one tick, to `now + 1`, and expires that tick's
    /// bucket: entries with no rounds left go into `fired` (in the order
    /// they were filed), the others count one round down and stay. Returns
    /// the tick just expired. Costs one step per entry in the bucket.
    // ANCHOR: advance
    pub fn advance(&mut self, fired: &mut Vec<T>) -> u64 {
        self.now += 1;
        let now = self.now;
        let bucket = (now % self.buckets.len() as u64) as usize;
        let (list, slab, free) = (&mut self.buckets[bucket], &mut self.slab, &mut self.free);
        let mut kept = 0;
        let before = list.len();
        list.retain(|&index| {
            let slot = &mut slab[index];
            let entry = slot.entry.as_mut().expect("a filed entry is live");
            // ANCHOR: rounds
            if entry.rounds > 0 {
                // Not this revolution: the cursor will be back in `slots`
                // ticks. Without this count the entry would fire now,
                // whole revolutions early (the post's W3).
                entry.rounds -= 1;
                entry.pos = kept;
                kept += 1;
                return true;
            }
            // ANCHOR_END: rounds
            // Never early: rounds and bucket were computed from `due`,
            // so the last visit is the due tick itself.
            debug_assert_eq!(entry.due, now, "an entry fired at the wrong tick");
            let entry = slot.entry.take().expect("a filed entry is live");
            slot.generation += 1;
            free.push(index);
            fired.push(entry.item);
            false
        });
        self.len -= before - kept;
        self.steps += before as u64;
        now
    }
    // ANCHOR_END: advance

    /// Takes every pending item out, leaving the wheel empty at the same
    /// tick: what a stopped wheel hands back.
    pub fn drain(&mut self) -> Vec<T> {
        let mut items = Vec::with_capacity(self.len);
        for list in &mut self.buckets {
            for index in list.drain(..) {
                let slot = &mut self.slab[index];
                if let Some(entry) = slot.entry.take() {
                    slot.generation += 1;
                    self.free.push(index);
                    items.push(entry.item);
                }
            }
        }
        self.len = 0;
        items
    }
}

impl<T> std::fmt::Debug for HashedCore<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HashedCore")
            .field("slots", &self.buckets.len())
            .field("now", &self.now)
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_fires_at_its_due_tick_and_not_before() {
        let mut core = HashedCore::new(4).unwrap();
        let key = core.insert(10, "ten");
        assert_eq!(core.rounds(key), Some(2)); // ticks 2 and 6 pass it by
        let mut fired = Vec::new();
        for tick in 1..10 {
            assert_eq!(core.advance(&mut fired), tick);
            assert!(fired.is_empty(), "fired at tick {tick}");
        }
        assert_eq!(core.advance(&mut fired), 10);
        assert_eq!(fired, ["ten"]);
        assert!(core.is_empty());
        assert_eq!(core.get(key), None, "the key is stale now");
    }

    #[test]
    fn a_due_tick_already_expired_fires_at_the_next() {
        let mut core = HashedCore::new(4).unwrap();
        let mut fired = Vec::new();
        for _ in 0..5 {
            core.advance(&mut fired);
        }
        let key = core.insert(2, "late");
        assert_eq!(core.due(key), Some(6));
        core.advance(&mut fired);
        assert_eq!(fired, ["late"]);
    }

    #[test]
    fn cancel_fixes_up_the_entry_that_moved() {
        let mut core = HashedCore::new(2).unwrap();
        let a = core.insert(2, 'a');
        let b = core.insert(2, 'b');
        let c = core.insert(2, 'c');
        assert_eq!(core.cancel(a), Some('a'));
        assert_eq!(core.cancel(a), None, "twice");
        // 'c' moved into a's place; cancelling it must find it there.
        assert_eq!(core.cancel(c), Some('c'));
        let reused = core.insert(2, 'd');
        assert_eq!(core.get(a), None, "a stale key never reaches a new entry");
        assert_eq!(core.get(reused), Some(&'d'));
        let mut fired = Vec::new();
        core.advance(&mut fired);
        core.advance(&mut fired);
        assert_eq!(fired, ['b', 'd']);
        assert_eq!(core.cancel(b), None, "after it fired");
    }

    #[test]
    fn drain_takes_everything() {
        let mut core = HashedCore::new(3).unwrap();
        for due in 0..10 {
            core.insert(due, due);
        }
        let mut items = core.drain();
        items.sort_unstable();
        assert_eq!(items, (0..10).collect::<Vec<_>>());
        assert!(core.is_empty());
    }

    #[test]
    fn zero_slots_is_an_error() {
        assert_eq!(
            HashedCore::<()>::new(0).unwrap_err(),
            ConfigError::ZeroSlots
        );
    }
}
