//! P1, P2 and P3 as timelines of real runs: the timer thread of each
//! version, sampled while a client cancels it, one lane per version.
//!
//! Each lane is one run of the scenario the stage's tests use
//! (`tests/support`): the thread is held at a pause point on its way to
//! blocking (the far task, if any, comes at `LEAD_MS`; without one, the
//! thread is held until then, so that the chart shows it blocked before the
//! cancel), a client thread calls `cancel`, the thread is let go, and the
//! timer is dropped, which joins the thread. A lane ends where the thread
//! ended. A buggy version's thread that is still running `IDLE_BOUND_MS`
//! after the cancel (P1) is freed with the version's test hook, so that the
//! program ends.
//!
//! - `p1`: nothing queued; the thread is about to block on the empty queue.
//! - `p2`: one task queued, due in `FAR_MS`; the thread is about to wait
//!   for it.
//! - `p3`: the same task; the thread has looked at it and is not waiting
//!   yet (in the fixed versions, the same point as `p2`: the look and the
//!   wait are one step).
//!
//! ```text
//! cargo run -p poison-pill --example cancel_timeline -- p1
//! cargo run -p poison-pill --example cancel_timeline -- p3 \
//!     --text book/src/generated/p3-cancel-notify-race.txt \
//!     --svg book/src/generated/p3-cancel-notify-race.svg
//! ```

#[path = "../tests/support/mod.rs"]
mod support;

use std::error::Error;
use std::sync::Arc;
use std::time::Duration;

use kit::pause::Pause;
use kit::scale::in_ms;
use kit::timeline::{Chart, Lane, Mark, Sampler, sleep_until, spinning_task};
use kit::{Recorder, ms};
use poison_pill::{cancel_flag, disconnect, notify_on_cancel, poison_pill as pill, timer_style};
use support::{FAR_MS, HOLD_MS, IDLE_BOUND_MS, Version, join_in_time, spawn};

/// How long the thread is left blocked before the scenario goes on.
const LEAD_MS: u64 = 100;

/// Which point of the scenario to hold the thread at.
#[derive(Clone, Copy)]
enum Bug {
    P1,
    P2,
    P3,
}

impl Bug {
    fn point<T: Version>(self) -> &'static str {
        match self {
            Bug::P1 => T::IDLE,
            Bug::P2 => T::WAIT,
            Bug::P3 => T::WINDOW,
        }
    }

    fn far_task(self) -> bool {
        !matches!(self, Bug::P1)
    }
}

/// One version's run: its lane, its log, and one line that sums it up.
struct Run {
    lane: Lane,
    rec: Recorder,
    summary: String,
}

/// The tests' cancel scenario (`support::cancel_at`), with the timer thread
/// sampled from its start to its end.
fn run<T: Version>(
    title: &str,
    name: &str,
    bug: Bug,
    tick: Duration,
) -> Result<Run, Box<dyn Error>> {
    let rec = Recorder::new();
    let pause = Pause::arm(bug.point::<T>(), name);
    // The buggy versions notify a new head under the monitor their thread
    // holds at `WAIT`: hold the thread before `take` until the task is in.
    let gate = T::GATE
        .filter(|_| bug.far_task())
        .map(|gate| Pause::arm(gate, name));
    let timer = Arc::new(T::start(name)?);
    let sampler = Sampler::start(name, &rec, tick)?;
    if let Some(gate) = &gate {
        gate.wait_reached();
    }
    // Let the chart show the thread blocked for a while before the cancel:
    // with a far task, before the task comes; without, at the point.
    let due = bug.far_task().then(|| {
        sleep_until(&rec, ms(LEAD_MS));
        let at = rec.record(format!("schedule a task due in {} ms", in_ms(ms(FAR_MS))));
        timer
            .schedule_task(ms(FAR_MS), spinning_task(&rec, "task", ms(50)))
            .expect("a short delay fits the clock");
        at + ms(FAR_MS)
    });
    drop(gate);
    pause.wait_reached();
    let point = bug.point::<T>();
    let what = point.split_once(": ").map_or(point, |(_, what)| what);
    rec.record_as(name, format!("held: {what}"));
    if !bug.far_task() {
        sleep_until(&rec, ms(LEAD_MS));
    }

    let client = {
        let (timer, rec) = (Arc::clone(&timer), rec.clone());
        spawn("client", move || {
            rec.record("cancel called");
            timer.cancel_timer();
            rec.record("cancel returned");
        })
    };
    let _ = rec.eventually("cancel returned", ms(HOLD_MS));
    rec.record("release the timer thread");
    pause.release();
    client.join().expect("the client thread");

    let bound = if bug.far_task() {
        ms(FAR_MS + 2000)
    } else {
        ms(IDLE_BOUND_MS)
    };
    let (ended, gave_up) = join_in_time(timer, &rec, bound);
    let samples = sampler.finish();

    let cancelled = rec.at("cancel called").expect("recorded by the client");
    let mut lane = Lane::from_events(title, name, samples, &rec.events());
    lane.marks = vec![Mark {
        at: cancelled,
        label: "cancel".into(),
    }];
    if let Some(freed) = rec.at("gave up waiting; free the thread") {
        lane.marks.push(Mark {
            at: freed,
            label: "freed by the test".into(),
        });
    }
    if let Some(due) = due {
        lane.marks.push(Mark {
            at: due,
            label: "task due".into(),
        });
    }
    let summary = match ended {
        Some(ended) => format!(
            "=> cancel called at {} ms, the thread ended at {} ms",
            in_ms(cancelled),
            in_ms(ended)
        ),
        None => format!(
            "=> cancel called at {} ms, the thread still running at {} ms",
            in_ms(cancelled),
            in_ms(gave_up)
        ),
    };
    Ok(Run { lane, rec, summary })
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut bug = None;
    let mut svg_path = None;
    let mut text_path = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "p1" => bug = Some(Bug::P1),
            "p2" => bug = Some(Bug::P2),
            "p3" => bug = Some(Bug::P3),
            "--svg" => svg_path = Some(args.next().ok_or("--svg needs a path")?),
            "--text" => text_path = Some(args.next().ok_or("--text needs a path")?),
            other => {
                return Err(format!(
                    "unknown argument {other:?}; use p1, p2 or p3, then --svg PATH, --text PATH"
                )
                .into());
            }
        }
    }
    let bug = bug.ok_or("name the bug: p1, p2 or p3")?;

    let tick = match bug {
        Bug::P1 => ms(25),
        Bug::P2 | Bug::P3 => ms(50),
    };
    let runs = match bug {
        Bug::P1 => vec![
            run::<cancel_flag::Timer>("cancel_flag", "flag-timer", bug, tick)?,
            run::<notify_on_cancel::Timer>("notify_on_cancel", "notify-timer", bug, tick)?,
            run::<pill::Timer>("poison_pill", "pill-timer", bug, tick)?,
            run::<disconnect::Timer>("disconnect", "disc-timer", bug, tick)?,
            run::<timer_style::Timer>("timer_style", "tstyle-timer", bug, tick)?,
        ],
        Bug::P2 => vec![
            run::<cancel_flag::Timer>("cancel_flag", "flag-timer", bug, tick)?,
            run::<notify_on_cancel::Timer>("notify_on_cancel", "notify-timer", bug, tick)?,
            run::<pill::Timer>("poison_pill", "pill-timer", bug, tick)?,
        ],
        Bug::P3 => vec![
            run::<notify_on_cancel::Timer>("notify_on_cancel", "notify-timer", bug, tick)?,
            run::<pill::Timer>("poison_pill", "pill-timer", bug, tick)?,
            run::<disconnect::Timer>("disconnect", "disc-timer", bug, tick)?,
            run::<timer_style::Timer>("timer_style", "tstyle-timer", bug, tick)?,
        ],
    };

    let chart = Chart {
        tick,
        unit: ms(1),
        unit_name: "ms".into(),
        lanes: runs.iter().map(|r| r.lane.clone()).collect(),
    };
    let mut text = chart.text();
    for r in &runs {
        text += &format!("\n{}.rs:\n{}{}\n", r.lane.title, r.rec.log(), r.summary);
    }
    match text_path {
        Some(path) => std::fs::write(&path, &text).map_err(|e| format!("{path}: {e}"))?,
        None => print!("{text}"),
    }
    if let Some(path) = svg_path {
        std::fs::write(&path, chart.svg()).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}
