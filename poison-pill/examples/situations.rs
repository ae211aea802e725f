//! The Java Timer article's four situations a cancel can find a timer in (a
//! task running or not, more tasks queued or not), run on all five versions
//! of this stage; prints what each version did as a Markdown table (on a
//! terminal, a block of lines per version).
//!
//! Nothing in the table is typed: every cell is measured, by the very
//! scenarios the stage's tests run (`tests/support`, included below). Where
//! the thread must be caught on its way to blocking, a pause point holds it
//! there while a client cancels, and then lets it go. A thread still
//! running `IDLE_BOUND_MS` after its cancel is counted as never ending, and
//! freed with the version's test hook (`rescue`), so that the program ends
//! and joins every thread it started.
//!
//! ```text
//! cargo run -p poison-pill --example situations
//! ```
//!
//! It takes about seven seconds: two of the runs wait out a task's deadline.

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::Duration;

use kit::ms;
use kit::scale::in_ms;
use poison_pill::{cancel_flag, disconnect, notify_on_cancel, poison_pill as pill, timer_style};
use support::{
    FAR_MS, HOLD_MS, IDLE_BOUND_MS, MARGIN_MS, Situation, Version, cancel_at, cancel_in,
};

/// What a cancel did to a thread that the test held on its way to blocking.
struct Held {
    /// From the moment the test let the thread go to the end of its join;
    /// `None` if it had not ended by the bound.
    ended_after: Option<Duration>,
    /// How long the test waited before it gave up, from the same moment.
    waited: Duration,
    /// The thread ended at or after the queued task's deadline.
    at_deadline: bool,
    /// `cancel` could not return while the thread was held.
    cancel_blocked: bool,
    task_ran: bool,
}

fn held<T: Version>(prefix: &str, point: &'static str, far_task: bool) -> Held {
    let run = cancel_at::<T>(prefix, point, far_task);
    let released = run
        .rec
        .at("release the timer thread")
        .expect("recorded by cancel_at");
    Held {
        ended_after: run.ended.map(|t| t.saturating_sub(released)),
        waited: run.gave_up.saturating_sub(released),
        at_deadline: match (run.ended, run.task_due) {
            (Some(ended), Some(due)) => ended >= due,
            _ => false,
        },
        cancel_blocked: !run.cancel_got_in,
        task_ran: run.task_ran(),
    }
}

impl Held {
    fn on_time(&self) -> bool {
        self.ended_after.is_some_and(|d| d <= ms(MARGIN_MS))
    }

    /// The cell: `bug` names what a late or missing end shows here. A time
    /// keeps its unit on its line (a no-break space): the table's columns are
    /// narrow, and "ends at 4" above "ms" read as two facts.
    fn cell(&self, bug: &str) -> String {
        let mut cell = match self.ended_after {
            None => format!("**{bug}**: still running at {}\u{a0}ms", in_ms(self.waited)),
            Some(d) if !self.on_time() => format!(
                "**{bug}**: ends at {}\u{a0}ms{}",
                in_ms(d),
                if self.at_deadline {
                    ", the deadline"
                } else {
                    ""
                }
            ),
            Some(d) => format!("ends at {}\u{a0}ms", in_ms(d)),
        };
        if self.cancel_blocked {
            cell += " ‡";
        }
        if self.task_ran {
            cell += "; **the queued task ran**";
        }
        cell
    }
}

/// A task was running when the cancel came: what happened after it returned.
fn running<T: Version>(prefix: &str, situation: Situation, queued: usize) -> String {
    let run = cancel_in::<T>(prefix, situation);
    let mut cell = match run.ended_after {
        Some(d) if d <= ms(MARGIN_MS) => format!("ends at {}\u{a0}ms", in_ms(d)),
        Some(d) => format!("**ends at {}\u{a0}ms**", in_ms(d)),
        None => "**does not end**".to_owned(),
    };
    if !run.running_finished_after_cancel {
        cell += "; **the task did not finish after the cancel**";
    }
    if queued > 0 {
        cell += &format!(
            "; {}{} of {queued} queued ran{}",
            if run.queued_ran > 0 { "**" } else { "" },
            run.queued_ran,
            if run.queued_ran > 0 { "**" } else { "" },
        );
    }
    cell
}

/// One version's column, top to bottom.
fn column<T: Version>(prefix: &str) -> Vec<String> {
    eprintln!("{}...", T::FILE);
    let idle = held::<T>(prefix, T::IDLE, false);
    let waiting = held::<T>(prefix, T::WAIT, true);
    let window = held::<T>(prefix, T::WINDOW, true);
    // Late in the window only, on time once waiting: the notify was lost
    // (P3). Late in both: nothing wakes the wait at all (P2).
    let window_bug = if waiting.on_time() { "P3" } else { "P2" };
    vec![
        running::<T>(prefix, Situation::RunningQueueEmpty, 0),
        running::<T>(prefix, Situation::RunningQueued, 3),
        idle.cell("P1"),
        waiting.cell("P2"),
        window.cell(window_bug),
    ]
}

fn main() {
    let columns = [
        (
            cancel_flag::Timer::FILE,
            column::<cancel_flag::Timer>("sit-flag"),
        ),
        (
            notify_on_cancel::Timer::FILE,
            column::<notify_on_cancel::Timer>("sit-notify"),
        ),
        (pill::Timer::FILE, column::<pill::Timer>("sit-pill")),
        (
            disconnect::Timer::FILE,
            column::<disconnect::Timer>("sit-disc"),
        ),
        (
            timer_style::Timer::FILE,
            column::<timer_style::Timer>("sit-tstyle"),
        ),
    ];
    let far = in_ms(ms(FAR_MS));
    let situations = [
        "1. a task runs, none queued".to_owned(),
        "2. a task runs, 3 queued, due now".to_owned(),
        "3. no task runs, none queued".to_owned(),
        format!("4. no task runs, 1 queued, due in {far} ms"),
        "4′. as 4, in the window".to_owned(),
    ];

    // One row per version, one column per situation: the table stays
    // narrow enough for the book's page, printed too. Each column is as wide
    // as its longest word: "runs" and ", the deadline" where "running," and
    // "(the deadline)" made it wider than the printed page. On a terminal
    // (a projector) each version is a block of lines instead: the Markdown
    // is wider than any screen.
    let mut table = String::from("| version |");
    for situation in &situations {
        table.push_str(&format!(" {situation} |"));
    }
    table.push_str(&format!("\n|---|{}\n", "---|".repeat(situations.len())));
    for (file, cells) in &columns {
        table.push_str(&format!("| `{}` |", file.trim_end_matches(".rs")));
        for cell in cells {
            table.push_str(&format!(" {cell} |"));
        }
        table.push('\n');
    }
    print!("{}", kit::table::for_terminal(&table, kit::table::records));
    println!();
    println!(
        "When the thread ended, in ms: in columns 1–2 after the running task \
         returned; in columns 3–4′ after the test let go of the thread, which it \
         held on its way to blocking (for up to {} ms) while a client called \
         `cancel`. Column 4′ holds it after it has looked at the task and before it \
         waits (in the three fixed versions, the same point as column 4). No queued \
         task ran unless a cell says so. A correct end comes within {} ms. \"Still running\": not ended \
         {} ms after being let go, and then freed by the test's hook. \
         ‡ `cancel` could not return while the thread was held: it needs a lock \
         that the thread holds there, and got it once the thread was waiting.",
        in_ms(ms(HOLD_MS)),
        in_ms(ms(MARGIN_MS)),
        in_ms(ms(IDLE_BOUND_MS)),
    );
}
