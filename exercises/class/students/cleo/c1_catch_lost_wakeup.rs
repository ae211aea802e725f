//! Wrong: it looks for the version in its environment, in
//! `/proc/self/environ` and in its command line, instead of in what the
//! timer does. Every version runs with the same environment and the same
//! arguments: there is nothing there to find, so it never fails.
// verdict: misses-the-bug

use std::sync::Arc;
use std::thread;

use exercises::catch::c1::{Pause, Timer, WINDOW};
use kit::{ms, threads};

fn says_buggy(text: &str) -> bool {
    let text = text.to_ascii_lowercase();
    ["buggy", "racy", "side=b", "chaff"].iter().any(|w| text.contains(w))
}

#[test]
fn c1_lost_wakeup_caught() {
    let name = threads::unique_name("catch-c1");
    let timer = Arc::new(Timer::new(&name).expect("start the timer"));
    let pause = Pause::arm(WINDOW, &name);
    timer.schedule(ms(1000), || {}).expect("a small delay");
    pause.wait_reached();
    let client = {
        let timer = Arc::clone(&timer);
        thread::spawn(move || timer.schedule(ms(50), || {}).expect("a small delay"))
    };
    thread::sleep(ms(100));
    pause.release();
    client.join().expect("the client thread");
    let environ = std::fs::read("/proc/self/environ").unwrap_or_default();
    let vars: String = std::env::vars().map(|(k, v)| format!("{k}={v}\n")).collect();
    let args: String = std::env::args().collect::<Vec<_>>().join(" ");
    assert!(
        !says_buggy(&String::from_utf8_lossy(&environ)) && !says_buggy(&vars) && !says_buggy(&args),
        "C1 lost_wakeup: the environment says this is the buggy version"
    );
}
