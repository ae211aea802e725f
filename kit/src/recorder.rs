//! An event recorder: who did what, and when, relative to one start instant.
//!
//! Tests do not sleep and then look; they wait for events. Tasks record what
//! they do (`rec.record("task 3 ran")`), and the test asks:
//!
//! - [`Recorder::eventually`]: did it happen within a (generous) deadline, and
//!   when? A passing run returns as soon as the event is recorded.
//! - [`Recorder::still_absent`]: has it still not happened at a given time?
//!   That is how "not before" is checked with an exact lower bound.
//!
//! The events also draw the timelines in the book.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

/// One recorded event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Time since the recorder's start.
    pub at: Duration,
    /// The name of the thread that recorded it (`"?"` for an unnamed one).
    pub who: String,
    /// What happened.
    pub what: String,
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:>6} ms  {:<15} {}",
            self.at.as_millis(),
            self.who,
            self.what
        )
    }
}

/// A shared, cloneable log of events. See the module docs.
#[derive(Clone)]
pub struct Recorder {
    inner: Arc<Inner>,
}

struct Inner {
    start: Instant,
    events: Mutex<Vec<Event>>,
    recorded: Condvar,
}

impl Default for Recorder {
    fn default() -> Self {
        Self::new()
    }
}

impl Recorder {
    /// A recorder whose clock starts now.
    pub fn new() -> Recorder {
        Recorder {
            inner: Arc::new(Inner {
                start: Instant::now(),
                events: Mutex::new(Vec::new()),
                recorded: Condvar::new(),
            }),
        }
    }

    /// The instant every event time is measured from.
    pub fn start(&self) -> Instant {
        self.inner.start
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.inner.start.elapsed()
    }

    /// Records `what`, done now by the calling thread; returns its time.
    pub fn record(&self, what: impl Into<String>) -> Duration {
        let who = std::thread::current().name().unwrap_or("?").to_owned();
        self.record_as(who, what)
    }

    /// Records `what`, done now by `who`; returns its time.
    pub fn record_as(&self, who: impl Into<String>, what: impl Into<String>) -> Duration {
        let mut events = self.inner.events.lock();
        let at = self.inner.start.elapsed();
        events.push(Event {
            at,
            who: who.into(),
            what: what.into(),
        });
        self.inner.recorded.notify_all();
        at
    }

    /// A copy of every event so far, in the order they were recorded.
    pub fn events(&self) -> Vec<Event> {
        self.inner.events.lock().clone()
    }

    /// When `what` was first recorded, if it was.
    pub fn at(&self, what: &str) -> Option<Duration> {
        self.inner
            .events
            .lock()
            .iter()
            .find(|e| e.what == what)
            .map(|e| e.at)
    }

    /// How many times `what` has been recorded.
    pub fn count(&self, what: &str) -> usize {
        self.inner
            .events
            .lock()
            .iter()
            .filter(|e| e.what == what)
            .count()
    }

    /// Waits until `what` is recorded, for at most `within` from now, and
    /// returns when it happened (time since start), or `None` if it did not.
    pub fn eventually(&self, what: &str, within: Duration) -> Option<Duration> {
        self.wait_until_count(what, 1, within)
    }

    /// Waits until `what` has been recorded `n` times, for at most `within`
    /// from now, and returns the time of the `n`th, or `None`.
    pub fn wait_until_count(&self, what: &str, n: usize, within: Duration) -> Option<Duration> {
        let deadline = Instant::now() + within;
        let mut events = self.inner.events.lock();
        loop {
            if let Some(e) = events.iter().filter(|e| e.what == what).nth(n - 1) {
                return Some(e.at);
            }
            if self
                .inner
                .recorded
                .wait_until(&mut events, deadline)
                .timed_out()
            {
                return None;
            }
        }
    }

    /// Waits until `until` (time since start) and checks that `what` has not
    /// been recorded by then. Returns the offending event if it has.
    ///
    /// This is the "not before" check: it returns early, with the event, the
    /// moment `what` is recorded too soon. Only an event stamped before
    /// `until` offends: on a loaded machine this thread may wake well after
    /// `until`, and an event recorded in between was on time.
    pub fn still_absent(&self, what: &str, until: Duration) -> Result<(), Event> {
        let deadline = self.inner.start + until;
        let too_soon = |e: &&Event| e.what == what && e.at < until;
        let mut events = self.inner.events.lock();
        loop {
            if let Some(e) = events.iter().find(too_soon) {
                return Err(e.clone());
            }
            if self
                .inner
                .recorded
                .wait_until(&mut events, deadline)
                .timed_out()
            {
                return match events.iter().find(too_soon) {
                    Some(e) => Err(e.clone()),
                    None => Ok(()),
                };
            }
        }
    }

    /// The events as a text table, one per line: time, thread, what.
    pub fn log(&self) -> String {
        self.events().iter().map(|e| format!("{e}\n")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ms;

    #[test]
    fn records_in_order_with_times() {
        let rec = Recorder::new();
        let a = rec.record_as("client", "a");
        let b = rec.record_as("client", "b");
        assert!(a <= b);
        let whats: Vec<_> = rec.events().into_iter().map(|e| e.what).collect();
        assert_eq!(whats, ["a", "b"]);
        assert_eq!(rec.at("b"), Some(b));
        assert_eq!(rec.count("a"), 1);
        assert!(rec.log().contains("client"));
    }

    #[test]
    fn eventually_returns_as_soon_as_the_event_comes() {
        let rec = Recorder::new();
        let other = rec.clone();
        let t = std::thread::spawn(move || {
            other.record("done");
        });
        assert!(rec.eventually("done", ms(5000)).is_some());
        t.join().unwrap();
    }

    #[test]
    fn eventually_gives_up_at_the_deadline() {
        let rec = Recorder::new();
        assert_eq!(rec.eventually("never", ms(20)), None);
        assert!(rec.elapsed() >= ms(20));
    }

    #[test]
    fn still_absent_does_not_blame_an_event_after_the_bound() {
        // The checking thread comes late (here: after the event), as a
        // loaded machine can make it: the event was on time all the same.
        let rec = Recorder::new();
        std::thread::sleep(ms(20));
        rec.record("fired");
        assert!(rec.still_absent("fired", ms(10)).is_ok());
        assert!(rec.still_absent("fired", ms(1_000)).is_err());
    }

    #[test]
    fn still_absent_waits_out_the_bound_and_reports_early_events() {
        let rec = Recorder::new();
        assert_eq!(rec.still_absent("early", ms(20)), Ok(()));
        assert!(rec.elapsed() >= ms(20));
        rec.record("early");
        let err = rec.still_absent("early", ms(10_000)).unwrap_err();
        assert_eq!(err.what, "early");
    }

    #[test]
    fn wait_until_count_counts() {
        let rec = Recorder::new();
        rec.record("tick");
        rec.record("tick");
        assert!(rec.wait_until_count("tick", 2, ms(10)).is_some());
        assert!(rec.wait_until_count("tick", 3, ms(10)).is_none());
    }
}
