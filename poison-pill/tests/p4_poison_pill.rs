//! P4 `poison_pill` (fix): `cancel` puts a pill into the queue that sorts
//! before every task, and the thread, whose only blocking call is that
//! queue's `take`, takes it and ends. Then the Rust idiom: the timer drops
//! the last `Sender` of its channel, and the thread's `recv` returns the
//! disconnect.
//!
//! The proofs that the pill closes P1, P2 and P3 at their pause points are
//! the `_fixed` tests in p1_*.rs, p2_*.rs and p3_*.rs. Here: both versions
//! stop cleanly in each of the article's four situations, the pill
//! overtakes tasks that are already due, and the channel's disconnect
//! overtakes tasks sent before it.
#![cfg(not(loom))]

mod support;

use std::time::Duration;

use kit::pause::Pause;
use kit::{Recorder, ms, threads};
use poison_pill::{disconnect, poison_pill as pill};
use support::{MARGIN_MS, Situation, Version, cancel_in};

const SITUATIONS: [Situation; 4] = [
    Situation::RunningQueueEmpty,
    Situation::RunningQueued,
    Situation::IdleQueueEmpty,
    Situation::IdleQueued,
];

fn stops_in_every_situation<T: Version>(prefix: &str) {
    for situation in SITUATIONS {
        cancel_in::<T>(prefix, situation)
            .assert_clean_stop(&format!("P4 {}, {situation:?}", T::FILE));
    }
}

#[test]
fn p4_poison_pill_stops_in_every_situation() {
    stops_in_every_situation::<pill::Timer>("p4-pill");
}

#[test]
fn p4_disconnect_stops_in_every_situation() {
    stops_in_every_situation::<disconnect::Timer>("p4-disc");
}

#[test]
fn p4_poison_pill_overtakes_due_tasks() {
    // Three tasks are due at once, queued behind a running task; the pill
    // comes after them and still goes first.
    let run = cancel_in::<pill::Timer>("p4-first", Situation::RunningQueued);
    assert!(run.running_finished_after_cancel, "{}", run.rec.log());
    assert_eq!(
        run.queued_ran,
        0,
        "a due task ran before the pill\n{}",
        run.rec.log()
    );
}

#[test]
fn p4_disconnect_overtakes_tasks_sent_before_it() {
    // The thread is about to block in `recv` on an empty channel. Three
    // tasks due at once are sent, then the sender is dropped. `recv` hands
    // over the first task (a channel delivers what was sent before the
    // disconnect), but the thread drains the rest before it runs anything,
    // meets the disconnect, and runs none of them.
    let name = threads::unique_name("p4-sent");
    let rec = Recorder::new();
    let pause = Pause::arm(disconnect::Timer::IDLE, &name);
    let timer = disconnect::Timer::new(&name).unwrap();
    pause.wait_reached();
    for _ in 0..3 {
        let r = rec.clone();
        timer
            .schedule(Duration::ZERO, move || {
                r.record("task ran");
            })
            .unwrap();
    }
    timer.cancel();
    pause.release();
    let before = rec.record("drop called");
    drop(timer);
    let after = rec.record("drop returned");
    threads::assert_gone(&name);
    assert_eq!(rec.count("task ran"), 0, "{}", rec.log());
    assert!(after - before <= ms(MARGIN_MS), "{}", rec.log());
}
