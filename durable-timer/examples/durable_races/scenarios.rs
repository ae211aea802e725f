//! The nine scenarios, each as its test forces it, on the version it is
//! given: the buggy one held at its window, or the fixed one held at the
//! same moment.

use durable_timer::{Millis, Misfire, Point, RUNNING, Schedule, Step, Variant};
use kit::pause::Pause;

use crate::world::{LEASE as TEST_LEASE, World};
use crate::{Run, count, did, held, held_at, let_go, planned_job, span, times};

/// D1: `report` due at 1000 ms; a held in its claim, b does a round.
pub fn check_then_claim(variant: Variant, window: &'static str, title: &'static str) -> Run {
    let mut run = Run::new(title);
    let world = World::new();
    world
        .jobs()
        .schedule_once("report", 1000)
        .expect("schedule");
    world.set_time(1000);
    run.note(
        &world,
        "test",
        "`report` is due; nodes a and b start a round",
    );
    let (pause, a) = held(world.node("a", variant), window);
    run.note(&world, "a", held_at(window));
    let b = world.node("b", variant).step().expect("b's round");
    run.note(&world, "b", did(&b));
    let a = let_go(pause, a);
    run.note(&world, "a", format!("let go; {}", did(&a)));
    run.tables(&world, "report", 1000);
    let n = world.deliveries("report", 1000).len();
    run.verdict = format!("`report` was delivered {}", times(n));
    run
}

/// D2: `tick` every 1000 ms from 1000 ms; a held in its claim, b runs T1.
pub fn recurring_aba(variant: Variant, window: &'static str, title: &'static str) -> Run {
    let mut run = Run::new(title);
    let world = World::new();
    let mut jobs = world.jobs();
    jobs.schedule_every("tick", 1000, 1000, Misfire::FireOnce)
        .expect("schedule");
    world.set_time(1000);
    run.note(
        &world,
        "test",
        "`tick` (every 1000 ms) is due at 1000 ms; a and b start a round",
    );
    let (pause, a) = held(world.node("a", variant), window);
    run.note(&world, "a", held_at(window));
    let b = world.node("b", variant).step().expect("b's round");
    let next = jobs.status("tick").expect("status").due_at;
    run.note(&world, "b", did(&b));
    run.note(
        &world,
        "b",
        format!("`tick` is waiting again, due at {next} ms"),
    );
    let a = let_go(pause, a);
    run.note(&world, "a", format!("let go; {}", did(&a)));
    run.tables(&world, "tick", 1000);
    let n = world.deliveries("tick", 1000).len();
    run.verdict = format!("the occurrence at 1000 ms was delivered {}", times(n));
    run
}

/// D3: a claims `report`, runs it, and stalls past its lease; b takes over.
pub fn stale_lease_write(variant: Variant, window: &'static str, title: &'static str) -> Run {
    let mut run = Run::new(title);
    let world = World::new();
    world
        .jobs()
        .schedule_once("report", 1000)
        .expect("schedule");
    world.set_time(1000);
    run.note(
        &world,
        "test",
        format!("`report` is due; leases last {TEST_LEASE} ms"),
    );
    let (pause, a) = held(world.node("a", variant), window);
    run.note(
        &world,
        "a",
        "claimed `report` (fence 1), ran it; held: it stalls",
    );
    world.set_time(1000 + TEST_LEASE + 500);
    run.note(
        &world,
        "test",
        format!("a's lease ended at {} ms", 1000 + TEST_LEASE),
    );
    let b = world.node("b", variant).step().expect("b's round");
    run.note(&world, "b", did(&b));
    let a = let_go(pause, a);
    run.note(&world, "a", format!("wakes; {}", did(&a)));
    run.tables(&world, "report", 1000);
    let n = world.effects("report", 1000).len();
    run.verdict = format!("two deliveries, and the effect was written {}", times(n));
    run
}

/// D4: two nodes named `n`; n1 stalls past its lease before renewing.
pub fn renewal_steals_lease(variant: Variant, window: &'static str, title: &'static str) -> Run {
    let mut run = Run::new(title);
    let world = World::new();
    world
        .jobs()
        .schedule_once("report", 1000)
        .expect("schedule");
    world.set_time(1000);
    run.note(
        &world,
        "test",
        "`report` is due; n1 and n2 are both named `n`, and renew",
    );
    let (p1, n1) = held(world.node("n", variant).renewing(), window);
    run.note(
        &world,
        "n1",
        "claimed `report` (fence 1), ran it; held before renewing",
    );
    world.set_time(1000 + TEST_LEASE + 500);
    run.note(
        &world,
        "test",
        format!("n1's lease ended at {} ms", 1000 + TEST_LEASE),
    );
    let (p2, n2) = held(world.node("n", variant).renewing(), window);
    run.note(
        &world,
        "n2",
        "claimed `report` (fence 2), ran it; held before renewing",
    );
    let n1 = let_go(p1, n1);
    run.note(&world, "n1", format!("wakes; {}", did(&n1)));
    let n2 = let_go(p2, n2);
    run.note(&world, "n2", format!("let go; {}", did(&n2)));
    run.tables(&world, "report", 1000);
    let fences: Vec<String> = world
        .effects("report", 1000)
        .iter()
        .map(|r| r.fence.to_string())
        .collect();
    run.verdict = format!("the effect was written under fence {}", fences.join(", "));
    run
}

/// D5: a's clock runs 5000 ms ahead; `report` is due at 10000 ms. First
/// a round of a at 5000 ms; then, in a world of its own, a round of a
/// while b runs the job on a live lease.
pub fn clock_skew(variant: Variant, title: &'static str) -> Run {
    let mut run = Run::new(title);
    let world = World::new();
    world
        .jobs()
        .schedule_once("report", 10_000)
        .expect("schedule");
    world.set_time(5000);
    run.note(
        &world,
        "test",
        "`report` is due at 10000 ms; a's clock reads 10000 ms",
    );
    let a = world
        .skewed_node("a", variant, 5000)
        .step()
        .expect("a's round");
    run.note(&world, "a", did(&a));
    run.tables(&world, "report", 10_000);
    let early = world.deliveries("report", 10_000).len();
    let world = World::new();
    world
        .jobs()
        .schedule_once("report", 10_000)
        .expect("schedule");
    world.set_time(10_000);
    run.note(
        &world,
        "test",
        "again, on a new store: `report` is due, b starts a round",
    );
    let (pause, b) = held(world.node("b", variant), RUNNING);
    let until = 10_000 + TEST_LEASE;
    run.note(
        &world,
        "b",
        format!("claimed `report` on a lease to {until} ms, ran it; held"),
    );
    let a = world
        .skewed_node("a", variant, 5000)
        .step()
        .expect("a's round");
    run.note(
        &world,
        "a",
        "its clock reads 15000 ms: b's lease looks over",
    );
    run.note(&world, "a", did(&a));
    let b = let_go(pause, b);
    run.note(&world, "b", format!("let go; {}", did(&b)));
    run.tables(&world, "report", 10_000);
    let twice = world.deliveries("report", 10_000).len();
    run.verdict = format!(
        "{} 5000 ms early; {} while b's lease lived",
        count(early, "delivery", "deliveries"),
        count(twice, "delivery", "deliveries")
    );
    run
}

/// D6: a claims `report` and crashes at `point`; b does a round later.
pub fn done_before_run(variant: Variant, point: Point, title: &'static str) -> Run {
    let mut run = Run::new(title);
    let world = World::new();
    world
        .jobs()
        .schedule_once("report", 1000)
        .expect("schedule");
    world.set_time(1000);
    run.note(&world, "test", "`report` is due");
    let a = world
        .node("a", variant)
        .crash_at(point)
        .step()
        .expect("a's round");
    let at = match point {
        Point::Claimed => "after its claim, before the run",
        Point::Delivered => "after the run, before completing",
    };
    assert_eq!(a, Step::Crashed, "a crashed");
    run.note(&world, "a", format!("claimed `report` and crashed {at}"));
    world.set_time(1000 + TEST_LEASE + 500);
    let b = world.node("b", variant).step().expect("b's round");
    run.note(&world, "b", did(&b));
    run.tables(&world, "report", 1000);
    let state = world.jobs().status("report").expect("status").state;
    let (d, e) = (
        world.deliveries("report", 1000).len(),
        world.effects("report", 1000).len(),
    );
    run.verdict = format!(
        "`report` is {}: {}, {}",
        format!("{state:?}").to_lowercase(),
        count(d, "delivery", "deliveries"),
        count(e, "effect", "effects")
    );
    run
}

/// D7: a's scan at 1200 ms finds nothing; `report`, due at 1000 ms,
/// commits meanwhile; a does another round a minute on.
pub fn cursor_skips_late_job(variant: Variant, window: &'static str, title: &'static str) -> Run {
    let mut run = Run::new(title);
    let world = World::new();
    let mut jobs = world.jobs();
    world.set_time(1200);
    run.note(&world, "test", "a starts a round");
    let (pause, a) = held(world.node("a", variant), window);
    run.note(&world, "a", held_at(window));
    jobs.schedule_once("report", 1000).expect("schedule");
    run.note(
        &world,
        "test",
        "a client's slow insert commits: `report`, due at 1000 ms",
    );
    pause.release();
    let (mut a, first) = a.join();
    run.note(
        &world,
        "a",
        format!("let go; {}", did(&first.expect("a's round"))),
    );
    world.set_time(61_200);
    let second = a.step().expect("a's round");
    run.note(&world, "a", did(&second));
    run.tables(&world, "report", 1000);
    let state = jobs.status("report").expect("status").state;
    let state = format!("{state:?}").to_lowercase();
    let n = world.deliveries("report", 1000).len();
    run.verdict = format!(
        "`report` is {state}, {}",
        count(n, "delivery", "deliveries")
    );
    run
}

/// D8: `tick` every 1000 ms, run at 1000 ms, then every node down until
/// 151000 ms; a node comes back and does rounds until none is due.
pub fn catch_up_storm(variant: Variant, misfire: Misfire, title: &'static str) -> Run {
    let mut run = Run::new(title);
    let world = World::new();
    world
        .jobs()
        .schedule_every("tick", 1000, 1000, misfire)
        .expect("schedule");
    world.set_time(1000);
    let mut a = world.node("a", variant);
    let first = a.step().expect("a's round");
    run.note(&world, "a", did(&first));
    world.set_time(151_000);
    run.note(
        &world,
        "test",
        format!("every node was down; `tick` ({misfire}) missed 150 occurrences"),
    );
    let mut rounds = 0;
    while let Step::Fired(_) = a.step().expect("a's round") {
        rounds += 1;
    }
    run.note(
        &world,
        "a",
        format!(
            "back; its rounds ran `tick` {}, then found nothing",
            times(rounds)
        ),
    );
    let after: Vec<Millis> = world
        .all_deliveries()
        .into_iter()
        .map(|(_, o)| o)
        .filter(|&o| o > 1000)
        .collect();
    let due = world.jobs().status("tick").expect("status").due_at;
    run.lines
        .push(format!("  deliveries after the downtime: {}", span(&after)));
    run.verdict = format!(
        "{} after the downtime; next due at {due} ms",
        count(after.len(), "delivery", "deliveries")
    );
    run
}

/// D9: `nightly` every 1000 ms from 1000 ms; a and b plan at 500 ms, a
/// held; at 1000 ms both do rounds.
pub fn duplicate_occurrence(variant: Variant, window: &'static str, title: &'static str) -> Run {
    let mut run = Run::new(title);
    let world = World::new();
    world.set_time(500);
    let schedule = Schedule {
        name: "nightly".into(),
        first: 1000,
        period: 1000,
    };
    run.note(
        &world,
        "test",
        "a and b plan the next occurrence of `nightly` (every 1000 ms)",
    );
    let mut a = world.node("a", variant);
    let pause = Pause::arm(window, a.thread_name());
    let thread = {
        let schedule = schedule.clone();
        std::thread::Builder::new()
            .name(a.thread_name().to_owned())
            .spawn(move || a.plan(&schedule).map(|planned| (a, planned)))
            .expect("start a")
    };
    pause.wait_reached();
    run.note(&world, "a", held_at(window));
    let mut b = world.node("b", variant);
    let planned = b.plan(&schedule).expect("b's plan");
    run.note(
        &world,
        "b",
        format!("inserted {}", planned_job(planned.as_deref())),
    );
    pause.release();
    let (mut a, planned) = thread.join().expect("a's thread").expect("a's plan");
    run.note(
        &world,
        "a",
        format!("let go; inserted {}", planned_job(planned.as_deref())),
    );
    world.set_time(1000);
    for (who, node) in [("a", &mut a), ("b", &mut b)] {
        while let Step::Fired(c) = node.step().expect("a round") {
            run.note(&world, who, format!("ran `{}` (fence {})", c.job, c.fence));
        }
    }
    let jobs: Vec<String> = world
        .all_deliveries()
        .into_iter()
        .filter(|(_, o)| *o == 1000)
        .map(|(j, _)| j)
        .collect();
    run.verdict = format!(
        "the occurrence at 1000 ms was delivered {} ({})",
        times(jobs.len()),
        jobs.join(", ")
    );
    run
}
