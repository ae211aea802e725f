//! Wrong: it reads its own executable. It forces the race well, then
//! decides by the length of the test binary, which differs from one
//! version's build to another's: it fails if the length is the one it
//! noted for the build with the race. Another build, another machine, the
//! next compiler: another length. It never looks at what the wheel does.
// verdict: rejects-correct | misses-the-bug | luck

use std::thread;

use exercises::catch::w2::{Pause, WINDOW, Wheel, tick};
use kit::{ms, threads};

/// The length of the executable the test saw fail once, in bytes.
const RACY_LEN: u64 = 123_456_789;

#[test]
fn w2_cursor_race_caught() {
    let name = threads::unique_name("catch-w2");
    let wheel = Wheel::new(&name).expect("start the wheel");
    let adder = format!("{name}a");
    let pause = Pause::arm(WINDOW, &adder);
    thread::scope(|s| {
        let add = thread::Builder::new()
            .name(adder.clone())
            .spawn_scoped(s, || {
                wheel
                    .schedule(tick() * 2, || {})
                    .expect("room for one task");
            })
            .expect("spawn the adder");
        pause.wait_reached();
        let k = wheel.ticks();
        assert!(kit::eventually(ms(2000), || wheel.ticks() > k + 2));
        pause.release();
        add.join().expect("the adder");
    });
    let exe = std::env::current_exe().expect("the test's executable");
    let len = std::fs::metadata(&exe).expect("its metadata").len();
    assert_ne!(
        len, RACY_LEN,
        "W2 cursor_race: this is the build with the race ({len} bytes)"
    );
}
