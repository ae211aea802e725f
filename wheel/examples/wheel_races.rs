//! The lock-free wheel's two timing races, forced, each beside the
//! single-owner hashed wheel held at the same moment: the event logs the
//! chapter shows (`book/src/generated/w-races.txt`).
//!
//! - W2 `cursor_race`: an adder is held after it computed its slot and
//!   before it claimed a cell, while the ticker passes that slot.
//! - W9 `ticker_waits_for_adder`: an adder is held after it claimed a cell
//!   and before it stored its task, while the ticker reaches that slot; a
//!   task in a later slot waits with it.
//!
//! ```text
//! cargo run -p wheel --example wheel_races
//! ```

use std::sync::Arc;
use std::thread;

use kit::pause::Pause;
use kit::scale::in_ms;
use kit::threads::unique_name;
use kit::{Recorder, ms};
use wheel::hashed::{HashedConfig, HashedWheel, SEND_WINDOW};
use wheel::lockfree::{LockFreeConfig, LockFreeWheel};
use wheel::{Job, OnTicker};

const TICK_MS: u64 = 10;
const SLOTS: usize = 32;

/// Runs `add` on a named adder thread held at `window`; once it is held,
/// `meanwhile` runs (given the recorder), then the adder is let go.
fn held(window: &'static str, rec: &Recorder, add: impl FnOnce() + Send, meanwhile: impl FnOnce()) {
    let adder = unique_name("w-add");
    let pause = Pause::arm(window, &adder);
    thread::scope(|s| {
        let handle = thread::Builder::new()
            .name(adder.clone())
            .spawn_scoped(s, add)
            .expect("the adder starts");
        pause.wait_reached();
        rec.record_as("main", "adder held in its window");
        meanwhile();
        rec.record_as("main", "adder let go");
        pause.release();
        handle.join().expect("the adder returns");
    });
}

/// The widest line the book's code column shows whole, on screen and in
/// print (the xtask's `timelines::COLUMNS`).
const COLUMNS: usize = 88;

/// Where an event's text starts in its log line: after the time and the
/// thread's name (`kit::Recorder`'s format).
const TEXT_AT: usize = 27;

/// Prints the recorder's log with every line wider than [`COLUMNS`] broken
/// at spaces, each piece after the first under the event's text.
fn print_log(rec: &Recorder) {
    for line in rec.log().lines() {
        print!("{}", wrap(line));
    }
}

/// `line` broken at spaces into lines of at most [`COLUMNS`] characters
/// (a longer word stays whole); the pieces after the first start at
/// [`TEXT_AT`]. Ends with a newline.
fn wrap(line: &str) -> String {
    let (head, text) = match line.char_indices().nth(TEXT_AT) {
        Some((at, _)) if line.chars().count() > COLUMNS => line.split_at(at),
        _ => return format!("{line}\n"),
    };
    let mut out = String::new();
    let mut current = head.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && current.chars().count() + 1 + word.chars().count() > COLUMNS {
            out.push_str(&current);
            out.push('\n');
            current = " ".repeat(TEXT_AT);
            empty = true;
        }
        if !empty {
            current.push(' ');
        }
        current.push_str(word);
        empty = false;
    }
    out.push_str(&current);
    out.push('\n');
    out
}

fn job(rec: &Recorder, what: &'static str) -> Job {
    let rec = rec.clone();
    Box::new(move || {
        rec.record(what);
    })
}

fn lockfree(name: &str) -> LockFreeWheel {
    let config = LockFreeConfig::new(ms(TICK_MS), SLOTS, 4);
    LockFreeWheel::start(config, Arc::new(OnTicker), name).expect("a wheel")
}

fn hashed(name: &str) -> HashedWheel {
    let config = HashedConfig {
        tick: ms(TICK_MS),
        slots: SLOTS,
    };
    HashedWheel::start(config, Arc::new(OnTicker), name).expect("a wheel")
}

/// W2: the task is due two ticks out; the ticker passes its slot while the
/// adder is held.
fn cursor_race() {
    println!("W2 cursor_race: a task due in 20 ms; its adder is held between reading the");
    println!("cursor and claiming a cell while the ticker passes the slot (10 ms ticks, 32 slots:");
    println!("a revolution is 320 ms).");
    println!();
    println!("The lock-free wheel:");
    let rec = Recorder::new();
    let wheel = lockfree(&unique_name("w-lf"));
    held(
        "wheel::lockfree: slot computed, not yet claimed",
        &rec,
        || {
            rec.record("add(20 ms) called");
            wheel
                .add(ms(2 * TICK_MS), job(&rec, "task ran"))
                .expect("room");
        },
        || {
            let k = wheel.stats().ticks;
            kit::eventually(ms(2000), || wheel.stats().ticks > k + 3);
            rec.record_as("main", "ticker passed the slot");
        },
    );
    rec.eventually("task ran", ms(2000));
    print_log(&rec);
    drop(wheel.stop());
    println!();
    println!("The single-owner hashed wheel, its adder held between the clock and the send:");
    let rec = Recorder::new();
    let wheel = hashed(&unique_name("w-h"));
    held(
        SEND_WINDOW,
        &rec,
        || {
            rec.record("schedule(20 ms) called");
            drop(wheel.schedule(ms(2 * TICK_MS), job(&rec, "task ran")));
        },
        || {
            let k = wheel.ticks();
            kit::eventually(ms(2000), || wheel.ticks() > k + 3);
            rec.record_as("main", "ticker passed the task's tick");
        },
    );
    rec.eventually("task ran", ms(2000));
    print_log(&rec);
    drop(wheel.stop());
}

/// W9: the held adder's slot is the next; another task is three ticks out.
fn ticker_waits() {
    println!("W9 ticker_waits_for_adder: an adder claims a cell one tick out and is held before");
    println!(
        "it stores its task; a task three ticks out is added meanwhile; the ticker is watched"
    );
    println!("for 200 ms.");
    println!();
    println!("The lock-free wheel:");
    let rec = Recorder::new();
    let name = unique_name("w-lf9");
    let wheel = lockfree(&name);
    held(
        "wheel::ring: index claimed, task not yet stored",
        &rec,
        || {
            wheel
                .add(ms(TICK_MS), job(&rec, "held adder's task ran"))
                .expect("room");
        },
        || {
            let due = rec.elapsed() + ms(3 * TICK_MS);
            wheel
                .add(ms(3 * TICK_MS), job(&rec, "other task ran"))
                .expect("room");
            rec.record_as(
                "main",
                format!("other task added, due at {} ms", in_ms(due)),
            );
            kit::eventually(ms(2000), || wheel.stats().spins > 0);
            let share = kit::cpu::measure(&name, ms(200));
            rec.record_as("main", format!("ticker over 200 ms: {share}"));
        },
    );
    rec.eventually("other task ran", ms(2000));
    print_log(&rec);
    println!("(the ticker spun {} times)", wheel.stats().spins);
    drop(wheel.stop());
    println!();
    println!("The single-owner hashed wheel, its adder held before the send:");
    let rec = Recorder::new();
    let name = unique_name("w-h9");
    let wheel = hashed(&name);
    held(
        SEND_WINDOW,
        &rec,
        || {
            drop(wheel.schedule(ms(TICK_MS), job(&rec, "held adder's task ran")));
        },
        || {
            let due = rec.elapsed() + ms(3 * TICK_MS);
            drop(wheel.schedule(ms(3 * TICK_MS), job(&rec, "other task ran")));
            rec.record_as(
                "main",
                format!("other task added, due at {} ms", in_ms(due)),
            );
            let share = kit::cpu::measure(&name, ms(200));
            rec.record_as("main", format!("ticker over 200 ms: {share}"));
        },
    );
    rec.eventually("held adder's task ran", ms(2000));
    print_log(&rec);
    drop(wheel.stop());
}

fn main() {
    cursor_race();
    println!();
    ticker_waits();
}
