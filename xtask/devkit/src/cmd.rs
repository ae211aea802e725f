//! Running commands: print each one as a student would type it, run it from
//! the workspace root, and turn a failure into a message that says what failed.
//!
//! Not `xshell`: it would replace only [`Cmd::run`] and [`Cmd::read`]; it
//! prints commands without their environment, and has no captured run with
//! both outputs interleaved and a time limit ([`Cmd::capture`]).

use std::ffi::OsStr;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Every xtask failure is a message for the person reading the log.
pub type Result<T = ()> = std::result::Result<T, String>;

/// The workspace root (this crate sits in `xtask/devkit/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("devkit sits two levels inside the workspace")
        .to_path_buf()
}

/// Where cargo builds: `CARGO_TARGET_DIR` when it is set (relative to the
/// workspace root when relative, as cargo reads it from the root), the
/// workspace's `target/` otherwise. Everything the automation writes
/// there (captures, loom's builds, the catch-its' runs) goes under it.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => root().join(dir),
        None => root().join("target"),
    }
}

/// The cargo that runs us (`$CARGO`), or `cargo` from the `PATH`.
pub fn cargo_bin() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string())
}

/// A command to run from the workspace root, with the environment it needs
/// remembered so it can be printed the way a student would type it.
pub struct Cmd {
    program: String,
    args: Vec<String>,
    envs: Vec<(String, String)>,
    quiet_envs: Vec<(String, String)>,
    dir: Option<PathBuf>,
}

impl Cmd {
    /// `program args...`; `"cargo"` means [`cargo_bin`].
    pub fn new(program: &str, args: &[&str]) -> Cmd {
        Cmd {
            program: program.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
            envs: Vec::new(),
            quiet_envs: Vec::new(),
            dir: None,
        }
    }

    /// `cargo args...`
    pub fn cargo(args: &[&str]) -> Cmd {
        Cmd::new("cargo", args)
    }

    /// Adds more arguments.
    pub fn args<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(mut self, args: I) -> Cmd {
        self.args.extend(
            args.into_iter()
                .map(|a| a.as_ref().to_string_lossy().into_owned()),
        );
        self
    }

    /// Sets an environment variable for the command (and shows it when printed).
    pub fn env(mut self, key: &str, value: &str) -> Cmd {
        self.envs.push((key.to_string(), value.to_string()));
        self
    }

    /// Sets an environment variable without showing it when printed (a
    /// long `PATH` would bury the command).
    pub fn env_quiet(mut self, key: &str, value: &str) -> Cmd {
        self.quiet_envs.push((key.to_string(), value.to_string()));
        self
    }

    /// Runs it from `dir` instead of the workspace root.
    pub fn dir(mut self, dir: &Path) -> Cmd {
        self.dir = Some(dir.to_path_buf());
        self
    }

    /// The command as one shell line: `RUSTFLAGS="--cfg loom" cargo test ...`.
    pub fn display(&self) -> String {
        let mut parts: Vec<String> = self
            .envs
            .iter()
            .map(|(k, v)| format!("{k}={}", quote(v)))
            .collect();
        parts.push(self.program.clone());
        parts.extend(self.args.iter().map(|a| quote(a)));
        parts.join(" ")
    }

    fn command(&self) -> Command {
        let program = if self.program == "cargo" {
            cargo_bin()
        } else {
            self.program.clone()
        };
        let mut c = Command::new(program);
        c.args(&self.args)
            .current_dir(self.dir.clone().unwrap_or_else(root));
        for (k, v) in self.envs.iter().chain(&self.quiet_envs) {
            c.env(k, v);
        }
        c
    }

    /// Prints the command and becomes it (Unix `exec`): this process is
    /// replaced, so the command has this process's id, and stopping that
    /// id (`kill $!` after `cargo xtask serve &`) stops the command itself
    /// rather than leaving it running without its parent. Returns only if
    /// the command could not start.
    pub fn exec(&self) -> Result {
        use std::os::unix::process::CommandExt;
        println!("$ {}", self.display());
        let err = self.command().exec();
        Err(format!("could not start `{}`: {err}", self.display()))
    }

    /// Prints the command, runs it with the terminal as its output, and
    /// fails unless it exits with success.
    pub fn run(&self) -> Result {
        println!("$ {}", self.display());
        let status = self
            .command()
            .status()
            .map_err(|e| format!("could not start `{}`: {e}", self.display()))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!(
                "`{}` failed ({})",
                self.display(),
                describe(status)
            ))
        }
    }

    /// Runs it and returns its standard output; its standard error goes to
    /// the terminal. Fails unless it exits with success.
    pub fn read(&self) -> Result<String> {
        let out = self
            .command()
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| format!("could not start `{}`: {e}", self.display()))?;
        if !out.status.success() {
            return Err(format!(
                "`{}` failed ({})",
                self.display(),
                describe(out.status)
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Starts it with its standard output piped to us, to be read as it
    /// comes; its standard error goes to the terminal. The caller waits for
    /// it and judges its exit status.
    pub fn spawn_reading(&self) -> Result<Child> {
        self.command()
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("could not start `{}`: {e}", self.display()))
    }

    /// Runs it with both outputs captured together (in order, as a terminal
    /// would show them), killing it after `limit`. Never fails on the exit
    /// status: the caller judges it.
    pub fn capture(&self, limit: Duration) -> Result<Captured> {
        // A file, not a pipe: a killed `cargo test` may leave its test
        // binary holding a pipe open, and a file needs no reader thread.
        let dir = target_dir().join("xtask");
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = dir.join(format!("capture-{}-{}.log", std::process::id(), unique()));
        let file = File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let err = file.try_clone().map_err(|e| e.to_string())?;
        let start = Instant::now();
        let mut child = self
            .command()
            .stdin(Stdio::null())
            .stdout(file)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("could not start `{}`: {e}", self.display()))?;
        let status = loop {
            if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
                break Some(status);
            }
            if start.elapsed() > limit {
                // Our own child, by its handle: nothing else is touched.
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let output = std::fs::read(&path)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let _ = std::fs::remove_file(&path);
        Ok(Captured {
            status,
            output,
            took: start.elapsed(),
        })
    }
}

/// What a captured run left behind.
pub struct Captured {
    /// The exit status; `None` if it was killed for running too long.
    pub status: Option<ExitStatus>,
    /// Standard output and standard error, interleaved.
    pub output: String,
    /// Wall time.
    pub took: Duration,
}

impl Captured {
    /// True if the process ran to its end and exited with success.
    pub fn passed(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }

    /// "exit status 101", "killed by signal 6", "timed out".
    pub fn how(&self) -> String {
        match self.status {
            Some(s) => describe(s),
            None => "timed out".to_string(),
        }
    }
}

/// "exit status 101" or "killed by signal 6 (SIGABRT)".
pub fn describe(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(6)) => "killed by signal 6 (SIGABRT)".to_string(),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        (None, None) => "ended abnormally".to_string(),
    }
}

/// Quotes a word for a POSIX shell if it needs it.
pub fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        let escaped = word
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('$', "\\$")
            .replace('`', "\\`");
        format!("\"{escaped}\"")
    }
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Seconds with one decimal: "12.3 s".
pub fn secs(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

/// A banner for the start of a step in the log.
pub fn banner(title: &str) {
    println!();
    println!("==> {title}");
}

/// Installs Debian packages with apt-get (through sudo when not root), for
/// the steps that need a tool the machine may not have yet: the JDK, and
/// the headless Chromium that prints the book.
pub fn apt_install(packages: &[&str]) -> Result {
    let root_user = Cmd::new("id", &["-u"])
        .read()
        .is_ok_and(|id| id.trim() == "0");
    let apt = |args: &[&str]| {
        if root_user {
            Cmd::new("apt-get", args).run()
        } else {
            println!("(not root: through sudo)");
            let mut with_sudo = vec!["apt-get"];
            with_sudo.extend_from_slice(args);
            Cmd::new("sudo", &with_sudo).run()
        }
    };
    apt(&["update"])?;
    let mut install = vec!["install", "-y"];
    install.extend_from_slice(packages);
    apt(&install)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_commands_as_typed() {
        let c = Cmd::cargo(&["test", "--workspace"]).env("RUSTFLAGS", "--cfg loom");
        assert_eq!(
            c.display(),
            "RUSTFLAGS=\"--cfg loom\" cargo test --workspace"
        );
        assert_eq!(
            quote("a $HOME `x` \"q\""),
            "\"a \\$HOME \\`x\\` \\\"q\\\"\""
        );
    }

    #[test]
    fn captures_and_judges_exit_status() {
        let ok = Cmd::new("sh", &["-c", "echo out; echo err >&2"])
            .capture(Duration::from_secs(10))
            .unwrap();
        assert!(ok.passed());
        assert!(ok.output.contains("out") && ok.output.contains("err"));
        let bad = Cmd::new("sh", &["-c", "exit 3"])
            .capture(Duration::from_secs(10))
            .unwrap();
        assert!(!bad.passed());
        assert_eq!(bad.how(), "exit status 3");
    }
}
