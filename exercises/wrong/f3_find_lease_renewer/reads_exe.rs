//! Wrong: it reads the executable, not the renewer. It forces the window
//! well, then decides by the length of its own test binary, as if the
//! version inside could be told by its size. Each version is a binary of
//! its own, of whatever length: the answer has nothing to do with the
//! renewer.
// verdict: rejects-correct | misses-the-bug | luck

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
    let exe = std::env::current_exe().expect("the test's executable");
    let len = std::fs::metadata(&exe).expect("its metadata").len();
    // The length its author once saw the buggy build have: any other
    // build, any other compiler, has another.
    assert_ne!(
        len, 3_134_184,
        "F3 lease renewer: a binary of {len} bytes, the buggy one's length"
    );
}
