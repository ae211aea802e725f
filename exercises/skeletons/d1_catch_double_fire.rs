//! Catch it, D1 `check_then_claim`: write the test that catches two
//! scheduler nodes firing one job, of *A timer that outlives its process*.
//!
//! `exercises::catch::d1` is a store of durable jobs and its scheduler
//! nodes, behind which one of several versions of the node runs: the
//! check-then-claim node, which looks for a due job in one statement and
//! marks it running, by its id alone, in another; correct nodes, built in
//! different ways (the chapter's, whose look and mark are one statement,
//! among them); and nodes with other bugs of the chapter. Your test cannot
//! tell which it got, except by what the nodes do to the store. The check
//! runs it against every one, several times each, some of them with every
//! core busy: it must fail on the check-then-claim node every time, by an
//! assertion of yours, and pass on every correct one every time.
//!
//! A `World` is a SQLite file of the test's own. Its time moves only when
//! your test says (`world.set_time(...)`): a job is due once the store's
//! time has reached it. A `Node` has its own connection and name; one
//! round (`step`) claims a due job, records its delivery, runs it and
//! completes it. `world.deliveries(job)` lists every time a node started
//! the job.
//!
//! Do not hope for the race: force it. `WINDOW` is the claim's window
//! (between the node's look for a due job and its mark), and
//! `Pause::arm(WINDOW, a.thread_name())` holds node a's thread there until
//! you release it. A test that hopes instead is told so.
//!
//! Check: `cargo xtask exercise check d1-catch`. Hints:
//! `cargo xtask exercise hint d1-catch`.

use exercises::catch::d1::World;

#[test]
fn d1_double_fire_caught() {
    let world = World::new().expect("a world");
    world.schedule_once("report", 1000).expect("schedule the job");
    world.set_time(1000).expect("the job is due");
    let a = world.node("a").expect("node a");
    let mut b = world.node("b").expect("node b");

    // TODO(D1): arm the pause here, for node a's thread (`a.thread_name()`),
    // before its round starts (`Pause` and `WINDOW` come from
    // `exercises::catch::d1`, `ms` from `kit`: add them to the `use` line
    // above).
    let a = a.spawn_step().expect("start node a's round");

    // TODO(D1): wait until node a is held in its window. While it is held,
    // run node b's round, on a thread of its own, and give it a while to
    // end; then release the pause.
    let b_step = b.step();

    let (_, a_step) = a.join();
    let _ = (a_step, b_step);
    // TODO(D1): no node crashed, and none stalled past its lease: the job
    // must have been delivered once. Assert it (`world.deliveries("report")`),
    // in a message that starts with "D1".
}
