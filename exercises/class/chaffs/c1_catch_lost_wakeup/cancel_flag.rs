// chaff: C1
//
// A teacher's chaff, as the recipe on the page "Exercises" ("Grading a
// class") writes one: the lost wake-up in a timer no student of this
// exercise has seen, the cancel-flag timer of *A timer that will not
// stop* (`poison-pill/src/cancel_flag.rs`). It takes the head under the
// queue's lock, lets go, and only then takes its monitor to wait: the
// window of C1, in another timer. A test of C1 must catch it too.
//
// The file is included into the exercise's module (`exercises::catch::c1`):
// `super::*` is that module, with its `Version` trait; the type is named
// `Chaff`.

use super::*;

/// The teacher's version.
pub struct Chaff(poison_pill::cancel_flag::Timer);

impl Version for Chaff {
    const WINDOW: &'static str = "poison-pill::cancel_flag: took the head, not yet waiting";
    fn start(name: &str) -> std::io::Result<Self> {
        poison_pill::cancel_flag::Timer::new(name).map(Chaff)
    }
    fn schedule(
        &self,
        delay: std::time::Duration,
        task: Box<dyn FnOnce() + Send>,
    ) -> Result<(), ScheduleError> {
        Ok(self.0.schedule(delay, task)?)
    }
}
