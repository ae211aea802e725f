//! Leader-successor: the JDK's leader-follower one step further. Besides
//! the leader, one more idle taker, the *successor*, waits timed for the
//! item that comes after the head; the others wait untimed (T10, ours).
//!
//! Leader-follower (delayed_queue.rs, `leader_follower`) pays two wake-ups
//! for every task that fires while more are queued: the leader wakes at the
//! head's deadline (one), takes the head, and wakes a follower to lead for
//! the next one (two), which then waits timed. The second wake-up exists
//! only because nobody was timing the next deadline yet.
//!
//! So let somebody time it in advance. The *second* is the item that
//! becomes the head when the head is taken: the earliest of the head's
//! children in the heap. The successor waits timed for the second's
//! deadline. When the leader takes the head, the second *is* the new head,
//! and the successor, already parked until exactly that deadline, is made
//! the leader where it sleeps: no notify, no wake-up. The successor slot
//! is empty now, and the taker that took the head fills it when it comes
//! back for more: it is awake anyway. In the common case (a task shorter
//! than the gap to the deadline after next) a fired task costs one
//! wake-up: the leader's own.
//!
//! The rule that keeps it correct is the JDK's, untouched: **the head
//! always has a taker waiting timed for it, or one on its way** (notified,
//! or awake and about to look). The successor only saves wake-ups; when
//! there is none, the leader hands on as in the JDK. Every change to the
//! heap is checked against two facts, which `offered` and `wait_for` keep:
//!
//! - the leader's time is never later than the head's deadline;
//! - the successor's time is never later than the second's deadline.
//!
//! An earlier time is harmless (the taker wakes early, looks, and waits
//! again: a wake-up, no lateness); a later one would oversleep. The cases:
//!
//! - **A new head** (`offer`): the leader timed the old head, which is now
//!   the second (it moved down one level, and it comes before every other
//!   item): the leader becomes the successor, on time to the nanosecond.
//!   The old successor timed the old second, now third: too late, it loses
//!   the role. It stays parked until its old time, then wakes, finds it has
//!   no role, and looks again: one wasted wake-up, nothing late. Nobody
//!   times the new head: clear the leader and wake one taker, as the JDK.
//! - **A new second** (`offer`): the successor's time is now too late.
//!   Clear it; if there was one, wake one taker to time the new second
//!   (the old successor wakes at its old time, as above). If there was
//!   none, wake nobody: the second was untimed already, and the leader's
//!   hand-on covers it.
//! - **The head taken**: the successor becomes the leader (its time is the
//!   new head's deadline). With no successor, the leader hands on: it
//!   wakes one taker when it leaves, as the JDK. A taker that takes the
//!   head while somebody else still leads (both woke near the same time)
//!   leaves that leader alone: its time has passed, it is waking, and it
//!   will look again. `State::pop` does the promotion, so that every way
//!   out of the heap (`poll_now` too) keeps it.
//! - **An item removed** (cancel), the head or the second: what comes next
//!   is never earlier than what left, so both times become early at worst.
//!   A leader or successor timed for an item that no longer exists wakes
//!   at that time and looks again. `remove_item` needs no change.
//! - **A notify that wakes the "wrong" taker**: `notify_one` wakes any
//!   waiter, the leader or the successor included. A taker holds a role
//!   only while it is parked: whoever comes back from a wait, for any
//!   reason, first gives up whatever role it holds (one given to it while
//!   it slept included), then looks at the heap afresh, and takes the best
//!   free role: leader, then successor, then follower. So a woken
//!   successor answers a notify meant for the head by leading, and a woken
//!   leader leads again; the worst a wrong wake-up does is leave the
//!   successor slot empty (the JDK's cost, not a lateness).
//! - **A taker that leaves** (interrupt, or its `poll` limit): it gave up
//!   its role when it woke. If that leaves the head untimed, it wakes one
//!   taker on its way out (the JDK's hand-on). An untimed second needs no
//!   notify: a wake-up now to time it would cost what the leader's hand-on
//!   costs later, and nothing at all if a taker comes back first.
//! - **A `poll` limit earlier than a deadline**: such a taker takes no role
//!   it cannot keep. It leads only if the head is due by its limit, and
//!   succeeds only if the second is; otherwise it follows, until its limit.
//!
//! Identities are the per-call numbers `me`, as in `leader_follower`.

use std::sync::Arc;

use interrupt_cancel::interrupt::{InterruptToken, Interrupted};

use crate::deadline::Deadline;
use crate::delayed_queue::{ARITY, Delayed, Shared, State};
use crate::sync::MutexGuard;

/// Waits until the head is due, or until `limit`: as leader, successor, or
/// follower, whichever role is free and fits.
pub(crate) fn wait_for<T: Delayed + ?Sized>(
    shared: &Shared<T>,
    state: &mut MutexGuard<'_, State<T>>,
    limit: Option<Deadline>,
    token: &InterruptToken,
) -> Result<Option<Arc<T>>, Interrupted> {
    let me = state.next_taker;
    state.next_taker += 1;
    // A role this call may take: its deadline comes by our own limit.
    let fits = |due: Deadline| limit.is_none_or(|limit| due <= limit);
    let taken = loop {
        let now = Deadline::now();
        let head = state.head();
        if head.is_some_and(|due| due <= now) {
            // Promotes the successor, if any, to leader (`State::pop`).
            break Ok(state.pop());
        }
        if let Err(interrupted) = token.check() {
            break Err(interrupted);
        }
        if limit.is_some_and(|limit| limit <= now) {
            break Ok(None);
        }
        // ANCHOR: successor
        match (head, state.second()) {
            // Nobody times the head: lead.
            (Some(due), _) if state.leader.is_none() && fits(due) => {
                state.leader = Some(me);
                shared.park(state, Some(due));
            }
            // The head is timed, the next one is not: succeed. When the
            // leader takes the head, we lead without being woken.
            (_, Some(next)) if state.successor.is_none() && fits(next) => {
                state.successor = Some(me);
                shared.park(state, Some(next));
            }
            // Both are timed (or none fits our limit): follow.
            _ => shared.park(state, limit),
        }
        // A role is held only while parked. Whatever woke us (our time, a
        // notify meant for someone else, a role given while we slept), we
        // give it up and look again with the lock held.
        if state.leader == Some(me) {
            state.leader = None;
        }
        if state.successor == Some(me) {
            state.successor = None;
        }
        // ANCHOR_END: successor
    };
    // The head must never be left untimed. After a take with a successor,
    // the successor leads and nobody needs waking; otherwise wake one.
    if state.leader.is_none() && state.head().is_some() {
        shared.notify_one();
    }
    taken
}

// ANCHOR: offer_wakes_successor
/// What `offer` does once the new item sits at `at` in the heap.
#[inline]
pub(crate) fn offered<T: Delayed + ?Sized>(shared: &Shared<T>, state: &mut State<T>, at: usize) {
    if at == 0 {
        // A new head. The old head is now the second, and the leader timed
        // exactly it: the leader succeeds. The old successor timed an item
        // that is third now: it loses the role. The new head is untimed:
        // wake one taker to lead.
        state.successor = state.leader.take();
        shared.notify_one();
    } else if at <= ARITY && state.second_index() == Some(at) {
        // A new second: the successor's time is too late. Wake one taker to
        // time it, if somebody was timing the old one; if nobody was, the
        // leader's hand-on covers it, as before.
        if state.successor.take().is_some() {
            shared.notify_one();
        }
    }
}
// ANCHOR_END: offer_wakes_successor
