//! Wrong: it reads its own executable. It forces the race well, then
//! decides by the length of the test binary, which differs from one
//! version's build to another's: it fails if the length is the one it
//! noted for the build with the racy poll. Another build, another machine,
//! the next compiler: another length. It never looks at what the timer
//! does.
// verdict: rejects-correct | misses-the-bug | luck

use std::thread;

use exercises::catch::a1::{Pause, Task, Timer, WINDOW, poll_once, tick};
use kit::{ms, threads};

/// The length of the executable the test saw fail once, in bytes.
const RACY_LEN: u64 = 123_456_789;

#[test]
fn a1_lost_waker_caught() {
    let name = threads::unique_name("catch-a1");
    let timer = Timer::new(&name).expect("start the driver");
    let task = Task::new();
    let poller = format!("{name}p");
    let mut sleep = timer.sleep(tick());
    let pause = Pause::arm(WINDOW, &poller);
    thread::scope(|s| {
        let poll = thread::Builder::new()
            .name(poller.clone())
            .spawn_scoped(s, || poll_once(&mut sleep, &task))
            .expect("spawn the poller");
        pause.wait_reached();
        timer.advance(tick());
        let _ = kit::eventually(ms(2000), || timer.fired() == 1);
        pause.release();
        let _ = poll.join().expect("the poller");
    });
    let exe = std::env::current_exe().expect("the test's executable");
    let len = std::fs::metadata(&exe).expect("its metadata").len();
    assert_ne!(
        len, RACY_LEN,
        "A1 lost_waker: this is the build with the racy poll ({len} bytes)"
    );
}
