//! Catch it, A1 `lost_waker`: a timer for futures whose `Sleep` can lose
//! the waker of the task that polls it just as the driver fires it.
//!
//! Behind this API runs one of several timers for futures, and your test
//! cannot tell which except by what the timer does. Among them:
//!
//! - the racy poll of *A timer for futures* (`async-timer/src/racy_poll.rs`):
//!   a poll looks at the entry ("fired?") under the entry's lock, lets go,
//!   and only then stores its waker. If the driver fires the entry in
//!   between, it finds no waker and wakes nobody, and the waker stored
//!   after it is never called;
//! - correct timers that close the window in different ways: the
//!   chapter's poll, which looks and stores under one hold of the entry's
//!   lock, the lock the driver fires under; a poll that stores its waker
//!   first and looks second, holding no lock in between (the driver can
//!   fire while it is held there, and the poll then finds the entry fired);
//!   and the chapter's poll on a finer tick, which wakes its task once for
//!   nothing the first time it finds the `Sleep` waiting (a spurious
//!   wake-up, which any task must expect);
//! - timers with other bugs of the chapter.
//!
//! The driver runs on a manual clock: time stands still until your test
//! calls [`Timer::advance`], and a `Sleep` is due only once the clock has
//! passed its deadline. Write a test that fails on the racy poll every
//! time, naming A1, and passes on every correct timer every time.

// Each version is built only where `select!` picks it.
#[cfg_attr(not(any(a1 = "register_first", a1 = "first_waker")), allow(dead_code))]
mod register_first;
#[cfg_attr(not(a1 = "spurious_wake"), allow(dead_code))]
mod spurious_wake;

use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll, Wake, Waker};
use std::time::{Duration, Instant};

use async_timer::{Driver, ManualClock, POLL_WINDOW, Stats, Variant, racy_poll};

use self::register_first::RegisterFirst;
use self::spurious_wake::SpuriousWake;

pub use super::{Pause, Point};
pub use async_timer::{StartError, TimerError};

/// The race window: a poll of a `Sleep` that has not fired yet, between
/// its two halves, the look at the entry ("fired?") and the store of its
/// task's waker, in whichever order the version does them. The thread
/// held here is the one that polls: name it, and arm the pause with that
/// name.
///
/// In some versions the poll holds the entry's lock here, and the driver
/// cannot fire the entry until you release it; in others it holds none.
/// Held once per arm; later polls go through.
pub const WINDOW: Point = Point::new(
    "WINDOW (a1: in a poll, between the look at the entry and the store of the waker)",
    <Imp as Version>::WINDOW,
);

/// A tick: every version rounds deadlines up to a tick of its own, this
/// long or shorter. A `Sleep` of `tick()` is due once the clock has moved
/// by `tick()`.
pub fn tick() -> Duration {
    Duration::from_millis(1)
}

/// The chapter's driver on a manual clock: what every version runs on.
struct Chapter {
    driver: Driver,
    clock: ManualClock,
}

impl Chapter {
    /// Starts a driver of `variant`, of `tick`, on a manual clock at zero,
    /// its thread named `name`.
    fn start(name: &str, variant: Variant, tick: Duration) -> Result<Chapter, StartError> {
        let driver = Driver::builder(name)
            .variant(variant)
            .tick(tick)
            .manual_clock()
            .start()?;
        let clock = driver.manual_clock().expect("built with a manual clock");
        Ok(Chapter { driver, clock })
    }

    /// The chapter's `Sleep`, due `delay` from the clock's time now.
    fn sleep(&self, delay: Duration) -> async_timer::Sleep {
        self.driver.handle().sleep(delay)
    }

    /// What the driver holds and has done.
    fn stats(&self) -> Stats {
        self.driver.handle().stats()
    }
}

/// What every version behind this API does.
trait Version: Sized {
    /// Its `kit::pause_point` between the two halves of a poll.
    const WINDOW: &'static str;
    /// Its `Sleep`.
    type Sleep: Unpin + Send;
    /// Starts it on a manual clock, its driver's thread named `name`.
    fn start(name: &str) -> Result<Self, StartError>;
    /// Its driver and clock.
    fn chapter(&self) -> &Chapter;
    /// A `Sleep` due `delay` from the clock's time now.
    fn sleep(&self, delay: Duration) -> Self::Sleep;
    /// Polls `sleep`.
    fn poll(sleep: &mut Self::Sleep, cx: &mut Context<'_>) -> Poll<Result<(), TimerError>>;
    /// When `sleep` is due.
    fn deadline(sleep: &Self::Sleep) -> Instant;
    /// Whether `sleep` has fired, or failed.
    fn is_elapsed(sleep: &Self::Sleep) -> bool;
}

/// Which of the chapter's versions a [`Staged`] timer runs, and the pause
/// point of its poll.
#[cfg_attr(
    not(any(
        a1 = "fixed",
        a1 = "racy_poll",
        a1 = "leaky_drop",
        a1 = "unparks_idle_only"
    )),
    allow(dead_code)
)]
trait Pick {
    const VARIANT: Variant;
    const WINDOW: &'static str;
}

/// One of the chapter's own versions, as `async-timer` builds it.
#[cfg_attr(
    not(any(
        a1 = "fixed",
        a1 = "racy_poll",
        a1 = "leaky_drop",
        a1 = "unparks_idle_only"
    )),
    allow(dead_code)
)]
struct Staged<P> {
    chapter: Chapter,
    pick: PhantomData<P>,
}

/// The chapter's timer as it should be (`entry.rs`).
#[cfg_attr(not(a1 = "fixed"), allow(dead_code))]
enum Fixed {}
impl Pick for Fixed {
    const VARIANT: Variant = Variant::Fixed;
    const WINDOW: &'static str = POLL_WINDOW;
}

/// A1: the racy poll (`racy_poll.rs`).
#[cfg_attr(not(a1 = "racy_poll"), allow(dead_code))]
enum RacyPoll {}
impl Pick for RacyPoll {
    const VARIANT: Variant = Variant::RacyPoll;
    const WINDOW: &'static str = racy_poll::WINDOW;
}

/// A3: a dropped `Sleep` leaves its entry in the wheel (`leaky_drop.rs`).
#[cfg_attr(not(a1 = "leaky_drop"), allow(dead_code))]
enum LeakyDrop {}
impl Pick for LeakyDrop {
    const VARIANT: Variant = Variant::LeakyDrop;
    const WINDOW: &'static str = POLL_WINDOW;
}

/// A5: filing wakes only an idle driver (`unparks_idle_only.rs`).
#[cfg_attr(not(a1 = "unparks_idle_only"), allow(dead_code))]
enum UnparksIdleOnly {}
impl Pick for UnparksIdleOnly {
    const VARIANT: Variant = Variant::UnparksIdleOnly;
    const WINDOW: &'static str = POLL_WINDOW;
}

impl<P: Pick> Version for Staged<P> {
    const WINDOW: &'static str = P::WINDOW;
    type Sleep = async_timer::Sleep;
    fn start(name: &str) -> Result<Self, StartError> {
        Ok(Staged {
            chapter: Chapter::start(name, P::VARIANT, tick())?,
            pick: PhantomData,
        })
    }
    fn chapter(&self) -> &Chapter {
        &self.chapter
    }
    fn sleep(&self, delay: Duration) -> Self::Sleep {
        self.chapter.sleep(delay)
    }
    fn poll(sleep: &mut Self::Sleep, cx: &mut Context<'_>) -> Poll<Result<(), TimerError>> {
        Pin::new(sleep).poll(cx)
    }
    fn deadline(sleep: &Self::Sleep) -> Instant {
        sleep.deadline()
    }
    fn is_elapsed(sleep: &Self::Sleep) -> bool {
        sleep.is_elapsed()
    }
}

impl<const KEEP_FIRST: bool> Version for RegisterFirst<KEEP_FIRST> {
    const WINDOW: &'static str = register_first::WINDOW;
    type Sleep = register_first::Sleep;
    fn start(name: &str) -> Result<Self, StartError> {
        RegisterFirst::start(name)
    }
    fn chapter(&self) -> &Chapter {
        RegisterFirst::chapter(self)
    }
    fn sleep(&self, delay: Duration) -> Self::Sleep {
        RegisterFirst::sleep(self, delay)
    }
    fn poll(sleep: &mut Self::Sleep, cx: &mut Context<'_>) -> Poll<Result<(), TimerError>> {
        RegisterFirst::<KEEP_FIRST>::poll(sleep, cx)
    }
    fn deadline(sleep: &Self::Sleep) -> Instant {
        sleep.deadline()
    }
    fn is_elapsed(sleep: &Self::Sleep) -> bool {
        sleep.is_elapsed()
    }
}

impl Version for SpuriousWake {
    const WINDOW: &'static str = spurious_wake::WINDOW;
    type Sleep = spurious_wake::Sleep;
    fn start(name: &str) -> Result<Self, StartError> {
        SpuriousWake::start(name)
    }
    fn chapter(&self) -> &Chapter {
        SpuriousWake::chapter(self)
    }
    fn sleep(&self, delay: Duration) -> Self::Sleep {
        SpuriousWake::sleep(self, delay)
    }
    fn poll(sleep: &mut Self::Sleep, cx: &mut Context<'_>) -> Poll<Result<(), TimerError>> {
        SpuriousWake::poll(sleep, cx)
    }
    fn deadline(sleep: &Self::Sleep) -> Instant {
        sleep.deadline()
    }
    fn is_elapsed(sleep: &Self::Sleep) -> bool {
        sleep.is_elapsed()
    }
}

select!(a1:
    "fixed" => Staged<Fixed>,
    "register_first" => RegisterFirst<false>,
    "spurious_wake" => SpuriousWake,
    "racy_poll" => Staged<RacyPoll>,
    "first_waker" => RegisterFirst<true>,
    "leaky_drop" => Staged<LeakyDrop>,
    "unparks_idle_only" => Staged<UnparksIdleOnly>,
);

/// A timer for futures: a driver thread that fires each [`Sleep`] once its
/// deadline has passed on the manual clock, and wakes the task that polled
/// it last. Dropping it shuts the driver down and waits for its thread.
// Boxed: the same size whichever version it holds.
pub struct Timer(Box<Imp>);

impl Timer {
    /// Starts a driver whose thread is named `name`, on a manual clock at
    /// zero.
    ///
    /// # Errors
    /// If the thread cannot be started (a name with a NUL byte in it).
    pub fn new(name: &str) -> Result<Timer, StartError> {
        Ok(Timer(Box::new(<Imp as Version>::start(name)?)))
    }

    /// A `Sleep` due `delay` from the clock's time now. Poll it with
    /// [`poll_once`].
    pub fn sleep(&self, delay: Duration) -> Sleep {
        super::calling("sleep");
        Sleep(Box::new(Version::sleep(&*self.0, delay)))
    }

    /// Moves the clock forward by `by`. Returns at once: the driver fires
    /// what came due on its own thread, a moment later.
    pub fn advance(&self, by: Duration) {
        super::calling("advance");
        Version::chapter(&*self.0).clock.advance(by);
    }

    /// The clock's time now.
    pub fn now(&self) -> Instant {
        Version::chapter(&*self.0).clock.now()
    }

    /// How many entries the driver has fired, counted once it has woken
    /// their wakers (if they had one).
    pub fn fired(&self) -> u64 {
        super::calling("fired");
        Version::chapter(&*self.0).stats().fired
    }

    /// How many entries wait in the driver's wheel.
    pub fn pending(&self) -> usize {
        super::calling("pending");
        Version::chapter(&*self.0).stats().pending
    }
}

/// A future that is ready once its deadline has passed on the timer's
/// clock: `Ok(())`, or the error that kept it from firing. Polled again
/// after that, it gives the same answer.
#[must_use = "a Sleep does nothing unless polled"]
// Boxed: the same size whichever version it holds.
pub struct Sleep(Box<<Imp as Version>::Sleep>);

impl Sleep {
    /// The instant it is ready at.
    pub fn deadline(&self) -> Instant {
        <Imp as Version>::deadline(&self.0)
    }

    /// Whether it has fired, or failed: the next poll is ready.
    pub fn is_elapsed(&self) -> bool {
        <Imp as Version>::is_elapsed(&self.0)
    }
}

impl Future for Sleep {
    type Output = Result<(), TimerError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        <Imp as Version>::poll(&mut self.get_mut().0, cx)
    }
}

impl std::fmt::Debug for Sleep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sleep")
            .field("deadline", &self.deadline())
            .field("elapsed", &self.is_elapsed())
            .finish_non_exhaustive()
    }
}

/// A task, as far as a timer can see one: a waker, which counts how many
/// times it has been woken.
#[derive(Clone, Default)]
pub struct Task {
    woken: Arc<Woken>,
}

#[derive(Default)]
struct Woken(AtomicUsize);

impl Wake for Woken {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

impl Task {
    /// A task not woken yet.
    pub fn new() -> Task {
        Task::default()
    }

    /// Its waker: what a poll by this task leaves for the driver.
    pub fn waker(&self) -> Waker {
        Waker::from(Arc::clone(&self.woken))
    }

    /// How many times it has been woken so far.
    pub fn woken(&self) -> usize {
        self.woken.0.load(Ordering::SeqCst)
    }

    /// Waits at most `within` for the task to be woken; whether it was.
    pub fn woken_within(&self, within: Duration) -> bool {
        kit::eventually(within, || self.woken() > 0)
    }
}

/// Polls `sleep` once, as `task` would: `Ready` once it has fired (or
/// failed), otherwise `Pending`, with the task's waker left for the
/// driver.
pub fn poll_once(sleep: &mut Sleep, task: &Task) -> Poll<Result<(), TimerError>> {
    let waker = task.waker();
    Pin::new(sleep).poll(&mut Context::from_waker(&waker))
}
