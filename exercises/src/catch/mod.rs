//! Catch it: the API a student's test is written against.
//!
//! Each module here is one timer with a named bug, behind an API that is the
//! same whichever version runs. Beside the version with the bug there are
//! others: correct ones, built differently from one another (one holds its
//! lock across the race window, another does not; one wakes with a notify,
//! another with a semaphore), and buggy ones with other bugs.
//! `cargo xtask exercise check` runs your test against every one of them,
//! several times, some with every core busy. A test that catches the bug
//! passes on every correct version every time and fails on the one with the
//! bug every time, with its own message. It cannot tell which version it
//! got except by what the timer does: that is the point.
//!
//! The race window is a pause point of the version that runs, the same
//! `kit::pause_point` call the stage's own tests hold its thread at. Each
//! module names it `WINDOW`, a [`Point`], and [`Pause`] arms it: `Pause` is
//! kit's pause, with the exercise's name for the point, so that the one name
//! holds the thread in the same place in every version. Two bugs here are no
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
//! Behind each module's API runs one of several versions of its timer:
//! correct ones, written differently, and buggy ones, the named bug among
//! them. Which one is decided when this crate is built (its `slot-<k>`
//! feature; see `list.rs`), and the grader builds and runs your test once
//! per version. Every name your test can reach is the same in each build.
//!
//! For the grader's verdicts, the API writes a record to standard error
//! (lines that start with [`RECORD_PREFIX`]): when a thread was held at a
//! point, and which calls came while it was. With `EXERCISE_SHAKE` set, a
//! release lets the released thread run on for a moment before the test
//! goes on, an order the scheduler could always have chosen.

/// Declares `type Imp`, the version this build wraps: of the versions
/// listed, the one the exercise's `cfg` names (`c1 = "racy"`, set by the
/// build script from the slot feature). A build whose slot names none of
/// them does not compile, so `list.rs` and the modules cannot drift apart.
/// `select!(pub(crate) f2: ...)` gives `Imp` that visibility;
/// `select!(t11 keep constructor: ...)` names the module's own
/// `fn constructor<T: Version>() -> *const ()`, which `keep_every_version`
/// calls for each version (by default, one that takes `Version::start`).
///
/// In a slot given to a teacher's own chaff (`cargo xtask exercise grade
/// --chaffs`), the `cfg` is `"teacher"`, and `Imp` is the `Chaff` type of the
/// teacher's file, included here as the module `teacher`: the file is
/// written as a child of the exercise's module (`use super::*;`), with a
/// type `Chaff` that implements the module's `Version` trait.
macro_rules! select {
    ($vis:vis $key:ident: $($name:literal => $ty:ty),+ $(,)?) => {
        /// A version's constructor, as a pointer (see `keep_every_version`).
        fn constructor<T: Version>() -> *const () {
            T::start as *const ()
        }
        $crate::catch::select!($vis $key keep constructor: $($name => $ty),+);
    };
    ($vis:vis $key:ident keep $keep:ident: $($name:literal => $ty:ty),+ $(,)?) => {
        $(
            #[cfg($key = $name)]
            $vis type Imp = $ty;
        )+
        #[cfg($key = "teacher")]
        mod teacher {
            include!(concat!(env!("OUT_DIR"), "/teacher_", stringify!($key), ".rs"));
        }
        #[cfg($key = "teacher")]
        $vis type Imp = teacher::Chaff;

        /// Every version's constructor, taken as a pointer and never
        /// called: every build then links every version's code, and with
        /// it every version's strings (its file's path in a panic's
        /// location, its pause points' names), so that reading one's own
        /// executable for a version's name finds every name in every build.
        pub(crate) fn keep_every_version() {
            $(
                ::std::hint::black_box($keep::<$ty>());
            )+
        }
    };
}
pub(crate) use select;

pub mod a1;
pub mod c1;
pub mod d1;
pub mod i6;
pub mod n1;
mod one_thread;
pub mod p3;
pub mod s1;
pub mod t11;
pub mod t7;
pub mod w2;

use std::fmt;
use std::io::Write as _;

pub use crate::list::RECORD_PREFIX;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::thread::ThreadId;
use std::time::Duration;

/// The environment variable that makes a release let the released thread
/// run on first.
pub const SHAKE_VAR: &str = "EXERCISE_SHAKE";
/// How long a shaken release lets the released thread run before the test
/// goes on: time enough to reach its wait, even on a busy machine.
const SHAKE_MS: u64 = 50;

/// A pause point of an exercise's timer: one name, and the `kit::pause_point`
/// of the version this build wraps.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Point {
    name: &'static str,
    here: &'static str,
}

impl Point {
    /// The point `name`, which is `here`, a `kit::pause_point` of the
    /// version this build wraps.
    pub(crate) const fn new(name: &'static str, here: &'static str) -> Point {
        Point { name, here }
    }

    /// Its name, as the exercise and the check's messages say it.
    pub fn name(&self) -> &'static str {
        self.name
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

impl From<naive::ScheduleError> for ScheduleError {
    fn from(e: naive::ScheduleError) -> Self {
        match e {
            naive::ScheduleError::DelayOverflow(d) => ScheduleError::DelayOverflow(d),
        }
    }
}

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

/// Every exercise's `keep_every_version`: called (cheaply) by every call
/// into an exercise's API, so that every build links every version of
/// every exercise.
fn keep_every_version() {
    a1::keep_every_version();
    c1::keep_every_version();
    d1::keep_every_version();
    i6::keep_every_version();
    n1::keep_every_version();
    p3::keep_every_version();
    s1::keep_every_version();
    t11::keep_every_version();
    t7::keep_every_version();
    w2::keep_every_version();
    crate::find::keep_every_version();
}

/// Writes one line of the record to standard error, straight to the file
/// descriptor: a test's output capture does not take it, so the grader
/// sees it whether the test passes or fails.
fn note(line: &str) {
    // One write of a whole line: lines from several threads do not mix. A
    // line that cannot be written only costs the check a detail.
    let _ = std::io::stderr().write_all(format!("{RECORD_PREFIX}{line}\n").as_bytes());
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
    keep_every_version();
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
        let inner = Arc::new(kit::pause::Pause::arm(point.here, thread));
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
