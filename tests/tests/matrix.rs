//! The progression matrix: one battery of scenarios against every version
//! of the timer. `cargo test -p progression --test matrix -- --nocapture`
//! prints the measurements behind each cell, then the matrix.
#![cfg(not(loom))]

mod battery;

use battery::matrix::{self, Column, Wave};
use battery::versions::versions;
use battery::{durable, futures, pools, scenarios, scheduled, stress, wheels};

#[test]
fn progression_matrix() {
    use Wave::{Busy, Cancels, Counts, Idle, Lateness, Stress, Windows};
    let versions = versions();
    let columns = [
        Column::timer(Busy, "N1 busy wait", scenarios::busy_wait),
        Column::timer(
            Windows,
            "S1/C1/A5 task in the window",
            scenarios::earlier_task_in_the_window,
        ),
        Column::timer(Cancels, "P1 cancel, idle", scenarios::cancel_when_idle),
        Column::timer(
            Cancels,
            "P2 cancel, waiting",
            scenarios::cancel_while_waiting,
        ),
        Column::timer(
            Cancels,
            "P3 cancel in the gap",
            scenarios::cancel_in_the_gap,
        ),
        Column {
            pool: Some(pools::panic_then_execute),
            ..Column::timer(
                Counts,
                "I2/I6 panic, then schedule",
                scenarios::panic_then_schedule,
            )
        },
        Column {
            pool: Some(pools::long_task_delays_others),
            ..Column::timer(
                Lateness,
                "I4 long task first",
                scenarios::long_task_delays_others,
            )
        },
        Column::timer(
            Counts,
            "I5 fixed-rate catch-up",
            scenarios::fixed_rate_catches_up,
        ),
        Column::timer(
            Counts,
            "T10 wake-ups per deadline",
            scheduled::wakeups_per_deadline,
        ),
        Column::timer(
            Counts,
            "T14/A3 cancelled, still held",
            scheduled::dead_entries,
        ),
        Column::pool(Counts, "T2 burst grows pool", pools::burst_grows_the_pool),
        Column::pool(
            Counts,
            "T6 every worker panics",
            pools::panics_kill_every_worker,
        ),
        Column::pool(
            Counts,
            "T7 execute vs shutdown",
            pools::execute_shutdown_race,
        ),
        Column::timer(Lateness, "W2 cursor race", wheels::cursor_race),
        Column::timer(Counts, "W8 O(1) schedule", wheels::schedule_cost),
        Column::timer(Idle, "idle wake-ups", wheels::idle_wakeups),
        Column::any(Stress, "none lost under stress", stress::nothing_lost),
        Column::timer(Windows, "A1 poll vs fire", futures::lost_waker),
        Column::timer(Windows, "A2 polled by a new task", futures::stale_waker),
        Column::timer(Windows, "A6 reset to the past", futures::reset_to_past),
        Column::timer(Windows, "A7 waker finds the lock", futures::wake_under_lock),
    ];
    let (rows, took) = matrix::run(&versions, &columns);
    // Stage 9's part after the waves, so that it shares no core with a
    // scenario whose verdict is a time (its own verdicts are not).
    let started = std::time::Instant::now();
    let durable_rows = durable::run();
    let durable_took = started.elapsed();
    let table = format!(
        "{}\n{}",
        matrix::table(&versions, &columns, &rows),
        durable::table(&durable_rows)
    );
    // The numbers behind each cell first, then the matrix itself, last on
    // the screen (with `--nocapture`), as aligned columns.
    println!("{}", matrix::details(&versions, &columns, &rows, &took));
    println!("durable timer: {} ms", durable_took.as_millis());
    println!("{}", durable::details(&durable_rows));
    println!("{}", kit::table::columns(&table));
    insta::assert_snapshot!("matrix", table);
}
