//! The finished timer (I7): java.util.Timer's whole API, a thread that
//! survives a panicking task (I6), and tasks that can be asked to stop
//! (I3).
//!
//! - One lock guards the heap and the "cancelled" flag, and the thread
//!   peeks and waits under it (stage 3's C4, stage 4's P5): no lost
//!   wake-up, no lost cancel.
//! - `schedule` takes that lock once, uncontended, and notifies only when
//!   the new task becomes the head. The lock and condvar are parking_lot's:
//!   a notify with nobody waiting costs no syscall.
//! - Each task has a slot in a table under that same lock: its state, its
//!   repeat rule, its closure. The heap holds slot numbers, and a
//!   [`TaskHandle`] is one too, so `schedule` allocates nothing but the
//!   closure's box (nothing at all for a closure that captures nothing),
//!   and freed slots are reused. Cancelling through the handle marks the
//!   slot and drops the closure (O(1)); the heap entry leaves when it
//!   reaches the head, or at [`Timer::purge`].
//! - A panicking task is caught (`catch_unwind`), reported to its handle
//!   ([`TaskState::Panicked`]) and to the timer's hook, and the thread goes
//!   on, as `ScheduledThreadPoolExecutor` does. A repeating task that
//!   panicked does not run again.
//! - The thread has an [`InterruptToken`]: a task reads it with
//!   [`interrupt::check`](crate::interrupt::check), and
//!   [`TaskHandle::interrupt`] raises it while that task runs. The thread
//!   clears it after every task, under the same lock the handle checks
//!   "is my task running?" with, so an interrupt meant for one task never
//!   reaches the next (JDK-6576792).
//!
//! Like java.util.Timer, and unlike the Java Timer article's wording:
//! fixed delay counts the period from when a run *started*, fixed rate from
//! when it was *due*. A late fixed-rate task runs its missed periods back to
//! back; a late fixed-delay task runs once, then every period (I5).

use std::any::Any;
use std::cell::Cell;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use crate::error::ScheduleError;
use crate::interrupt::{InterruptHandle, InterruptToken};
use crate::interrupted_only::check_name;
use crate::sync::{self, Arc, Condvar, Mutex, thread, thread_local};

/// Where a task is in its life, as its [`TaskHandle`] sees it.
///
/// ```
/// use interrupt_cancel::timer::{TaskState, Timer};
/// use std::time::Duration;
///
/// let timer = Timer::new("doc-state")?;
/// let task = timer.schedule(Duration::from_secs(3600), || {})?;
/// assert_eq!(task.state(), TaskState::Scheduled);
/// task.cancel();
/// assert_eq!(task.state(), TaskState::Cancelled);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskState {
    /// Waiting for a run: a one-shot task not run yet, or a repeating task
    /// between runs.
    Scheduled,
    /// A one-shot task that has started its run (or a repeating one whose
    /// next run would be past the end of the clock).
    Executed,
    /// Cancelled through its handle, or discarded by [`Timer::cancel`]:
    /// it will not run (again).
    Cancelled,
    /// Its run panicked: the panic was caught and reported, and it will not
    /// run again.
    Panicked,
}

#[derive(Debug, Clone, Copy)]
enum Repeat {
    Once,
    /// Next run: `period` after this run started.
    FixedDelay(Duration),
    /// Next run: `period` after this run was due.
    FixedRate(Duration),
}

/// A task's closure. A box of a closure that captures nothing allocates
/// nothing.
enum Work {
    Once(Box<dyn FnOnce() + Send>),
    Every(Repeating),
}

type Repeating = Box<dyn FnMut() + Send>;

// ANCHOR: slot
/// One task's slot in the table. The timer's one lock guards it all.
struct Slot {
    state: TaskState,
    repeat: Repeat,
    /// `None` while the thread runs it, and once it can never run again.
    work: Option<Work>,
    /// How many [`TaskHandle`]s refer to this slot.
    handles: usize,
    /// In the heap, or running: the thread still refers to this slot.
    live: bool,
}
// ANCHOR_END: slot

impl Slot {
    /// A new slot, before `occupy` fills it.
    const VACANT: Slot = Slot {
        state: TaskState::Cancelled,
        repeat: Repeat::Once,
        work: None,
        handles: 0,
        live: false,
    };
}

/// A slot number and when that task is due next. The heap puts the
/// earliest on top; `seq` keeps equal deadlines in the order they were
/// scheduled.
struct Entry {
    deadline: Instant,
    seq: u64,
    slot: usize,
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap pops its greatest element: reverse, earliest first.
        (other.deadline, other.seq).cmp(&(self.deadline, self.seq))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

// ANCHOR: shared
/// Everything the one lock guards.
struct State {
    heap: BinaryHeap<Entry>,
    slots: Vec<Slot>,
    /// Slots neither live nor referred to by a handle, to reuse.
    free: Vec<usize>,
    next_seq: u64,
    /// Set by `cancel` (and `Drop`): java.util.Timer's
    /// `!newTasksMayBeScheduled`.
    cancelled: bool,
    /// Set by `shutdown`: no new tasks, no more repeats, and the thread
    /// ends once the queue is empty.
    shut_down: bool,
    /// What `Drop` does: `shutdown` and wait, or `cancel`.
    drain_on_drop: bool,
}

struct Shared {
    state: Mutex<State>,
    /// Notified when a new head arrives, and on cancel.
    changed: Condvar,
    /// The slot of the task running now. `TaskHandle::interrupt` and the
    /// thread's clear-after-run both hold this lock.
    running: Mutex<Option<usize>>,
    /// Raises the timer thread's interrupt.
    interrupt: InterruptHandle,
    on_panic: Option<PanicHook>,
    /// Set when the thread has ended; `await_termination` waits on it.
    ended: Mutex<bool>,
    ended_changed: Condvar,
}
// ANCHOR_END: shared

impl State {
    /// A slot for a new task, reusing a free one if there is one.
    ///
    /// The slot is filled field by field, not moved in whole: a `Slot`
    /// built by the caller went through a copy on the stack that was read
    /// back in 16-byte pieces right after being written in smaller ones,
    /// and such a read stalls until the writes reach the cache (a failed
    /// store-to-load forward). That cost `schedule` about 8 ns of its 60.
    fn occupy(&mut self, repeat: Repeat, work: Work) -> usize {
        let index = self.free.pop().unwrap_or_else(|| {
            self.slots.push(Slot::VACANT);
            self.slots.len() - 1
        });
        let slot = &mut self.slots[index];
        slot.state = TaskState::Scheduled;
        slot.repeat = repeat;
        slot.work = Some(work);
        slot.handles = 1;
        slot.live = true;
        index
    }

    /// The thread is done with `index` (it left the heap for good). Frees
    /// the slot if no handle refers to it; gives back its closure, if it
    /// still has one, to be dropped outside the lock.
    fn retire(&mut self, index: usize) -> Option<Work> {
        let slot = &mut self.slots[index];
        slot.live = false;
        let work = slot.work.take();
        if slot.handles == 0 {
            self.free.push(index);
        }
        work
    }
}

type PanicHook = Box<dyn Fn(&str) + Send + Sync>;

/// A timer with one thread: java.util.Timer, in Rust. See the module docs.
pub struct Timer {
    shared: Arc<Shared>,
    thread: Option<thread::JoinHandle<()>>,
}

/// A scheduled task, seen from outside: cancel it, interrupt its run, ask
/// how it went. Clones refer to the same task.
pub struct TaskHandle {
    shared: Arc<Shared>,
    /// Not reused while this handle exists.
    slot: usize,
}

impl Timer {
    /// Starts a timer whose thread is named `name`: `new Timer(name)`.
    ///
    /// ```
    /// use interrupt_cancel::timer::Timer;
    ///
    /// let timer = Timer::new("doc-new")?;
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// timer.schedule(std::time::Duration::ZERO, move || {
    ///     let me = std::thread::current().name().map(str::to_owned);
    ///     tx.send(me).unwrap();
    /// })?;
    /// assert_eq!(rx.recv()?.as_deref(), Some("doc-new"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be started.
    pub fn new(name: &str) -> io::Result<Timer> {
        Timer::start(name, None)
    }

    /// Starts a timer that calls `hook` with the message of every panic a
    /// task raises (on the timer thread, right after the panic was
    /// caught). The task's handle reports it too.
    ///
    /// ```
    /// use interrupt_cancel::timer::{TaskState, Timer};
    /// use std::time::Duration;
    ///
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// let timer = Timer::with_panic_hook("doc-hook", move |message| {
    ///     tx.send(message.to_owned()).unwrap();
    /// })?;
    /// let task = timer.schedule(Duration::ZERO, || panic!("boom"))?;
    /// assert_eq!(rx.recv()?, "boom");
    /// assert_eq!(task.state(), TaskState::Panicked);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// If `name` contains a NUL byte, or the thread cannot be started.
    pub fn with_panic_hook(
        name: &str,
        hook: impl Fn(&str) + Send + Sync + 'static,
    ) -> io::Result<Timer> {
        Timer::start(name, Some(Box::new(hook)))
    }

    fn start(name: &str, on_panic: Option<PanicHook>) -> io::Result<Timer> {
        check_name(name)?;
        let token = InterruptToken::new();
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                heap: BinaryHeap::new(),
                slots: Vec::new(),
                free: Vec::new(),
                next_seq: 0,
                cancelled: false,
                shut_down: false,
                drain_on_drop: false,
            }),
            changed: Condvar::new(),
            running: Mutex::new(None),
            interrupt: token.handle(),
            on_panic,
            ended: Mutex::new(false),
            ended_changed: Condvar::new(),
        });
        let thread = {
            let shared = Arc::clone(&shared);
            thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || {
                    main_loop(&shared, &token);
                    *shared.ended.lock() = true;
                    shared.ended_changed.notify_all();
                })?
        };
        Ok(Timer {
            shared,
            thread: Some(thread),
        })
    }

    /// Runs `task` once, after `delay`: `schedule(task, delay)`.
    ///
    /// ```
    /// use interrupt_cancel::timer::Timer;
    /// use std::time::Duration;
    ///
    /// let timer = Timer::new("doc-schedule")?;
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// timer.schedule(Duration::from_millis(5), move || tx.send("ran").unwrap())?;
    /// assert_eq!(rx.recv()?, "ran");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ScheduleError::DelayOverflow`] if `now + delay` overflows the
    /// clock; [`ScheduleError::Cancelled`] once the timer was cancelled.
    pub fn schedule<F>(&self, delay: Duration, task: F) -> Result<TaskHandle, ScheduleError>
    where
        F: FnOnce() + Send + 'static,
    {
        let deadline = after(delay)?;
        self.submit(deadline, Repeat::Once, Work::Once(Box::new(task)))
    }

    /// Runs `task` once, at `at` (at once if `at` has passed):
    /// `schedule(task, Date)`.
    ///
    /// ```
    /// use interrupt_cancel::timer::Timer;
    /// use std::time::{Duration, Instant};
    ///
    /// let timer = Timer::new("doc-at")?;
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// let at = Instant::now() + Duration::from_millis(5);
    /// timer.schedule_at(at, move || tx.send(Instant::now()).unwrap())?;
    /// assert!(rx.recv()? >= at);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ScheduleError::Cancelled`] once the timer was cancelled.
    pub fn schedule_at<F>(&self, at: Instant, task: F) -> Result<TaskHandle, ScheduleError>
    where
        F: FnOnce() + Send + 'static,
    {
        self.submit(at, Repeat::Once, Work::Once(Box::new(task)))
    }

    /// Runs `task` after `delay`, then again `period` after each run
    /// *started*: fixed delay, `schedule(task, delay, period)`. A run that
    /// starts late pushes every later one back.
    ///
    /// ```
    /// use interrupt_cancel::timer::Timer;
    /// use std::time::Duration;
    ///
    /// let timer = Timer::new("doc-delay")?;
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// let ms = Duration::from_millis(1);
    /// let task = timer.schedule_with_fixed_delay(ms, ms, move || {
    ///     let _ = tx.send(());
    /// })?;
    /// for _ in 0..3 {
    ///     rx.recv()?;
    /// }
    /// assert!(task.cancel(), "it would have run again");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ScheduleError::ZeroPeriod`], [`ScheduleError::DelayOverflow`],
    /// [`ScheduleError::PeriodOverflow`] (the second run would be past the
    /// end of the clock), [`ScheduleError::Cancelled`].
    pub fn schedule_with_fixed_delay<F>(
        &self,
        delay: Duration,
        period: Duration,
        task: F,
    ) -> Result<TaskHandle, ScheduleError>
    where
        F: FnMut() + Send + 'static,
    {
        self.schedule_with_fixed_delay_from(after(delay)?, period, task)
    }

    /// Fixed delay from a first run at `first`. If `first` has passed, the
    /// task runs once at once, and then every `period`: nothing is caught
    /// up.
    ///
    /// ```
    /// use interrupt_cancel::timer::Timer;
    /// use std::time::{Duration, Instant};
    ///
    /// let timer = Timer::new("doc-delay-from")?;
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// let an_hour_ago = Instant::now().checked_sub(Duration::from_secs(3600));
    /// let first = an_hour_ago.unwrap_or_else(Instant::now);
    /// let task = timer.schedule_with_fixed_delay_from(first, Duration::from_secs(60), move || {
    ///     tx.send(()).unwrap();
    /// })?;
    /// rx.recv()?; // one run now; the next is a minute away
    /// task.cancel();
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Timer::schedule_with_fixed_delay`].
    pub fn schedule_with_fixed_delay_from<F>(
        &self,
        first: Instant,
        period: Duration,
        task: F,
    ) -> Result<TaskHandle, ScheduleError>
    where
        F: FnMut() + Send + 'static,
    {
        check_period(first, period)?;
        self.submit(
            first,
            Repeat::FixedDelay(period),
            Work::Every(Box::new(task)),
        )
    }

    /// Runs `task` after `delay`, then every `period` after the time the
    /// first run was *due*: fixed rate, `scheduleAtFixedRate(task, delay,
    /// period)`. A late run is followed by the missed ones, back to back.
    ///
    /// ```
    /// use interrupt_cancel::timer::Timer;
    /// use std::time::Duration;
    ///
    /// let timer = Timer::new("doc-rate")?;
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// let ms = Duration::from_millis(1);
    /// let task = timer.schedule_at_fixed_rate(ms, ms, move || {
    ///     let _ = tx.send(());
    /// })?;
    /// for _ in 0..3 {
    ///     rx.recv()?;
    /// }
    /// task.cancel();
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Timer::schedule_with_fixed_delay`].
    pub fn schedule_at_fixed_rate<F>(
        &self,
        delay: Duration,
        period: Duration,
        task: F,
    ) -> Result<TaskHandle, ScheduleError>
    where
        F: FnMut() + Send + 'static,
    {
        self.schedule_at_fixed_rate_from(after(delay)?, period, task)
    }

    /// Fixed rate from a first run at `first`. If `first` has passed, every
    /// run due since then is run at once, back to back, to catch up.
    ///
    /// ```
    /// use interrupt_cancel::timer::Timer;
    /// use std::sync::mpsc;
    /// use std::time::{Duration, Instant};
    ///
    /// let timer = Timer::new("doc-rate-from")?;
    /// let (tx, rx) = mpsc::channel();
    /// let period = Duration::from_secs(60);
    /// // Five runs were due in the last four and a half minutes.
    /// let first = Instant::now().checked_sub(period * 9 / 2);
    /// # let Some(first) = first else { return Ok(()) }; // a machine up for under 5 minutes
    /// let task = timer.schedule_at_fixed_rate_from(first, period, move || {
    ///     let _ = tx.send(());
    /// })?;
    /// for _ in 0..5 {
    ///     rx.recv()?;
    /// }
    /// assert_eq!(rx.try_recv(), Err(mpsc::TryRecvError::Empty));
    /// task.cancel();
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Timer::schedule_with_fixed_delay`].
    pub fn schedule_at_fixed_rate_from<F>(
        &self,
        first: Instant,
        period: Duration,
        task: F,
    ) -> Result<TaskHandle, ScheduleError>
    where
        F: FnMut() + Send + 'static,
    {
        check_period(first, period)?;
        self.submit(
            first,
            Repeat::FixedRate(period),
            Work::Every(Box::new(task)),
        )
    }

    // ANCHOR: submit
    fn submit(
        &self,
        deadline: Instant,
        repeat: Repeat,
        work: Work,
    ) -> Result<TaskHandle, ScheduleError> {
        let mut state = self.shared.state.lock();
        if state.cancelled {
            return Err(ScheduleError::Cancelled);
        }
        if state.shut_down {
            return Err(ScheduleError::ShutDown);
        }
        let slot = state.occupy(repeat, work);
        let seq = state.next_seq;
        state.next_seq += 1;
        // `seq` is the largest yet, so only an earlier deadline beats the
        // head.
        let new_head = state
            .heap
            .peek()
            .is_none_or(|head| deadline < head.deadline);
        state.heap.push(Entry {
            deadline,
            seq,
            slot,
        });
        if new_head {
            // The thread waits for a later deadline (or for anything): only
            // now does it need to look again.
            self.shared.changed.notify_one();
        }
        drop(state);
        Ok(TaskHandle {
            shared: Arc::clone(&self.shared),
            slot,
        })
    }
    // ANCHOR_END: submit

    /// Discards every queued task and stops the timer: `Timer.cancel()`. A
    /// task that is running finishes; later `schedule` calls fail with
    /// [`ScheduleError::Cancelled`] ("Timer already cancelled."). The
    /// discarded tasks' handles say [`TaskState::Cancelled`]. Calling it
    /// again does nothing.
    ///
    /// ```
    /// use interrupt_cancel::timer::{TaskState, Timer};
    /// use std::time::Duration;
    ///
    /// let timer = Timer::new("doc-cancel")?;
    /// let queued = timer.schedule(Duration::from_secs(3600), || {})?;
    /// timer.cancel();
    /// assert_eq!(queued.state(), TaskState::Cancelled);
    /// let refused = timer.schedule(Duration::ZERO, || {}).unwrap_err();
    /// assert_eq!(refused.to_string(), "Timer already cancelled.");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cancel(&self) {
        drop(self.discard_queue(false));
    }

    /// Stops the timer and empties its queue: every queued task not yet
    /// cancelled becomes [`TaskState::Cancelled`]. With `hand_back`, gives
    /// a handle to each of those; otherwise none.
    fn discard_queue(&self, hand_back: bool) -> Vec<TaskHandle> {
        let mut pending = Vec::new();
        let discarded: Vec<Option<Work>> = {
            let mut state = self.shared.state.lock();
            state.cancelled = true;
            self.shared.changed.notify_all();
            let heap = std::mem::take(&mut state.heap);
            heap.into_iter()
                .map(|entry| {
                    let slot = &mut state.slots[entry.slot];
                    if slot.state == TaskState::Scheduled {
                        slot.state = TaskState::Cancelled;
                        if hand_back {
                            slot.handles += 1; // the one handed back
                            pending.push(TaskHandle {
                                shared: Arc::clone(&self.shared),
                                slot: entry.slot,
                            });
                        }
                    }
                    state.retire(entry.slot)
                })
                .collect()
        };
        // A closure may do anything when dropped, even call this timer:
        // never drop one under the lock.
        drop(discarded);
        pending
    }

    /// Raises the interrupt of the task running now, if any.
    fn interrupt_running(&self) {
        let running = self.shared.running.lock();
        if running.is_some() {
            self.shared.interrupt.interrupt();
        }
    }

    /// [`Timer::cancel`], and more, as `ExecutorService.shutdownNow()`
    /// does: raises the interrupt of the task running now (if any), and
    /// hands back a handle to every queued task that had not been
    /// cancelled, in no particular order. Each says
    /// [`TaskState::Cancelled`]: it will not run.
    ///
    /// ```
    /// use interrupt_cancel::timer::{TaskState, Timer};
    /// use std::time::Duration;
    ///
    /// let timer = Timer::new("doc-shutdown-now")?;
    /// let hour = Duration::from_secs(3600);
    /// let kept = timer.schedule(hour, || {})?;
    /// timer.schedule(hour, || {})?.cancel(); // cancelled already: not handed back
    /// let pending = timer.shutdown_now();
    /// assert_eq!(pending.len(), 1);
    /// assert_eq!(pending[0].state(), TaskState::Cancelled);
    /// assert_eq!(kept.state(), TaskState::Cancelled);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shutdown_now(&self) -> Vec<TaskHandle> {
        let pending = self.discard_queue(true);
        self.interrupt_running();
        pending
    }

    /// Whether [`Timer::cancel`] was called (or the timer is being dropped).
    ///
    /// ```
    /// let timer = interrupt_cancel::timer::Timer::new("doc-is-cancelled")?;
    /// assert!(!timer.is_cancelled());
    /// timer.cancel();
    /// assert!(timer.is_cancelled());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn is_cancelled(&self) -> bool {
        self.shared.state.lock().cancelled
    }

    /// Removes the cancelled tasks from the queue and returns how many it
    /// removed: `Timer.purge()`. Cancelling through a handle only marks the
    /// task; its entry stays queued until its deadline comes (when the
    /// thread drops it) or until this. O(n).
    ///
    /// ```
    /// use interrupt_cancel::timer::Timer;
    /// use std::time::Duration;
    ///
    /// let timer = Timer::new("doc-purge")?;
    /// let hour = Duration::from_secs(3600);
    /// let tasks: Vec<_> = (0..3).map(|_| timer.schedule(hour, || {})).collect::<Result<_, _>>()?;
    /// tasks[0].cancel();
    /// tasks[2].cancel();
    /// assert_eq!(timer.queued(), 3);
    /// assert_eq!(timer.purge(), 2);
    /// assert_eq!(timer.queued(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn purge(&self) -> usize {
        let mut state = self.shared.state.lock();
        let (kept, removed): (Vec<Entry>, Vec<Entry>) = std::mem::take(&mut state.heap)
            .into_vec()
            .into_iter()
            .partition(|entry| state.slots[entry.slot].state == TaskState::Scheduled);
        state.heap = BinaryHeap::from(kept);
        for entry in &removed {
            // Cancelled slots gave up their closure already: nothing to drop.
            let _ = state.retire(entry.slot);
        }
        removed.len()
    }

    /// How many tasks are queued, cancelled ones not yet removed included.
    /// A repeating task is not counted while it runs.
    ///
    /// ```
    /// let timer = interrupt_cancel::timer::Timer::new("doc-queued")?;
    /// assert_eq!(timer.queued(), 0);
    /// timer.schedule(std::time::Duration::from_secs(3600), || {})?;
    /// assert_eq!(timer.queued(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn queued(&self) -> usize {
        self.shared.state.lock().heap.len()
    }

    /// Lets the queue drain, then stops: the one-shot tasks already
    /// queued run at their times, repeating tasks run no more (their
    /// handles say [`TaskState::Cancelled`]), later `schedule` calls fail
    /// with [`ScheduleError::ShutDown`], and the thread ends once the
    /// queue is empty. java.util.Timer has no such call: its thread runs
    /// out this way when the last reference to the timer is collected, at
    /// a time the collector picks. Calling it again, or after
    /// [`Timer::cancel`], does nothing.
    ///
    /// ```
    /// use interrupt_cancel::timer::{TaskState, Timer};
    /// use std::time::Duration;
    ///
    /// let timer = Timer::new("doc-shutdown")?;
    /// let once = timer.schedule(Duration::from_millis(5), || {})?;
    /// let every = timer.schedule_with_fixed_delay(Duration::from_secs(3600), Duration::from_secs(1), || {})?;
    /// timer.shutdown();
    /// assert!(timer.await_termination(Duration::from_secs(10)));
    /// assert_eq!(once.state(), TaskState::Executed);
    /// assert_eq!(every.state(), TaskState::Cancelled);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shutdown(&self) {
        let ended: Vec<Option<Work>> = {
            let mut state = self.shared.state.lock();
            if state.cancelled || state.shut_down {
                return;
            }
            state.shut_down = true;
            self.shared.changed.notify_all();
            let state = &mut *state;
            state
                .heap
                .iter()
                .filter_map(|entry| {
                    let slot = &mut state.slots[entry.slot];
                    let repeating = !matches!(slot.repeat, Repeat::Once);
                    (repeating && slot.state == TaskState::Scheduled).then(|| {
                        // The entry leaves when it reaches the head.
                        slot.state = TaskState::Cancelled;
                        slot.work.take()
                    })
                })
                .collect()
        };
        drop(ended); // never drop a closure under the lock
    }

    /// Whether [`Timer::shutdown`] or [`Timer::cancel`] was called (or the
    /// timer is being dropped): it takes no new tasks.
    ///
    /// ```
    /// let timer = interrupt_cancel::timer::Timer::new("doc-is-shutdown")?;
    /// assert!(!timer.is_shutdown());
    /// timer.shutdown();
    /// assert!(timer.is_shutdown());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn is_shutdown(&self) -> bool {
        let state = self.shared.state.lock();
        state.cancelled || state.shut_down
    }

    /// Whether the timer's thread has ended: after [`Timer::cancel`] once
    /// the running task (if any) returned, after [`Timer::shutdown`] once
    /// the queue drained.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let timer = interrupt_cancel::timer::Timer::new("doc-is-terminated")?;
    /// assert!(!timer.is_terminated());
    /// timer.cancel();
    /// assert!(timer.await_termination(Duration::from_secs(10)));
    /// assert!(timer.is_terminated());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn is_terminated(&self) -> bool {
        *self.shared.ended.lock()
    }

    /// Waits up to `timeout` for the thread to end (see
    /// [`Timer::is_terminated`]); true if it has. Called from one of this
    /// timer's own tasks it can only time out: the thread is busy running
    /// the caller.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let timer = interrupt_cancel::timer::Timer::new("doc-await")?;
    /// timer.schedule(Duration::from_secs(3600), || {})?;
    /// timer.shutdown(); // the task is an hour away: the queue is not empty
    /// assert!(!timer.await_termination(Duration::from_millis(10)));
    /// timer.cancel(); // discards it: the thread ends
    /// assert!(timer.await_termination(Duration::from_secs(10)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn await_termination(&self, timeout: Duration) -> bool {
        let deadline = sync::now().checked_add(timeout);
        let mut ended = self.shared.ended.lock();
        while !*ended {
            match deadline {
                Some(deadline) if sync::now() < deadline => {
                    self.shared.ended_changed.wait_until(&mut ended, deadline);
                }
                Some(_) => return false,
                None => self.shared.ended_changed.wait(&mut ended),
            }
        }
        true
    }

    /// Chooses what dropping the timer does. `false` (the default, as
    /// [`Timer::new`] starts it): [`Timer::cancel`], interrupt a running
    /// task and join the thread, so a drop never waits for a task that is
    /// not running yet. `true`: [`Timer::shutdown`] and join, so the drop
    /// waits until the last queued one-shot task has run, however far
    /// away it is due. The default is Java's `cancel()`, not the drain a
    /// collected java.util.Timer does, because a drop is a point in the
    /// program: one that waited an hour for a task would look like a hang.
    ///
    /// ```
    /// use interrupt_cancel::timer::Timer;
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use std::sync::Arc;
    /// use std::time::Duration;
    ///
    /// let ran = Arc::new(AtomicBool::new(false));
    /// let timer = Timer::new("doc-drain")?;
    /// timer.set_drain_on_drop(true);
    /// let flag = Arc::clone(&ran);
    /// timer.schedule(Duration::from_millis(20), move || flag.store(true, Ordering::SeqCst))?;
    /// drop(timer); // waits for the task
    /// assert!(ran.load(Ordering::SeqCst));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_drain_on_drop(&self, drain: bool) {
        self.shared.state.lock().drain_on_drop = drain;
    }

    /// Whether dropping the timer drains its queue (see
    /// [`Timer::set_drain_on_drop`]).
    ///
    /// ```
    /// let timer = interrupt_cancel::timer::Timer::new("doc-drains")?;
    /// assert!(!timer.drains_on_drop());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn drains_on_drop(&self) -> bool {
        self.shared.state.lock().drain_on_drop
    }
}

thread_local! {
    /// When the task running on this thread was due: set by the timer
    /// thread around each run.
    // No `const { }` block: loom's `thread_local!` does not take one.
    #[allow(clippy::missing_const_for_thread_local)]
    static SCHEDULED: Cell<Option<Instant>> = Cell::new(None);
}

/// When the task that calls it was due to run: `TimerTask`'s
/// `scheduledExecutionTime()`, for a task that wants to know how late it
/// is (and skip a run that is too late to matter). `None` outside a timer
/// task. For a fixed-rate task it is the due time of this run, not when
/// the run started; `Instant::now()` minus it is the task's lateness.
///
/// ```
/// use interrupt_cancel::timer::{scheduled_execution_time, Timer};
/// use std::time::{Duration, Instant};
///
/// assert_eq!(scheduled_execution_time(), None);
/// let timer = Timer::new("doc-set")?;
/// let (tx, rx) = std::sync::mpsc::channel();
/// let at = Instant::now() + Duration::from_millis(5);
/// timer.schedule_at(at, move || tx.send(scheduled_execution_time()).unwrap())?;
/// assert_eq!(rx.recv()?, Some(at));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn scheduled_execution_time() -> Option<Instant> {
    SCHEDULED.with(Cell::get)
}

/// `now + delay`, or the error that names the delay.
// `schedule` is generic, so it is compiled in the caller's crate; without
// this, the clock read there went through two calls.
#[inline]
fn after(delay: Duration) -> Result<Instant, ScheduleError> {
    sync::now()
        .checked_add(delay)
        .ok_or(ScheduleError::DelayOverflow(delay))
}

/// A repeating task needs a period, and a second run that fits the clock.
fn check_period(first: Instant, period: Duration) -> Result<(), ScheduleError> {
    if period.is_zero() {
        return Err(ScheduleError::ZeroPeriod);
    }
    match first.checked_add(period) {
        Some(_) => Ok(()),
        None => Err(ScheduleError::PeriodOverflow(period)),
    }
}

impl TaskHandle {
    /// Cancels the task: `TimerTask.cancel()`. Returns `true` if that
    /// prevented a run: a one-shot task that had not started, or a
    /// repeating task that would have run again (even if it is running
    /// now). `false` if it already ran (or started), was cancelled, or
    /// panicked. O(1): the entry is removed later (see [`Timer::purge`]).
    ///
    /// ```
    /// use interrupt_cancel::timer::Timer;
    /// use std::time::Duration;
    ///
    /// let timer = Timer::new("doc-task-cancel")?;
    /// let later = timer.schedule(Duration::from_secs(3600), || {})?;
    /// assert!(later.cancel());
    /// assert!(!later.cancel(), "already cancelled");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    // ANCHOR: cancel
    pub fn cancel(&self) -> bool {
        let mut state = self.shared.state.lock();
        let slot = &mut state.slots[self.slot];
        if slot.state != TaskState::Scheduled {
            return false;
        }
        slot.state = TaskState::Cancelled;
        // Drop the closure now (outside the lock), not when the entry
        // leaves the heap: what it holds is freed at once.
        let work = slot.work.take();
        drop(state);
        drop(work);
        true
    }
    // ANCHOR_END: cancel

    /// Asks the task to stop, if it is running right now: raises the timer
    /// thread's interrupt, which the task can read with
    /// [`interrupt::check`](crate::interrupt::check) or feel in
    /// [`InterruptToken::sleep`]. Returns whether it was running. A task
    /// that never checks runs to its end (I3). The thread clears the
    /// interrupt when the task returns, so it never reaches the next one.
    /// This does not cancel later runs of a repeating task: see
    /// [`TaskHandle::cancel`].
    ///
    /// ```
    /// use interrupt_cancel::interrupt;
    /// use interrupt_cancel::timer::Timer;
    /// use std::time::Duration;
    ///
    /// let timer = Timer::new("doc-interrupt")?;
    /// let (started_tx, started) = std::sync::mpsc::channel();
    /// let (stopped_tx, stopped) = std::sync::mpsc::channel();
    /// let task = timer.schedule(Duration::ZERO, move || {
    ///     started_tx.send(()).unwrap();
    ///     let token = interrupt::current().expect("a timer thread has a token");
    ///     // An hour's sleep, unless asked to stop.
    ///     stopped_tx.send(token.sleep(Duration::from_secs(3600))).unwrap();
    /// })?;
    /// started.recv()?;
    /// assert!(task.interrupt());
    /// assert_eq!(stopped.recv()?, Err(interrupt::Interrupted));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    // ANCHOR: interrupt
    pub fn interrupt(&self) -> bool {
        let running = self.shared.running.lock();
        // Under the lock the thread clears the interrupt with after each
        // task: if our task is still the one running, it is cleared only
        // after this, when the task has returned.
        if *running == Some(self.slot) {
            self.shared.interrupt.interrupt();
            true
        } else {
            false
        }
    }
    // ANCHOR_END: interrupt

    /// Where the task is in its life.
    ///
    /// ```
    /// use interrupt_cancel::timer::{TaskState, Timer};
    ///
    /// let timer = Timer::new("doc-task-state")?;
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// let task = timer.schedule(std::time::Duration::ZERO, move || tx.send(()).unwrap())?;
    /// rx.recv()?;
    /// assert_eq!(task.state(), TaskState::Executed);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn state(&self) -> TaskState {
        self.shared.state.lock().slots[self.slot].state
    }

    /// Whether the task was cancelled (through a handle or by
    /// [`Timer::cancel`]).
    ///
    /// ```
    /// let timer = interrupt_cancel::timer::Timer::new("doc-is-task-c")?;
    /// let task = timer.schedule(std::time::Duration::from_secs(3600), || {})?;
    /// assert!(!task.is_cancelled());
    /// task.cancel();
    /// assert!(task.is_cancelled());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_cancelled(&self) -> bool {
        self.state() == TaskState::Cancelled
    }
}

impl std::fmt::Debug for TaskHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskHandle")
            .field("slot", &self.slot)
            .field("state", &self.state())
            .finish()
    }
}

impl Clone for TaskHandle {
    fn clone(&self) -> Self {
        self.shared.state.lock().slots[self.slot].handles += 1;
        TaskHandle {
            shared: Arc::clone(&self.shared),
            slot: self.slot,
        }
    }
}

impl Drop for TaskHandle {
    /// The last handle of a task the thread is done with frees its slot.
    fn drop(&mut self) {
        let mut state = self.shared.state.lock();
        let slot = &mut state.slots[self.slot];
        slot.handles -= 1;
        if slot.handles == 0 && !slot.live {
            state.free.push(self.slot);
        }
    }
}

fn main_loop(shared: &Shared, token: &InterruptToken) {
    token.set_current();
    let mut state = shared.state.lock();
    loop {
        let Some(head) = state.heap.peek() else {
            if state.cancelled || state.shut_down {
                return;
            }
            shared.changed.wait(&mut state);
            continue;
        };
        let (deadline, slot) = (head.deadline, head.slot);
        if state.slots[slot].state != TaskState::Scheduled {
            // Cancelled through its handle: the entry leaves now, lazily.
            state.heap.pop();
            let _ = state.retire(slot); // its closure is gone already
            continue;
        }
        let now = sync::now();
        if deadline > now {
            kit::pause_point("interrupt-cancel::timer: peeked the head, not yet waiting");
            shared.changed.wait_until(&mut state, deadline);
            continue;
        }
        // ANCHOR: main_loop
        state.heap.pop();
        let task = &mut state.slots[slot];
        let work = task.work.take().expect("a scheduled task has its closure");
        if let Repeat::Once = task.repeat {
            task.state = TaskState::Executed;
        }
        drop(state); // tasks run outside the lock
        let outcome = run(shared, token, slot, work, deadline);
        state = shared.state.lock();
        match outcome {
            Ok(again) => {
                let spent = reschedule(&mut state, slot, again, deadline, now);
                if spent.is_some() {
                    drop(state); // a closure's drop may call this timer
                    drop(spent);
                    state = shared.state.lock();
                }
            }
            Err(payload) => {
                state.slots[slot].state = TaskState::Panicked;
                let _ = state.retire(slot);
                drop(state);
                // Reported once its handle says so; outside the lock, as
                // the hook may call this timer.
                if let Some(hook) = &shared.on_panic {
                    hook(panic_message(payload.as_ref()));
                }
                drop(payload);
                state = shared.state.lock();
            }
        }
        // ANCHOR_END: main_loop
    }
}

// ANCHOR: run
/// Runs one task, due at `due`, catching its panic; then clears the
/// interrupt. Gives back a repeating task's closure, or the panic.
fn run(
    shared: &Shared,
    token: &InterruptToken,
    slot: usize,
    work: Work,
    due: Instant,
) -> Result<Option<Repeating>, Box<dyn Any + Send>> {
    *shared.running.lock() = Some(slot);
    SCHEDULED.with(|due_at| due_at.set(Some(due))); // scheduled_execution_time()
    let outcome = panic::catch_unwind(AssertUnwindSafe(move || match work {
        Work::Once(task) => {
            task();
            None
        }
        Work::Every(mut task) => {
            task();
            Some(task)
        }
    }));
    SCHEDULED.with(|due_at| due_at.set(None));
    kit::pause_point("interrupt-cancel::timer: ran a task, not yet cleared the interrupt");
    {
        let mut running = shared.running.lock();
        *running = None;
        // JDK-6576792: an interrupt meant for this task must not reach the
        // next one. A handle interrupts only while its task is `running`,
        // under this lock, so nothing can land after this clear.
        token.clear();
    }
    kit::pause_point("interrupt-cancel::timer: cleared the interrupt, not yet looked at the queue");
    outcome
}
// ANCHOR_END: run

fn panic_message(payload: &(dyn Any + Send)) -> &str {
    if let Some(message) = payload.downcast_ref::<&str>() {
        message
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message
    } else {
        "a panic with a payload that is not a string"
    }
}

// ANCHOR: reschedule
/// After a run that did not panic: puts a repeating task back with its
/// next deadline, java.util.Timer's way, or retires the slot. Gives back a
/// closure that will not run again, to be dropped outside the lock.
fn reschedule(
    state: &mut State,
    slot: usize,
    again: Option<Repeating>,
    due: Instant,
    started: Instant,
) -> Option<Work> {
    let next = match state.slots[slot].repeat {
        Repeat::Once => None,
        Repeat::FixedDelay(period) => started.checked_add(period),
        Repeat::FixedRate(period) => due.checked_add(period),
    };
    let task = &mut state.slots[slot];
    task.work = again.map(Work::Every);
    if (state.cancelled || state.shut_down) && task.state == TaskState::Scheduled {
        // Timer::cancel ran while this task was out of the heap, or
        // Timer::shutdown, which ends repeats.
        task.state = TaskState::Cancelled;
    }
    // ANCHOR_END: reschedule
    // ANCHOR: put_back_after_run
    match next {
        Some(deadline) if task.state == TaskState::Scheduled => {
            let seq = state.next_seq;
            state.next_seq += 1;
            state.heap.push(Entry {
                deadline,
                seq,
                slot,
            });
            None
        }
        _ => {
            if task.state == TaskState::Scheduled {
                // A repeating task whose next run would be past the end of
                // the clock: it has run for the last time.
                task.state = TaskState::Executed;
            }
            state.retire(slot)
        }
    }
}
// ANCHOR_END: put_back_after_run

impl Drop for Timer {
    /// Cancels the timer, asks a running task to stop (raises the
    /// interrupt while it runs), and joins the thread; or, if
    /// [`Timer::set_drain_on_drop`] chose so, shuts it down and joins the
    /// thread once the queue has drained. If a task of this timer drops
    /// it, the thread cannot join itself: it ends once that task returns
    /// (and, draining, once the queue is empty).
    fn drop(&mut self) {
        if self.drains_on_drop() {
            self.shutdown();
        } else {
            self.cancel();
            self.interrupt_running();
        }
        if let Some(handle) = self.thread.take()
            && handle.thread().id() != thread::current().id()
        {
            // Panics are caught in `run`: the thread ends normally.
            let _ = handle.join();
        }
    }
}
