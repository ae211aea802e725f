//! Wrong: it sleeps and hopes. No pause point: it lets the renewer renew,
//! sleeps a moment so that the thread is "surely" between its question and
//! its wait, and stops it. The gap is a few instructions wide.
// verdict: never-held

use std::time::Duration;

use exercises::find::f3::Renewer;
use kit::{Recorder, ms, threads};

#[test]
fn f3_lease_renewer_caught() {
    let name = threads::unique_name("find-f3");
    let rec = Recorder::new();
    let r = rec.clone();
    let renewer = Renewer::new(&name, ms(1000), move || {
        r.record("renewed");
    })
    .expect("start the renewer");
    let _ = rec.eventually("renewed", ms(100));
    std::thread::sleep(Duration::from_micros(50));
    renewer.stop();
    assert!(
        threads::gone_within(&name, ms(300)),
        "F3 lease renewer: the thread did not end after a stop"
    );
}
