//! The progression matrix: one battery of scenarios against every version
//! of the timer. `cargo test -p progression --test matrix -- --nocapture`
//! prints it with the measurements behind each cell.
#![cfg(not(loom))]

mod battery;

use battery::matrix::{self, Column};
use battery::scenarios;
use battery::versions::versions;

#[test]
fn progression_matrix() {
    let versions = versions();
    let columns = [
        Column {
            heading: "N1 busy_wait",
            run: scenarios::busy_wait,
        },
        Column {
            heading: "S1 / C1 earlier task arrives in the window",
            run: scenarios::earlier_task_in_the_window,
        },
        Column {
            heading: "P1 cancel when idle",
            run: scenarios::cancel_when_idle,
        },
        Column {
            heading: "P2 cancel while waiting",
            run: scenarios::cancel_while_waiting,
        },
        Column {
            heading: "P3 cancel between check and wait",
            run: scenarios::cancel_in_the_gap,
        },
        Column {
            heading: "I2 / I6 a task panics, then schedule",
            run: scenarios::panic_then_schedule,
        },
        Column {
            heading: "I4 a long task delays the next",
            run: scenarios::long_task_delays_others,
        },
        Column {
            heading: "I5 fixed rate catches up",
            run: scenarios::fixed_rate_catches_up,
        },
    ];
    let rows = matrix::run(&versions, &columns);
    println!("{}", matrix::details(&versions, &columns, &rows));
    insta::assert_snapshot!("matrix", matrix::table(&versions, &columns, &rows));
}
