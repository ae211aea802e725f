//! The scenarios: each runs one version of the timer through one situation
//! the book describes, and judges what happened.

use std::thread;

use kit::pause::Pause;
use kit::threads::{gone_within, unique_name};
use kit::{Recorder, ms};

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
}

/// A verdict, and the numbers behind it.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The judgement, which goes into the matrix.
    pub verdict: Verdict,
    /// The measurements, printed beside the matrix (they vary run to run).
    pub detail: String,
    /// Whether the timer's thread was gone after the timer was dropped.
    pub joined: bool,
}

/// N1 `busy_wait`: with one task pending far out, how much CPU does the
/// timer thread burn?
pub fn busy_wait(version: &Version) -> Outcome {
    let name = unique_name("pm-n1");
    let timer = (version.start)(&name);
    timer.schedule(ms(600), Box::new(|| {}));
    let share = kit::cpu::measure(&name, ms(300));
    drop(timer);
    // Judged by demand (running or ready to run), which a loaded machine
    // cannot hide: a busy loop wants a core all the time.
    let verdict = if share.is_busy() {
        Verdict::Bug("N1")
    } else if share.is_idle() {
        Verdict::Ok
    } else {
        Verdict::Unclear
    };
    Outcome {
        verdict,
        detail: format!("{share}"),
        joined: gone_within(&name, ms(1000)),
    }
}

/// S1 and C1: the thread has picked a far task (due at 1000 ms) and decided
/// how long to wait, but is not waiting yet; a client now schedules a task
/// due 50 ms later. Does that task run on time?
///
/// The thread is held at the version's window (its pause point) while the
/// client acts, so every run sees the same interleaving. The client acts
/// from its own thread: where the window lies inside the timer's lock
/// (`timer_style`), the client blocks until the thread waits, which is the
/// fix, and the scenario gives it 200 ms to get in before releasing.
pub fn earlier_task_in_the_window(version: &Version) -> Outcome {
    let name = unique_name("pm-c1");
    let rec = Recorder::new();
    let pause = version.window.map(|(point, _)| Pause::arm(point, &name));
    let timer = (version.start)(&name);

    let far = rec.clone();
    timer.schedule(
        ms(1000),
        Box::new(move || {
            far.record("far task ran");
        }),
    );
    if let Some(pause) = &pause {
        pause.wait_reached();
    }
    let near_due = thread::scope(|s| {
        let client = s.spawn(|| {
            let near = rec.clone();
            let called_at = rec.elapsed();
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
        if let Some(pause) = pause {
            // The client either got its task in while the thread was held
            // (the window is open) or is blocked on the timer's lock.
            let _ = rec.eventually("near task scheduled", ms(200));
            pause.release();
        }
        client.join().expect("the client thread")
    });

    let ran = rec.eventually("near task ran", ms(5000));
    drop(timer);
    let joined = gone_within(&name, ms(1000));
    let (verdict, detail) = match ran {
        None => (Verdict::Unclear, "the near task never ran".to_owned()),
        Some(ran) => {
            let late = ran.saturating_sub(near_due);
            let verdict = if late > ms(700) {
                Verdict::Bug(version.window.map_or("?", |(_, id)| id))
            } else if late < ms(300) {
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
