//! Wrong: it asserts nothing. It forces the window well, stops, waits for
//! the thread, and never says what it expected.
// verdict: misses-the-bug

use std::sync::Arc;
use std::thread;

use exercises::find::f3::{ASKED, Pause, Renewer};
use kit::{Recorder, ms, threads};

#[test]
fn f3_lease_renewer_caught() {
    let name = threads::unique_name("find-f3");
    let rec = Recorder::new();
    let pause = Pause::arm(ASKED, &name);
    let r = rec.clone();
    let renewer = Arc::new(
        Renewer::new(&name, ms(1000), move || {
            r.record("renewed");
        })
        .expect("start the renewer"),
    );
    pause.wait_reached();
    let stopper = {
        let renewer = Arc::clone(&renewer);
        thread::spawn(move || renewer.stop())
    };
    std::thread::sleep(ms(100));
    pause.release();
    stopper.join().expect("the stopper thread");
    drop(renewer);
    println!(
        "{} renewals, ended at {:?}",
        rec.count("renewed"),
        rec.elapsed()
    );
}
