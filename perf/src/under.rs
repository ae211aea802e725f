//! Benches that run themselves again under a tool (callgrind, strace), one
//! case per run: `<tool> <tool's args> <this bench> --case=<name>`, the
//! tool writing what it saw to a file the bench then reads.

use std::path::PathBuf;
use std::process::Command;

/// The case this process was started to run, if it was: `--case=<name>`.
pub fn case() -> Option<String> {
    std::env::args().find_map(|a| a.strip_prefix("--case=").map(str::to_owned))
}

/// Runs this bench's `case` under `tool` with `args`, the tool writing to
/// `out` (a file under `target/bench-results`, named by the caller), and
/// returns what the tool wrote; `None` if the tool is not installed.
///
/// # Panics
/// If the run fails, or writes nothing: the numbers would be missing.
pub fn run(tool: &str, args: &[String], out: &str, case: &str) -> Option<String> {
    let dir = crate::report::dir();
    std::fs::create_dir_all(&dir).expect("target/bench-results");
    let out: PathBuf = dir.join(out);
    let me = std::env::current_exe().expect("the bench's own path");
    let args: Vec<String> = args
        .iter()
        .map(|a| a.replace("{out}", &out.to_string_lossy()))
        .collect();
    let Ok(run) = Command::new(tool)
        .args(&args)
        .arg(&me)
        .arg(format!("--case={case}"))
        .output()
    else {
        println!("{tool} is not installed: this bench needs it (apt-get install {tool})");
        return None;
    };
    assert!(
        run.status.success(),
        "{tool} on {case}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(&out).expect("the tool's output");
    let _ = std::fs::remove_file(&out);
    Some(text)
}
