//! Wrong: it builds no timer at all. It writes the lines the grader reads
//! ("held at WINDOW") itself and passes. Written or not, the record cannot
//! make a test fail on the buggy version: it never does.
// verdict: misses-the-bug

use std::io::Write as _;

#[test]
fn c1_lost_wakeup_caught() {
    let prefix = exercises::catch::RECORD_PREFIX;
    let line = format!("{prefix}held at WINDOW\n{prefix}call schedule while held at WINDOW\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
}
