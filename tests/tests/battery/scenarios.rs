//! The scenarios: each runs one version of the timer through one situation
//! the book describes, and judges what happened.

use std::sync::Arc;
use std::thread;

use kit::pause::Pause;
use kit::threads::unique_name;
use kit::{Recorder, ms};

use super::futures::not_the_drivers;
use super::gone::{Joined, gone_within};
use super::versions::Version;

/// What one scenario made of one version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The version shows the bug with this ID.
    Bug(&'static str),
    /// The version behaves correctly.
    Ok,
    /// Neither clearly: the numbers fell between the bug and the fix (a
    /// machine far too loaded, or a scenario that needs a longer scale).
    Unclear,
    /// The scenario does not apply to this version.
    NotApplicable,
    /// Correct, but at a cost the cell names (a wheel that wakes every
    /// tick while idle: `ticks`); the number is in the details.
    Cost(&'static str),
    /// Under stress, every one of this many tasks accounted for exactly
    /// once (ran, cancelled and reported, refused, or handed back).
    Accounted(usize),
    /// Under stress, tasks accounted for by nothing, or more than once.
    Lost {
        /// Accounted for by nothing.
        lost: usize,
        /// Accounted for more than once.
        twice: usize,
    },
}

/// A verdict, and the numbers behind it.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The judgement, which goes into the matrix.
    pub verdict: Verdict,
    /// The measurements, printed beside the matrix (they vary run to run).
    pub detail: String,
    /// Whether the timer's thread was gone after the timer was dropped.
    pub joined: Joined,
}

/// How long a held thread waits at most for the client's call to get in
/// or block: a safety net only (each hold ends as soon as either is seen).
const HOLD_LIMIT_MS: u64 = 10_000;

/// N1 `busy_wait`: with one task pending far out, how much CPU does the
/// timer thread burn?
///
/// A window in which a loaded machine gave the thread no core says nothing;
/// the scenario is then set up again on a fresh timer
/// ([`kit::cpu::until_judged`]), not measured again: a second window would
/// run past the task's deadline.
pub fn busy_wait(version: &Version) -> Outcome {
    let mut reaped = Vec::new();
    let (share, starved) = kit::cpu::until_judged(BUSY_WAIT_TRIES, || {
        let name = unique_name("pm-n1");
        let timer = (version.start)(&name);
        // Due after the window, and no later: a version whose drop sits
        // out its sleep (sleep_until) holds its reaper until then.
        timer.schedule(ms(BUSY_WINDOW_MS + 100), Box::new(|| {}));
        let share = super::gone::measure_once(&name, ms(BUSY_WINDOW_MS));
        reaped.push(reap(version, &name, timer));
        share
    });
    let joined = reaped.into_iter().fold(Joined::from(true), Joined::and);
    // Judged by demand (running or ready to run), which a loaded machine
    // cannot hide: a busy loop wants a core all the time.
    // Idle also means it did not want a core for half the window: a busy
    // loop that a loaded machine gave almost nothing to is not idle.
    let verdict = if share.is_busy() {
        Verdict::Bug("N1")
    } else if share.is_idle() && share.demand() < 0.5 {
        Verdict::Ok
    } else {
        Verdict::Unclear
    };
    let again = match starved {
        0 => String::new(),
        n => format!(" (set up {} times: {n} window(s) given no core)", n + 1),
    };
    Outcome {
        verdict,
        detail: format!("{share}{again}"),
        joined,
    }
}

/// The window [`busy_wait`] measures the timer's thread over: N1's own
/// test's (`naive/tests/n1_busy_wait.rs`).
const BUSY_WINDOW_MS: u64 = 150;

/// How many times [`busy_wait`] sets its scenario up while the machine
/// gives the timer's thread no core for the whole window.
pub const BUSY_WAIT_TRIES: usize = 8;

/// S1 and C1: the thread has picked a far task (due at 600 ms) and decided
/// how long to wait, but is not waiting yet; a client now schedules a task
/// due 50 ms later. Does that task run on time?
///
/// The thread is held at the version's window (its pause point) while the
/// client acts, so every run sees the same interleaving. The client acts
/// from its own thread: where the window lies inside the timer's lock
/// (`timer_style`), the client blocks until the thread waits, which is the
/// fix, and the scenario gives it 200 ms to get in before releasing.
///
/// Stage 8's driver passes its window (where it has chosen how long to
/// park) also when it parks with nothing to do, as it does at start: its
/// row starts parked idle, and the window is armed after the start, so
/// the turn held is the one that planned for the far task (A5, S1 again).
pub fn earlier_task_in_the_window(version: &Version) -> Outcome {
    let name = unique_name("pm-c1");
    let rec = Recorder::new();
    let arm = || version.window.map(|(point, _)| Pause::arm(point, &name));
    let after_start = version.futures.is_some();
    let mut pause = if after_start { None } else { arm() };
    let timer = (version.start)(&name);
    if after_start {
        pause = arm();
    }

    let far = rec.clone();
    timer.schedule(
        ms(600),
        Box::new(move || {
            far.record("far task ran");
        }),
    );
    if let Some(held) = &pause {
        held.wait_reached();
        if !timer.planned_a_deadline() {
            drop(pause);
            return Outcome {
                verdict: Verdict::Unclear,
                detail: "held in its window before it had planned for the far task".to_owned(),
                joined: reap(version, &name, timer),
            };
        }
    }
    let client_name = unique_name("pm-c1c");
    let near_due = thread::scope(|s| {
        let client = thread::Builder::new().name(client_name.clone());
        let client = client.spawn_scoped(s, || {
            let near = rec.clone();
            let called_at = rec.record("near task called");
            timer.schedule(
                ms(50),
                Box::new(move || {
                    near.record("near task ran");
                }),
            );
            let returned_at = rec.record("near task scheduled");
            // Where the client was blocked (timer_style), the task cannot be
            // due before the timer had it.
            returned_at.max(called_at + ms(50))
        });
        let client = client.expect("spawn the client");
        if let Some(pause) = pause {
            // The client either got its task in while the thread was held
            // (the window is open) or is blocked on the timer's lock: held
            // until one of the two is seen, never on a short timer, which a
            // client kept off its core outlasts (the race is then not
            // forced: C1 read as ok beside four busy loops and a build).
            kit::eventually(ms(HOLD_LIMIT_MS), || {
                rec.count("near task scheduled") > 0
                    || (rec.count("near task called") > 0 && super::gone::all_asleep(&client_name))
            });
            pause.release();
        }
        client.join().expect("the client thread")
    });

    // Missed, the near task runs with the far task, some 550 ms late. Not
    // run `MISSED_MS` after its due time is the bug, reached: the rest is
    // not waited out (the reaper waits for a thread asleep toward the far
    // task).
    let bug = version.window.map_or("?", |(_, id)| id);
    // Late on a version with no window: no bug of its own makes the task
    // late there, so lateness is the machine's (a ticker kept off its core
    // beside busy loops): not a verdict; the cell is asked again alone.
    let late_verdict = if version.window.is_some() {
        Verdict::Bug(bug)
    } else {
        Verdict::Unclear
    };
    let missed_at = near_due + ms(MISSED_MS);
    let ran = rec.eventually("near task ran", missed_at.saturating_sub(rec.elapsed()));
    let joined = reap(version, &name, timer);
    let (verdict, detail) = match ran {
        None => (
            late_verdict,
            format!(
                "near task due at {} ms, not run by {} ms",
                near_due.as_millis(),
                missed_at.as_millis()
            ),
        ),
        Some(ran) => {
            let late = ran.saturating_sub(near_due);
            let verdict = if late > ms(MISSED_MS) {
                late_verdict
            } else if late < ms(200) {
                Verdict::Ok
            } else {
                Verdict::Unclear
            };
            let detail = format!(
                "near task due at {} ms, ran at {} ms",
                near_due.as_millis(),
                ran.as_millis()
            );
            (verdict, detail)
        }
    };
    Outcome {
        verdict,
        detail,
        joined,
    }
}

/// How late [`earlier_task_in_the_window`]'s near task is missed: a
/// thread that waits toward the far task runs it some 550 ms late, a
/// thread woken for it within a few milliseconds (under 200 ms is on
/// time).
const MISSED_MS: u64 = 400;

/// The three ways a cancel can meet the timer thread, the columns P1, P2
/// and P3.
#[derive(Clone, Copy)]
enum Cancel {
    /// The queue is empty and the thread is about to block (P1).
    WhenIdle,
    /// A task is due far out and the thread is about to wait for it (P2).
    WhileWaiting,
    /// The thread has read its flag and looked at the far task, and is not
    /// waiting yet (P3); only versions with `cancel`.
    InTheGap,
}

/// How far out the queued task is due: the Java Timer article's 10 hours.
const FAR_MS: u64 = 600;
/// How soon after the cancel the thread must be gone.
const STOPS_WITHIN_MS: u64 = 300;

/// P1 `cancel_hangs_idle`: cancel a timer whose queue is empty.
pub fn cancel_when_idle(version: &Version) -> Outcome {
    cancel(version, Cancel::WhenIdle)
}

/// P2 `cancel_waits_for_deadline`: cancel a timer waiting for a far task.
pub fn cancel_while_waiting(version: &Version) -> Outcome {
    cancel(version, Cancel::WhileWaiting)
}

/// P3 `cancel_notify_race`: cancel between the thread's flag check and its
/// wait.
pub fn cancel_in_the_gap(version: &Version) -> Outcome {
    cancel(version, Cancel::InTheGap)
}

/// Holds the thread at the case's point, cancels from a client thread (or,
/// for the versions before stage 4, drops the timer there: that is how they
/// stop), lets the thread go, and sees whether it is gone soon after.
fn cancel(version: &Version, case: Cancel) -> Outcome {
    let stop = version.stop;
    let (point, far, bug) = match case {
        Cancel::WhenIdle => (stop.idle, false, "P1"),
        Cancel::WhileWaiting => (stop.wait, true, "P2"),
        Cancel::InTheGap if stop.cancel => {
            // A cancel that notifies nobody is late wherever it lands: P2.
            let bug = if stop.silent_cancel { "P2" } else { "P3" };
            (stop.gap, true, bug)
        }
        Cancel::InTheGap => {
            return Outcome {
                verdict: Verdict::NotApplicable,
                detail: "no cancel: stops only when dropped".to_owned(),
                joined: true.into(),
            };
        }
    };
    let name = unique_name("pm-p");
    let rec = Recorder::new();
    let pause = point.map(|p| Pause::arm(p, &name));
    let gate = stop.gate.filter(|_| far).map(|g| Pause::arm(g, &name));
    let mut timer = Some(Arc::new((version.start)(&name)));

    let (verdict, detail, client) = thread::scope(|s| {
        if let Some(gate) = &gate {
            gate.wait_reached();
        }
        // From its own thread: where the thread will hold the lock the
        // client needs, `schedule` waits for the release.
        let scheduler = far.then(|| {
            let (t, r) = (Arc::clone(timer.as_ref().expect("the timer")), rec.clone());
            s.spawn(move || {
                r.record("far task scheduled");
                t.schedule(
                    ms(FAR_MS),
                    Box::new(move || {
                        r.record("far task ran");
                    }),
                );
            })
        });
        if let (Some(gate), Some(scheduler)) = (gate, &scheduler) {
            // The gated versions notify under the monitor they hold at
            // `wait`: the far task goes in while the thread is before `take`.
            while !scheduler.is_finished() {
                thread::yield_now();
            }
            gate.release();
        }
        if let (None, Some(scheduler)) = (&pause, &scheduler) {
            // No point to hold the thread at: cancel once the far task is
            // in, so the thread has something to wait for.
            while !scheduler.is_finished() {
                thread::yield_now();
            }
        }
        if let Some(pause) = &pause
            && !pause.reached_within(ms(5000))
        {
            let detail = "never reached its pause point".to_owned();
            return (Verdict::Unclear, detail, None);
        }
        // A load probe: how long this thread waits for a core while it
        // watches. Only a bound on the clock needs it (see `late`).
        let probe = kit::cpu::ThreadCpu::current().ok();
        let waited = || probe.as_ref().and_then(|p| p.waited_for_cpu().ok());
        let waited_before = waited();
        let mut watch = super::gone::Watch::start(&name);
        let cancelled_at = rec.record("cancel");
        // Not scoped: a drop that sits out a far deadline (`sleep_until`)
        // is waited for by the reaper, after the verdict.
        let client_name = unique_name("pm-pc");
        let client = thread::Builder::new().name(client_name.clone());
        let client = if stop.cancel {
            let t = Arc::clone(timer.as_ref().expect("the timer"));
            let r = rec.clone();
            client.spawn(move || {
                r.record("cancel called");
                t.cancel();
                r.record("cancel returned");
            })
        } else {
            let t = timer.take();
            let r = rec.clone();
            client.spawn(move || {
                r.record("cancel called");
                drop(t);
                r.record("cancel returned");
            })
        }
        .expect("spawn the client");
        // The thread is let go once the client's call has returned (it got
        // in while the thread was held), or is blocked on the held thread
        // (asleep after its call: on a lock the thread holds, or in the
        // drop's join). Never on a timer: a client kept off its core past
        // a short limit would find the thread already waiting, and the
        // race would not have been forced (beside four busy loops and a
        // build, a 100 ms limit once read P3 as ok). `HOLD_LIMIT_MS` is
        // only a safety net for a client that never gets a core at all.
        kit::eventually(ms(HOLD_LIMIT_MS), || {
            rec.count("cancel returned") > 0
                || (rec.count("cancel called") > 0 && super::gone::all_asleep(&client_name))
        });
        if let Some(pause) = pause {
            pause.release();
        }
        // No thread found to watch reads as gone at once: not a verdict.
        let watched = watch.watching() > 0;
        let gone = watch.gone_within(ms(STOPS_WITHIN_MS));
        let seen_at = rec.elapsed();
        // Still there: asleep (blocked in a wait nobody ends: the bug), or
        // running or ready to run (on its way out, or kept from a core).
        let asleep = !gone && super::gone::all_asleep(&name);
        // Late by the clock on a machine that kept this thread from a core
        // for a fifth of the bound or more: the clock cannot say whose
        // delay it was. Unclear, and the matrix asks again after the wave.
        // And a far task due before the bound ends cannot tell a thread
        // that stopped from one that waited for it.
        let fifth = ms(STOPS_WITHIN_MS) / 5;
        // The far task is due no sooner than this (it was recorded as
        // scheduled before `schedule` was called).
        let far_due = rec.at("far task scheduled").map(|at| at + ms(FAR_MS));
        let too_late = far_due.is_some_and(|due| cancelled_at + ms(STOPS_WITHIN_MS) >= due);
        // The timer's thread kept from a core: its lateness may be the
        // machine's. Asleep and not kept from one: its own (the bug).
        let starved = watch.waited() >= fifth;
        let loaded = starved
            || too_late
            || waited_before
                .zip(waited())
                .is_some_and(|(before, after)| after - before >= fifth);
        if !gone && let Some(t) = &timer {
            t.rescue(); // so that every thread the battery starts is joined
        }
        let how = if stop.cancel { "cancelled" } else { "dropped" };
        // A drop joins the thread: its return is when the thread ended,
        // whenever this thread, kept from a core on a loaded machine,
        // got round to looking. Ended later than the bound is the bug,
        // even if the look came later still and found it gone. (A thread
        // gone has been joined, or is about to be: that drop returns.)
        let ended = match (stop.cancel, gone) {
            (true, _) => None,
            (false, true) => rec.eventually("cancel returned", ms(1000)),
            (false, false) => rec.at("cancel returned"),
        };
        let (verdict, detail) =
            if let Some(ended) = ended.filter(|&e| e > cancelled_at + ms(STOPS_WITHIN_MS)) {
                let detail = format!(
                    "{how} at {} ms, the drop returned (its thread joined) at {} ms",
                    cancelled_at.as_millis(),
                    ended.as_millis()
                );
                let verdict = if loaded {
                    Verdict::Unclear
                } else {
                    Verdict::Bug(bug)
                };
                (verdict, detail)
            } else if !watched {
                let detail = format!(
                    "{how} at {} ms, its thread not found",
                    cancelled_at.as_millis()
                );
                (Verdict::Unclear, detail)
            } else if gone && far_due.is_some_and(|due| seen_at >= due) {
                // Gone, but seen so only once the far task was due: a thread
                // that waited for it would be gone by then too (the cancel
                // came late, after a setup a loaded machine made slow).
                let detail = format!(
                    "{how} at {} ms, thread gone by {} ms, after the far task's deadline",
                    cancelled_at.as_millis(),
                    seen_at.as_millis()
                );
                (Verdict::Unclear, detail)
            } else if gone {
                let detail = format!(
                    "{how} at {} ms, thread gone by {} ms",
                    cancelled_at.as_millis(),
                    seen_at.as_millis()
                );
                (Verdict::Ok, detail)
            } else {
                let detail = format!(
                    "{how} at {} ms, thread still there at {} ms ({})",
                    cancelled_at.as_millis(),
                    seen_at.as_millis(),
                    if asleep { "asleep" } else { "not asleep" }
                );
                let verdict = if asleep && !starved && !too_late {
                    Verdict::Bug(bug)
                } else {
                    Verdict::Unclear
                };
                (verdict, detail)
            };
        (verdict, detail, Some(client))
    });
    // The drop (or the cancel) waited for, and the thread looked for, on a
    // reaper: a thread that waits out the far deadline ends only then.
    let timer = timer.take();
    let watched = name.clone();
    let joined = Joined::later(&name, move || {
        drop(timer);
        if let Some(client) = client {
            let _ = client.join();
        }
        gone_within(&watched, ms(FAR_MS + 1000))
    });
    Outcome {
        verdict,
        detail,
        joined,
    }
}

/// I2 and I6: a task panics. Afterwards, is a new task refused (java.util.Timer's
/// "Timer already cancelled."), or run (the executor's way), or accepted and
/// never run (the bug)?
pub fn panic_then_schedule(version: &Version) -> Outcome {
    if version.futures.is_some() {
        return not_the_drivers(
            "a task's panic is its executor's to catch; the driver catches a waker's (stage 5's \
             I6, in the stage's own tests)",
        );
    }
    quiet_deliberate_panics();
    let name = unique_name("pm-i6");
    let rec = Recorder::new();
    let timer = (version.start)(&name);
    let r = rec.clone();
    timer.schedule(
        ms(0),
        Box::new(move || {
            r.record("panicking");
            deliberate_panic();
        }),
    );
    if rec.eventually("panicking", ms(2000)).is_none() {
        return Outcome {
            verdict: Verdict::Unclear,
            detail: "the panicking task never ran".to_owned(),
            joined: reap(version, &name, timer),
        };
    }
    // A thread that dies is gone within milliseconds (its panic prints
    // nothing: see `quiet_deliberate_panics`); one that lives costs the
    // wait. Scheduling before a dying thread is gone would be I2's window:
    // a thread still there at the end of the wait is not judged to have
    // died (below).
    let died = gone_within(&name, ms(DIES_WITHIN_MS));
    let r = rec.clone();
    let accepted = timer.try_schedule(
        ms(20),
        Box::new(move || {
            r.record("later task ran");
        }),
    );
    // On a timer whose thread died, an accepted task can run only on a
    // thread the timer starts anew, in milliseconds; the bug's task is
    // looked for a while and, with still no thread of the timer's name
    // there, can never run. A thread that lived runs it in milliseconds.
    let wait = if died { DEAD_RUNS_WITHIN_MS } else { 500 };
    let ran = accepted && rec.eventually("later task ran", ms(wait)).is_some();
    let still_dead = died && super::gone::tids_named(&name).is_ok_and(|t| t.is_empty());
    let how = if died {
        "the thread died"
    } else {
        "the thread lived"
    };
    let (verdict, detail) = match (accepted, ran) {
        (false, _) => (Verdict::Ok, format!("{how}; the later task was refused")),
        (true, true) => (Verdict::Ok, format!("{how}; the later task ran")),
        (true, false) if still_dead => (
            Verdict::Bug("I6"),
            format!(
                "{how}; the later task was accepted and had not run {wait} ms later, with no \
                 thread left to run it"
            ),
        ),
        // Accepted and not run by a thread still there: one that lived
        // and lost the task (no version does), or one still dying when
        // the wait ended (a loaded machine).
        (true, false) => (
            Verdict::Unclear,
            format!(
                "{how}; the later task was accepted and had not run {wait} ms later, the \
                 thread still there"
            ),
        ),
    };
    Outcome {
        verdict,
        detail,
        joined: reap(version, &name, timer),
    }
}

/// How long [`panic_then_schedule`] waits for a thread to die of its
/// task's panic before it schedules the later task.
const DIES_WITHIN_MS: u64 = 150;
/// How long it looks for the later task on a timer whose thread died.
const DEAD_RUNS_WITHIN_MS: u64 = 200;

/// I4 `delayed_tasks`: a task that runs 400 ms starts at once; a task due
/// at 50 ms waits for it on a timer with one thread.
pub fn long_task_delays_others(version: &Version) -> Outcome {
    if version.futures.is_some() {
        return not_the_drivers(
            "a long task holds its executor's thread, not the driver's (A4, I4 again, in the \
             stage's own tests)",
        );
    }
    let name = unique_name("pm-i4");
    let rec = Recorder::new();
    let timer = (version.start)(&name);
    timer.schedule(
        ms(0),
        Box::new(|| thread::sleep(ms(400))), // the long task's work
    );
    let r = rec.clone();
    timer.schedule(
        ms(50),
        Box::new(move || {
            r.record("short task ran");
        }),
    );
    let ran = rec.eventually("short task ran", ms(3000));
    let joined = reap(version, &name, timer);
    let (verdict, detail) = match ran {
        None => (Verdict::Unclear, "the short task never ran".to_owned()),
        Some(ran) => {
            // Behind the long task it is 350 ms late; on its own, a loaded
            // machine (every row runs this column at once) can make it
            // 100 ms late, so the two bounds sit well apart from both.
            let late = ran.saturating_sub(ms(50));
            let verdict = if late >= ms(250) {
                Verdict::Bug("I4")
            } else if late <= ms(180) {
                Verdict::Ok
            } else {
                Verdict::Unclear
            };
            let detail = format!("short task due at 50 ms, ran at {} ms", ran.as_millis());
            (verdict, detail)
        }
    };
    Outcome {
        verdict,
        detail,
        joined,
    }
}

/// I5: a task every 40 ms at a fixed rate, a task that stalls a thread
/// for 3.75 periods, and a sentinel due at 3.5 periods. Did the 4 periodic
/// runs due before the sentinel all run before it: back to back once the
/// stall ends (a timer's one thread), or on time on another thread (a
/// pool)? Counted in deadline order, not timed.
pub fn fixed_rate_catches_up(version: &Version) -> Outcome {
    if version.futures.is_some() {
        return not_the_drivers(
            "an Interval's missed ticks are counted in the stage's own tests (A8, I5 again)",
        );
    }
    let name = unique_name("pm-i5");
    let rec = Recorder::new();
    let timer = (version.start)(&name);
    // A period of 40 ms; the stall holds one thread 150 ms (3.75 periods)
    // from the start.
    let period = ms(40);
    timer.schedule(ms(0), Box::new(|| thread::sleep(ms(150))));
    // The fourth run (due at 3 periods) opens a gate the sentinel waits at:
    // on a pool, whose other worker may take the sentinel while the
    // periodic task's worker is still descheduled, the sentinel cannot
    // overtake a run due before it. One thread runs the fourth run first
    // anyway, in deadline order, and finds the gate open.
    let fourth = kit::gate::Gate::new();
    let fourth_ran = fourth.waiter();
    let r = rec.clone();
    let mut runs = 0;
    let periodic = Box::new(move || {
        r.record("tick");
        runs += 1;
        if runs == 4 {
            fourth.open();
        }
    });
    if !timer.schedule_at_fixed_rate(ms(0), period, periodic) {
        return Outcome {
            verdict: Verdict::NotApplicable,
            detail: "no fixed-rate scheduling".to_owned(),
            joined: reap(version, &name, timer),
        };
    }
    // The sentinel is due at 3.5 periods: the fixed-rate runs due before
    // it are those at 0, 1, 2 and 3 periods. A version that keeps to the
    // rate runs those 4 first, in deadline order, however late the stall
    // and the machine make them: one thread makes them up in a burst when
    // the stall ends, a pool ran them on its other thread. A fixed delay
    // would count from the first run, after the stall: 1 (and a timer
    // with one thread would then leave the gate closed, and the sentinel
    // would wait at it for its 5 s limit).
    let r = rec.clone();
    timer.schedule(
        period * 7 / 2,
        Box::new(move || {
            fourth_ran.wait();
            r.record("sentinel");
        }),
    );
    let _ = rec.eventually("sentinel", ms(7000));
    let joined = reap(version, &name, timer);
    let events = rec.events();
    let before = events
        .iter()
        .take_while(|e| e.what != "sentinel")
        .filter(|e| e.what == "tick")
        .count();
    let ran = events.iter().any(|e| e.what == "sentinel");
    let verdict = if ran && before >= 4 {
        Verdict::Ok
    } else {
        Verdict::Unclear
    };
    Outcome {
        verdict,
        detail: if ran {
            format!(
                "{before} fixed-rate runs before a task due at 3.5 periods, a stall of 3.75 \
                 periods holding one thread (4 were due)"
            )
        } else {
            "the task due at 3.5 periods never ran".to_owned()
        },
        joined,
    }
}

/// Stops a timer and joins its thread, whatever its version: stage 4's
/// buggy versions never end an idle thread on `cancel` (P1, their own bug),
/// so they are rescued rather than left hanging in `drop`. The rescue
/// comes at once, not after watching the thread for a while: it queues a
/// task due now, which a thread that ends on the cancel never takes, and
/// P1's column, not this, is where a cancel that leaves a thread blocked
/// is found. `cancel`: whether the version stops with `cancel` (stage 4
/// on), or by its drop alone.
fn stop(cancel: bool, timer: Box<dyn super::versions::Subject>) {
    if cancel {
        timer.cancel();
        timer.rescue();
    }
    drop(timer);
}

/// [`stop`] and a look for the timer's thread, named `name`, on a
/// reaper ([`Joined::later`]): the scenario has its verdict, and a version
/// whose stop waits out a far deadline does not hold the wave until then.
pub fn reap(version: &Version, name: &str, timer: Box<dyn super::versions::Subject>) -> Joined {
    let (cancel, watched) = (version.stop.cancel, name.to_owned());
    Joined::later(name, move || {
        stop(cancel, timer);
        gone_within(&watched, ms(1000))
    })
}

/// The message of the battery's own panicking task.
const DELIBERATE: &str = "the progression battery's task panics on purpose (I6)";

/// The battery's own panic, which [`quiet_deliberate_panics`] keeps quiet.
pub fn deliberate_panic() {
    std::panic::panic_any(DELIBERATE);
}

/// Installs, once, a panic hook that says nothing for the battery's
/// deliberate panic and passes every other panic to the default hook. With
/// `RUST_BACKTRACE=1` the default hook spends a long time printing a
/// backtrace, during which the dying thread is still alive; and the matrix's
/// output stays readable.
pub fn quiet_deliberate_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let ours = info
                .payload()
                .downcast_ref::<&str>()
                .is_some_and(|m| *m == DELIBERATE);
            if !ours {
                default(info);
            }
        }));
    });
}
