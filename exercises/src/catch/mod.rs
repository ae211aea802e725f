//! Catch it: the API a student's test is written against.
//!
//! Each module here is one timer with a named bug, behind an API that is the
//! same whichever of two versions runs: the stage's buggy version, or the
//! stage's fixed one. `cargo xtask exercise check` runs your test against
//! both, each several times, some of them with every core busy. A test that
//! catches the bug fails on the buggy version every time, with its own
//! message, and passes on the fixed one every time. It cannot tell which
//! version it got except by what the timer does: that is the point.
//!
//! Which version runs is read once, from `EXERCISE_SIDE` (`buggy` or
//! `fixed`), which the check sets for each run.
//!
//! The race window is a pause point of the version that runs, the same
//! `kit::pause_point` call the stage's own tests hold its thread at. Each
//! module names it `WINDOW`, a [`Point`], and [`Pause`] arms it: `Pause` is
//! kit's pause, with the exercise's name for the point, so that the one name
//! holds the thread in the same place on both versions. Two bugs here are no
//! races, N1's busy wait and I6's dead timer: their modules have no
//! `WINDOW`, and a test of them measures, or waits for what must happen,
//! holding no thread.
//!
//! ```text
//! let pause = Pause::arm(WINDOW, &name);   // before the thread gets there
//! // ... drive the timer thread into the window ...
//! pause.wait_reached();                    // now it is held there
//! // ... make the call that races, from another thread if it may block ...
//! pause.release();                         // and let it go on
//! ```
//!
//! For the check's verdicts, the exercise's API notes in a file the check
//! names (`EXERCISE_RECORD`) when a thread was held at a point and which
//! calls came while it was; with `EXERCISE_SHAKE` set, a release lets the
//! released thread run on for a moment before the test goes on, an order
//! the scheduler could always have chosen.

pub mod a1;
pub mod c1;
pub mod i6;
pub mod n1;
pub mod p3;
pub mod s1;
pub mod t11;
pub mod t7;
pub mod w2;

use std::fmt;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};
use std::thread::ThreadId;
use std::time::Duration;

/// The environment variable that picks the version: `buggy` or `fixed`.
pub const SIDE_VAR: &str = "EXERCISE_SIDE";
/// The environment variable naming the file the API notes holds and calls
/// in, for the check.
pub const RECORD_VAR: &str = "EXERCISE_RECORD";
/// The environment variable that makes a release let the released thread
/// run on first.
pub const SHAKE_VAR: &str = "EXERCISE_SHAKE";
/// How long a shaken release lets the released thread run before the test
/// goes on: time enough to reach its wait, even on a busy machine.
const SHAKE_MS: u64 = 50;

/// Which version runs. Public for a find-it's API (`exercises/find/`), which
/// builds one of its two versions by it; a student's test that reads it is
/// refused by the check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The stage's version with the bug.
    Buggy,
    /// The stage's version without it.
    Fixed,
}

/// The version this process runs, read once from [`SIDE_VAR`].
///
/// # Panics
/// If the variable is unset or neither `buggy` nor `fixed`: the test is
/// being run by hand, not by the check.
pub fn side() -> Side {
    static SIDE: OnceLock<Side> = OnceLock::new();
    *SIDE.get_or_init(|| match std::env::var(SIDE_VAR).as_deref() {
        Ok("buggy") => Side::Buggy,
        Ok("fixed") => Side::Fixed,
        Ok(other) => panic!("{SIDE_VAR}={other:?}: expected buggy or fixed"),
        Err(_) => panic!(
            "{SIDE_VAR} is not set: `cargo xtask exercise check <exercise>` runs your test \
             against both versions; to run it by hand against one, set {SIDE_VAR}=buggy \
             or {SIDE_VAR}=fixed"
        ),
    })
}

/// A pause point of an exercise's timer: one name, which is the buggy
/// version's point when the buggy version runs and the fixed version's
/// otherwise.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Point {
    name: &'static str,
    buggy: &'static str,
    fixed: &'static str,
}

impl Point {
    /// The point `name`, which is `buggy`'s `kit::pause_point` in the buggy
    /// version and `fixed`'s in the fixed one.
    pub const fn new(name: &'static str, buggy: &'static str, fixed: &'static str) -> Point {
        Point { name, buggy, fixed }
    }

    /// Its name, as the exercise and the check's messages say it.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The version's own point, where the thread is held.
    fn in_this_version(&self) -> &'static str {
        match side() {
            Side::Buggy => self.buggy,
            Side::Fixed => self.fixed,
        }
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// Why a timer refused a task: the same error whichever version runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScheduleError {
    /// `now + delay` does not fit in the clock's range.
    DelayOverflow(Duration),
    /// The timer was cancelled: it takes no new task.
    Cancelled,
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::DelayOverflow(delay) => {
                write!(f, "a delay of {delay:?} from now overflows the clock")
            }
            ScheduleError::Cancelled => f.write_str("Timer already cancelled."),
        }
    }
}

impl std::error::Error for ScheduleError {}

impl From<sleep_based::ScheduleError> for ScheduleError {
    fn from(e: sleep_based::ScheduleError) -> Self {
        match e {
            sleep_based::ScheduleError::DelayOverflow(d) => ScheduleError::DelayOverflow(d),
        }
    }
}

impl From<condvar_timer::error::ScheduleError> for ScheduleError {
    fn from(e: condvar_timer::error::ScheduleError) -> Self {
        match e {
            condvar_timer::error::ScheduleError::DelayOverflow(d) => {
                ScheduleError::DelayOverflow(d)
            }
        }
    }
}

impl From<poison_pill::error::ScheduleError> for ScheduleError {
    fn from(e: poison_pill::error::ScheduleError) -> Self {
        match e {
            poison_pill::error::ScheduleError::DelayOverflow(d) => ScheduleError::DelayOverflow(d),
            poison_pill::error::ScheduleError::Cancelled => ScheduleError::Cancelled,
        }
    }
}

/// Writes one line to the check's record, if the check asked for one.
fn note(line: &str) {
    let Some(path) = std::env::var_os(RECORD_VAR) else {
        return;
    };
    // One write of a whole line, appended: lines from several threads do
    // not mix. A record that cannot be written only costs the check a
    // detail of its verdict.
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = file.write_all(format!("{line}\n").as_bytes());
    }
}

/// A pause that is armed, for [`calling`] to look at.
struct Armed {
    id: u64,
    point: Point,
    pause: Weak<kit::pause::Pause>,
    /// The thread that armed it (and is likely to release it).
    armer: ThreadId,
}

static ARMED: Mutex<Vec<Armed>> = Mutex::new(Vec::new());

/// Notes a call into an exercise's timer that comes while a thread is held
/// at a point: the race's second half, in the window. Called at the start
/// of every call of the exercises' APIs (`schedule`, `cancel`), a find-it's
/// too.
pub fn calling(what: &str) {
    let me = std::thread::current().id();
    let armed = ARMED.lock().unwrap_or_else(PoisonError::into_inner);
    for a in armed.iter() {
        if a.pause.upgrade().is_some_and(|p| p.is_holding()) {
            let from = if a.armer == me {
                " from the thread that holds the pause"
            } else {
                ""
            };
            note(&format!("call {what} while held at {}{from}", a.point.name));
        }
    }
}

/// A test's hold on one thread at one of the exercise's points: kit's
/// [`Pause`](kit::pause::Pause), with the exercise's name for the point.
///
/// A point holds only the thread it was armed for (the timer's thread, named
/// by your test), only once, and only while the `Pause` is alive; dropping
/// it releases the thread, so a failing test never leaves one stuck.
#[must_use = "dropping a Pause releases it at once"]
pub struct Pause {
    id: u64,
    point: Point,
    thread: String,
    inner: Option<Arc<kit::pause::Pause>>,
    /// Whether the record already says the thread was held here.
    noted: AtomicBool,
}

impl Pause {
    /// Arms `point` for the thread named `thread`: the next time that thread
    /// reaches the point, it stops there until [`Pause::release`] (or until
    /// this `Pause` is dropped). Arm it before the thread can get there.
    ///
    /// # Panics
    /// If the same point is already armed for the same thread.
    pub fn arm(point: Point, thread: &str) -> Pause {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        // ORDERING: a counter; only its uniqueness matters.
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        let inner = Arc::new(kit::pause::Pause::arm(point.in_this_version(), thread));
        ARMED
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Armed {
                id,
                point,
                pause: Arc::downgrade(&inner),
                armer: std::thread::current().id(),
            });
        Pause {
            id,
            point,
            thread: thread.to_owned(),
            inner: Some(inner),
            noted: AtomicBool::new(false),
        }
    }

    fn inner(&self) -> &kit::pause::Pause {
        self.inner.as_ref().expect("present until drop")
    }

    fn note_held(&self) {
        // ORDERING: only this Pause's own calls read and set the flag.
        if !self.noted.swap(true, Ordering::Relaxed) {
            note(&format!("held at {}", self.point.name));
        }
    }

    /// Waits until the thread is held at the point, for at most `within`.
    /// Returns whether it arrived.
    pub fn reached_within(&self, within: Duration) -> bool {
        let reached = self.inner().reached_within(within);
        if reached {
            self.note_held();
        }
        reached
    }

    /// Waits until the thread is held at the point.
    ///
    /// # Panics
    /// If it does not arrive within `kit::ms(5000)`.
    pub fn wait_reached(&self) {
        self.wait_reached_within(kit::ms(5000));
    }

    /// Waits until the thread is held at the point, for at most `within`.
    ///
    /// # Panics
    /// If it does not arrive in time, naming the thread and the point.
    pub fn wait_reached_within(&self, within: Duration) {
        assert!(
            self.reached_within(within),
            "thread {:?} did not reach pause point {} within {} ms: is the timer's thread \
             named so, and does your test drive it there (a task not yet due)?",
            self.thread,
            self.point,
            within.as_millis()
        );
    }

    /// Whether the thread is held at the point right now.
    pub fn is_holding(&self) -> bool {
        let holding = self.inner().is_holding();
        if holding {
            self.note_held();
        }
        holding
    }

    /// Lets the held thread go on (or, if it has not arrived yet, lets it
    /// pass when it does).
    pub fn release(self) {
        drop(self);
    }
}

impl Drop for Pause {
    fn drop(&mut self) {
        let held = self.is_holding();
        ARMED
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|a| a.id != self.id);
        drop(self.inner.take());
        if held && std::env::var_os(SHAKE_VAR).is_some() {
            std::thread::sleep(kit::ms(SHAKE_MS));
        }
    }
}
