//! S2 no_busy_wait: stage 1's N1 measurement, on the sleep-based timer. With
//! one task pending, the thread sleeps until it is due and costs nothing: the
//! correctness check that fails on `naive/src/busy_loop.rs`
//! (`n1_busy_wait_on_busy_loop`) passes here, so this is N1's `_fixed` test.
#![cfg(not(loom))]

use kit::pause::Pause;
use sleep_based::Timer;

#[test]
fn n1_busy_wait_fixed() {
    // A window that a loaded machine gave the thread no core says nothing:
    // the scenario is then set up again on a new timer, not measured again
    // (a second window would run past the task's deadline, where a busy
    // loop that has run its task and blocks looks idle too).
    let (share, _) = kit::cpu::until_judged(kit::cpu::MEASURE_TRIES, || {
        let name = kit::threads::unique_name("s2");
        let timer = Timer::new(&name).unwrap();
        let pause = Pause::arm(
            "sleep-based::sleep_until: took the head, going to sleep",
            &name,
        );
        // Due just after the window, and no later: the drop waits out the
        // sleep (P2, of *A timer that will not stop*).
        timer.schedule(kit::ms(WINDOW_MS + 50), || {}).unwrap();
        pause.wait_reached();
        pause.release();
        let share = kit::cpu::measure_once(&name, kit::ms(WINDOW_MS));
        drop(timer);
        kit::threads::assert_gone(&name);
        share
    });
    assert!(
        share.is_idle(),
        "N1 busy_wait: the sleep-based timer thread used {share} while one task waited"
    );
}

/// The window the thread is measured over: N1's.
const WINDOW_MS: u64 = 150;
