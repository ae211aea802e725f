//! D7 `cursor_skips_late_job`: a job committed after a node's scan, due
//! before the scan's time.
//!
//! The scenario is the same for both versions. A client decides at
//! 1000 ms to run the job `report` now: due at 1000 ms. Its insert is
//! slow and commits at 1200 ms, while node a is in a round: a is held
//! where it has scanned the jobs and found nothing, and the insert commits
//! meanwhile; then a goes on. The world's time moves to 61 200 ms, a
//! minute on, and a does another round.
//!
//! - cursor_poll.rs: a's scan read up to 1200 ms and found nothing, so a
//!   moves its cursor to 1200 ms. From then on it asks only for jobs due
//!   after 1200 ms; the job, due at 1000 ms, is never read. No delivery,
//!   however many rounds a does.
//! - claim.rs, the fix: there is no cursor; every claim asks for every
//!   job waiting and due. a is held before its claim (the same moment, as
//!   near as the fix has one), and fires the job. One delivery.

mod support;

use durable_timer::{CLAIMING, Jobs, Millis, State, Step, Variant, cursor_poll};
use kit::pause::Pause;
use support::{Backend, World, nodes};

const JOB: &str = "report";
/// The job's due time: when the client decided to run it.
const DUE: Millis = 1000;
/// When the client's insert commits, during a's first round.
const COMMITTED: Millis = 1200;
/// When a does its next round.
const LATER: Millis = COMMITTED + 60_000;

struct Run {
    world: World,
    /// a's rounds: at [`COMMITTED`], then at [`LATER`].
    rounds: [Step; 2],
}

fn cursor_skips_late_job_scenario(backend: Backend, variant: Variant, window: &'static str) -> Run {
    let world = World::new(backend);
    let mut jobs = world.jobs();
    world.set_time(COMMITTED);
    let a = world.node("a", variant);

    let pause = Pause::arm(window, a.thread_name());
    let a = a.spawn_step().expect("start node a");
    pause.wait_reached();
    // The client's slow insert commits while a is in its round.
    jobs.schedule_once(JOB, DUE).expect("schedule");
    pause.release();
    let (mut a, first) = a.join();
    world.set_time(LATER);
    let second = a.step().expect("node a's second round");
    Run {
        world,
        rounds: [first.expect("node a's first round"), second],
    }
}

/// The correctness check: a job waiting and due is delivered by the next
/// round of a node.
fn assert_delivered(run: &Run) {
    let deliveries = run.world.deliveries(JOB, DUE);
    let state = jobs(run).status(JOB).expect("status").state;
    assert!(
        deliveries.len() == 1,
        "D7 cursor_skips_late_job: job `{JOB}` due at {DUE} ms, committed at {COMMITTED} ms, \
         was delivered {} times by {LATER} ms and is {state:?}: node a's scan at {COMMITTED} ms \
         moved its cursor past it",
        deliveries.len()
    );
}

fn jobs(run: &Run) -> Jobs {
    run.world.jobs()
}

fn reproduces(backend: Backend) {
    let run = cursor_skips_late_job_scenario(backend, Variant::CursorPoll, cursor_poll::WINDOW);
    assert_eq!(
        run.rounds,
        [Step::Idle, Step::Idle],
        "a found nothing twice"
    );
    assert_eq!(run.world.deliveries(JOB, DUE).len(), 0, "never delivered");
    assert_eq!(
        jobs(&run).status(JOB).expect("status").state,
        State::Waiting,
        "still waiting, a minute past its due time"
    );
}

fn fixed(backend: Backend) {
    let run = cursor_skips_late_job_scenario(backend, Variant::Fixed, CLAIMING);
    assert!(
        matches!(run.rounds[0], Step::Fired(_)),
        "a fired the job in the round its insert committed in: {:?}",
        run.rounds[0]
    );
    assert_eq!(run.rounds[1], Step::Idle, "nothing left to do");
    assert_delivered(&run);
    let deliveries = run.world.deliveries(JOB, DUE);
    assert_eq!(nodes(&deliveries).to_string(), "a", "delivered by a");
}

fn on_cursor_poll(backend: Backend) {
    let run = cursor_skips_late_job_scenario(backend, Variant::CursorPoll, cursor_poll::WINDOW);
    assert_delivered(&run);
}

#[test]
fn d7_cursor_skips_late_job_reproduces() {
    reproduces(Backend::Sqlite);
}

#[test]
fn d7_cursor_skips_late_job_fixed() {
    fixed(Backend::Sqlite);
}

#[test]
#[ignore = "D7 cursor_skips_late_job: shows the bug in cursor_poll.rs"]
fn d7_cursor_skips_late_job_on_cursor_poll() {
    on_cursor_poll(Backend::Sqlite);
}

/// The same scenarios on PostgreSQL, with the same outcome: a's scan is a
/// plain read, which does not wait for the client's insert, and neither
/// does the fix's claim, held before it starts.
#[cfg(feature = "postgres")]
mod postgres {
    use super::*;

    #[test]
    fn d7_cursor_skips_late_job_reproduces() {
        reproduces(Backend::Postgres);
    }

    #[test]
    fn d7_cursor_skips_late_job_fixed() {
        fixed(Backend::Postgres);
    }

    #[test]
    #[ignore = "D7 cursor_skips_late_job: shows the bug in cursor_poll.rs"]
    fn d7_cursor_skips_late_job_on_cursor_poll() {
        on_cursor_poll(Backend::Postgres);
    }
}
