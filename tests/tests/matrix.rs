//! The progression matrix: one battery of scenarios against every version
//! of the timer. `cargo test -p progression --test matrix -- --nocapture`
//! prints it with the measurements behind each cell.
#![cfg(not(loom))]

mod battery;

use battery::matrix::{self, Column};
use battery::versions::versions;
use battery::{pools, scenarios, scheduled, stress, wheels};

#[test]
fn progression_matrix() {
    let versions = versions();
    let columns = [
        Column::timer("N1 busy wait", scenarios::busy_wait),
        Column::timer(
            "S1/C1 task in the window",
            scenarios::earlier_task_in_the_window,
        ),
        Column::timer("P1 cancel, idle", scenarios::cancel_when_idle),
        Column::timer("P2 cancel, waiting", scenarios::cancel_while_waiting),
        Column::timer("P3 cancel in the gap", scenarios::cancel_in_the_gap),
        Column {
            pool: Some(pools::panic_then_execute),
            ..Column::timer("I2/I6 panic, then schedule", scenarios::panic_then_schedule)
        },
        Column {
            pool: Some(pools::long_task_delays_others),
            ..Column::timer("I4 long task first", scenarios::long_task_delays_others)
        },
        Column::timer("I5 fixed-rate catch-up", scenarios::fixed_rate_catches_up),
        Column::timer("T10 wake-ups per deadline", scheduled::wakeups_per_deadline),
        Column::timer("T14 cancelled, still held", scheduled::dead_entries),
        Column::pool("T2 burst grows pool", pools::burst_grows_the_pool),
        Column::pool("T6 every worker panics", pools::panics_kill_every_worker),
        Column::pool("T7 execute vs shutdown", pools::execute_shutdown_race),
        Column::timer("W2 cursor race", wheels::cursor_race),
        Column::timer("W8 O(1) schedule", wheels::schedule_cost),
        Column::timer("idle wake-ups", wheels::idle_wakeups),
        Column::any("none lost under stress", stress::nothing_lost),
    ];
    let rows = matrix::run(&versions, &columns);
    println!("{}", matrix::details(&versions, &columns, &rows));
    insta::assert_snapshot!("matrix", matrix::table(&versions, &columns, &rows));
}
