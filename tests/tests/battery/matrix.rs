//! The progression matrix: rows are versions, columns are scenarios.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use parking_lot::RwLock;

use super::pools::PoolVersion;
use super::scenarios::{Outcome, Verdict};
use super::versions::Version;

/// When a column's scenarios run. The columns of one wave run side by
/// side, every version's scenario on a thread of its own; the waves run
/// one after another, in this order. Most scenarios spend their time
/// waiting, for a task or a thread, until their verdict is reached (a
/// version whose stop then sits out a far deadline is left to a reaper:
/// see [`super::gone::Joined`]), so a wave takes about as long as its
/// slowest verdict, not the sum of its columns'. What decides the waves is what
/// the scenarios do to each other: a scenario whose verdict is a time
/// (how late a task ran, how soon a thread ended) needs its setup done
/// in a few milliseconds, which a few hundred threads starting at once
/// on two cores do not allow; and `naive::busy_loop` burns a core in every
/// column where it holds a task not yet due, so at most one such column
/// shares a wave with scenarios whose verdict is a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wave {
    /// A thread held in its window while another acts: S1/C1, whose
    /// verdict is a lateness (one busy loop among its rows: the naive
    /// timer's, for its far task), and the futures' races, each asked of
    /// stage 8's rows alone.
    Windows,
    /// The three cancels, P1 to P3: a thread watched as it ends.
    Cancels,
    /// Counted, not timed, or timed with hundreds of milliseconds to
    /// spare: I2/I6, I5, T10, T14, T2, T6, T7, W8.
    Counts,
    /// The two whose fix is judged by a short lateness, a task run within
    /// a hundred milliseconds or so of its time, with no busy loop and
    /// few threads beside them: I4, whose long task sleeps, and W2.
    Lateness,
    /// Wake-ups in an idle window, counted: the idle column, with its
    /// busy loop, alone (a thread kept from a core by other busy loops
    /// can block once more on a lock, and read as a wake-up).
    Idle,
    /// The stress, which keeps every core busy and whose verdict is a
    /// count.
    Stress,
    /// N1 alone: each version's thread measured while one task waits. A
    /// busy loop is judged by what it did with the core it got, which load
    /// does not change (see `kit::cpu`), unless the load makes it block.
    /// Beside the stress, the naive loop once read as idle: no CPU in a
    /// 300 ms window, and not waiting for a core as it closed, so blocked,
    /// most likely on a lock that a preempted stress thread held (its
    /// channel allocates a block every 31 turns).
    Busy,
}

/// A scenario, and the column it fills.
pub struct Column {
    /// The column's heading.
    pub heading: &'static str,
    /// When it runs.
    pub wave: Wave,
    /// Runs the scenario against a timer; `None` if it asks nothing of one.
    pub timer: Option<fn(&Version) -> Outcome>,
    /// Runs the scenario against stage 6's pool; `None` if it asks
    /// nothing of one.
    pub pool: Option<fn(&PoolVersion) -> Outcome>,
    /// Runs the scenario against any version, timer or pool, by its name;
    /// when set, it is the only one asked.
    pub any: Option<fn(&Version) -> Outcome>,
}

impl Column {
    /// A column of timer scenarios only.
    pub const fn timer(wave: Wave, heading: &'static str, run: fn(&Version) -> Outcome) -> Column {
        Column {
            heading,
            wave,
            timer: Some(run),
            pool: None,
            any: None,
        }
    }

    /// A column of pool scenarios only.
    pub const fn pool(
        wave: Wave,
        heading: &'static str,
        run: fn(&PoolVersion) -> Outcome,
    ) -> Column {
        Column {
            heading,
            wave,
            timer: None,
            pool: Some(run),
            any: None,
        }
    }

    /// A column asked of every version alike.
    pub const fn any(wave: Wave, heading: &'static str, run: fn(&Version) -> Outcome) -> Column {
        Column {
            heading,
            wave,
            timer: None,
            pool: None,
            any: Some(run),
        }
    }

    /// The outcome of this column's scenario for `version`: n/a if it has
    /// none for that kind of version.
    fn run(&self, version: &Version) -> Outcome {
        let outcome = match (&version.pool, self.timer, self.pool) {
            _ if self.any.is_some() => self.any.map(|run| run(version)),
            (None, Some(run), _) => Some(run(version)),
            (Some(pool), _, Some(run)) => Some(run(pool)),
            _ => None,
        };
        outcome.unwrap_or(Outcome {
            verdict: Verdict::NotApplicable,
            detail: "not asked of this kind of version".to_owned(),
            joined: true.into(),
        })
    }
}

/// How many times a cell the wave found unclear is asked again, alone.
const UNCLEAR_RETRIES: usize = 2;

/// How long the whole matrix may run before it counts as hung: it takes a
/// few seconds at rest and some tens beside busy loops. A cell that never
/// ends would otherwise hold the test until the harness's own limit, with
/// nothing said about which one; past this, the cells still running are
/// named and the test process ends failed.
const HUNG_AFTER: Duration = Duration::from_secs(120);

/// The cells running now, for [`HUNG_AFTER`]'s report: one flag per
/// (column, version), each set while its cell runs. Flags, not a set
/// behind a lock: a wave starts a few hundred cells at once on two cores,
/// and a cell preempted while it held such a lock kept the others from
/// starting for hundreds of milliseconds.
struct InFlight {
    cells: Vec<((&'static str, &'static str), AtomicBool)>,
    versions: usize,
}

impl InFlight {
    fn new(columns: &[Column], versions: &[Version]) -> InFlight {
        let cells = columns
            .iter()
            .flat_map(|c| {
                versions
                    .iter()
                    .map(|v| ((c.heading, v.name), AtomicBool::new(false)))
            })
            .collect();
        InFlight {
            cells,
            versions: versions.len(),
        }
    }

    fn flag(&self, column: usize, version: usize) -> &AtomicBool {
        &self.cells[column * self.versions + version].1
    }

    /// The cells running now, by column and version.
    fn running(&self) -> Vec<(&'static str, &'static str)> {
        self.cells
            .iter()
            .filter(|(_, running)| running.load(SeqCst))
            .map(|(key, _)| *key)
            .collect()
    }
}

/// Runs one cell (column `c`, version `v`), flagged in `in_flight` while it
/// runs.
fn watched(
    in_flight: &InFlight,
    c: usize,
    column: &Column,
    v: usize,
    version: &Version,
) -> Outcome {
    in_flight.flag(c, v).store(true, SeqCst);
    let outcome = column.run(version);
    in_flight.flag(c, v).store(false, SeqCst);
    outcome
}

/// How long each wave took, and then the wait for the reapers still
/// running (`None`): what `run` measured, for the details.
pub type Took = Vec<(Option<Wave>, Duration)>;

/// Runs every column's scenario against every version, a wave at a time
/// (see [`Wave`]): within a wave every (column, version) pair runs on a
/// thread of its own (each timer has its own thread names). Returns one
/// row of outcomes per version, in column order, and how long each wave
/// took.
pub fn run(versions: &[Version], columns: &[Column]) -> (Vec<Vec<Outcome>>, Took) {
    let in_flight = InFlight::new(columns, versions);
    let (done, finished) = mpsc::channel::<()>();
    thread::scope(|s| {
        let in_flight = &in_flight;
        s.spawn(move || {
            // Wakes when `done` is dropped (the matrix ended), or at the
            // limit: then it names the cells that never ended.
            if finished.recv_timeout(HUNG_AFTER) == Err(mpsc::RecvTimeoutError::Timeout) {
                let cells = format!("{:?}", in_flight.running());
                let reaping = format!("{:?}", super::gone::REAPING.lock());
                // Straight to the process's stderr: the harness captures
                // `eprintln!` and would lose it with the exit.
                let _ = writeln!(
                    std::io::stderr(),
                    "the progression matrix has run for {} s; still running \
                     (column, version): {cells}; still being stopped (thread \
                     names): {reaping}",
                    HUNG_AFTER.as_secs()
                );
                std::process::exit(101);
            }
        });
        let ran = run_waves(versions, columns, in_flight);
        drop(done);
        ran
    })
}

/// [`run`]'s waves, each cell listed in `in_flight` while it runs.
fn run_waves(
    versions: &[Version],
    columns: &[Column],
    in_flight: &InFlight,
) -> (Vec<Vec<Outcome>>, Took) {
    let mut waves: Vec<Wave> = columns.iter().map(|c| c.wave).collect();
    waves.sort();
    waves.dedup();
    let mut by_column: Vec<Option<Vec<Outcome>>> = vec![None; columns.len()];
    let mut took = Vec::new();
    for wave in waves {
        let start = Instant::now();
        // Every cell waits at the gate until all are spawned: started at
        // once, the cells that ran would otherwise take the cores from
        // this thread, and the last columns' cells would start hundreds
        // of milliseconds after the first's. A read lock, not a condvar:
        // the writer's unlock lets every reader go at once, where a
        // condvar's waiters would take its mutex one after another, each
        // waiting for a core.
        let gate = RwLock::new(());
        let closed = gate.write();
        let ran: Vec<(usize, Vec<Outcome>)> = thread::scope(|s| {
            let runs: Vec<_> = columns
                .iter()
                .enumerate()
                .filter(|(_, c)| c.wave == wave)
                .map(|(i, column)| {
                    let cells: Vec<_> = versions
                        .iter()
                        .enumerate()
                        .map(|(v, version)| {
                            let gate = &gate;
                            s.spawn(move || {
                                drop(gate.read());
                                watched(in_flight, i, column, v, version)
                            })
                        })
                        .collect();
                    (i, cells)
                })
                .collect();
            drop(closed);
            runs.into_iter()
                .map(|(i, cells)| {
                    let outcomes = cells
                        .into_iter()
                        .map(|r| r.join().expect("a scenario panicked"))
                        .collect();
                    (i, outcomes)
                })
                .collect()
        });
        for (i, mut outcomes) in ran {
            // A cell the wave could not judge (a machine too loaded for a
            // bound on the clock) is asked again, alone, after its wave:
            // the wave's own threads no longer share the cores with it.
            for (v, outcome) in outcomes.iter_mut().enumerate() {
                for again in 1..=UNCLEAR_RETRIES {
                    if outcome.verdict != Verdict::Unclear {
                        break;
                    }
                    let first = std::mem::take(&mut outcome.detail);
                    *outcome = watched(in_flight, i, &columns[i], v, &versions[v]);
                    outcome.detail =
                        format!("{}; asked again ({again}), first: {first}", outcome.detail);
                }
            }
            by_column[i] = Some(outcomes);
        }
        took.push((Some(wave), start.elapsed()));
    }
    let by_column: Vec<Vec<Outcome>> = by_column
        .into_iter()
        .map(|c| c.expect("every column ran in its wave"))
        .collect();
    // Every reaper joined (each has stopped its version and looked for its
    // thread) before the matrix returns, and under its limit.
    let start = Instant::now();
    for outcome in by_column.iter().flatten() {
        outcome.joined.get();
    }
    took.push((None, start.elapsed()));
    // Transpose: one row per version.
    let rows = (0..versions.len())
        .map(|v| by_column.iter().map(|col| col[v].clone()).collect())
        .collect();
    (rows, took)
}

/// What a cell of the matrix says about `outcome`.
pub fn cell(outcome: &Outcome) -> String {
    match outcome.verdict {
        Verdict::Bug(id) => format!("**bug {id}**"),
        Verdict::Ok => "ok".to_owned(),
        Verdict::Unclear => "unclear".to_owned(),
        Verdict::NotApplicable => "n/a".to_owned(),
        Verdict::Cost(what) => what.to_owned(),
        Verdict::Accounted(n) => format!("all {n}"),
        Verdict::Lost { lost, twice } => format!("**{lost} lost, {twice} twice**"),
    }
}

/// One of the tables the matrix is cut into.
struct Part {
    caption: &'static str,
    /// How many columns it takes, in order.
    width: usize,
    /// Whether it ends with the "joined on drop" column.
    joined: bool,
    /// Whether it lists only the versions it asks something of (a cell
    /// other than n/a); otherwise every version.
    asked_only: bool,
}

/// The matrix's columns in five tables, so that each fits a page of the
/// book (and of its PDF). The first four list every version; the fifth,
/// whose questions only stage 8's timer for futures answers, lists its
/// versions alone. (Stage 9's durable timer has rows and columns of its
/// own, a sixth table: see `super::durable`.)
const PARTS: [Part; 5] = [
    Part {
        caption: "Waiting and stopping",
        width: 5,
        joined: false,
        asked_only: false,
    },
    Part {
        caption: "Long tasks, panics, periods and the herd",
        width: 4,
        joined: false,
        asked_only: false,
    },
    Part {
        caption: "Queues and pools",
        width: 4,
        joined: false,
        asked_only: false,
    },
    Part {
        caption: "Wheels, cost and load",
        width: 4,
        joined: true,
        asked_only: false,
    },
    Part {
        caption: "Futures: wakers and the driver",
        width: usize::MAX,
        joined: false,
        asked_only: true,
    },
];

/// The matrix as Markdown tables: what the snapshot and the book hold.
/// Only verdicts go in, never measurements, so it is the same on every run.
pub fn table(versions: &[Version], columns: &[Column], rows: &[Vec<Outcome>]) -> String {
    let mut out = String::new();
    let mut first: usize = 0;
    for part in &PARTS {
        let end = first.saturating_add(part.width).min(columns.len());
        let headings = &columns[first..end];
        if !out.is_empty() {
            out += "\n";
        }
        out += &format!("**{}**\n\n| version |", part.caption);
        for c in headings {
            out += &format!(" {} |", c.heading);
        }
        if part.joined {
            out += " joined on drop |";
        }
        out += "\n|---|";
        out += &"---|".repeat(headings.len() + usize::from(part.joined));
        out += "\n";
        for (v, row) in versions.iter().zip(rows) {
            let cells = &row[first..end];
            if part.asked_only && cells.iter().all(|o| o.verdict == Verdict::NotApplicable) {
                continue;
            }
            out += &format!("| `{}` |", v.name);
            for outcome in cells {
                out += &format!(" {} |", cell(outcome));
            }
            if part.joined {
                let joined = row.iter().all(|o| o.joined.get());
                out += if joined { " yes |" } else { " **no** |" };
            }
            out += "\n";
        }
        first = end;
    }
    assert_eq!(first, columns.len(), "every column is in a table");
    out
}

/// The measurements behind each cell, one line each, and how long each
/// wave took.
pub fn details(
    versions: &[Version],
    columns: &[Column],
    rows: &[Vec<Outcome>],
    took: &Took,
) -> String {
    let mut out = String::new();
    for (wave, took) in took {
        match wave {
            Some(wave) => out += &format!("wave {wave:?}: {} ms\n", took.as_millis()),
            None => out += &format!("after the waves, reapers: {} ms\n", took.as_millis()),
        }
    }
    for (v, row) in versions.iter().zip(rows) {
        for (c, outcome) in columns.iter().zip(row) {
            out += &format!("{:<44} {:<28} {}\n", v.name, c.heading, outcome.detail);
        }
    }
    out
}
