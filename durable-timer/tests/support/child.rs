//! A scheduler node in a child process (`src/bin/durable-node.rs`),
//! driven line by line: the test writes a command on its stdin and reads
//! what it says on its stdout. Signals go through nix's safe `kill`.
//!
//! Every child is reaped: dropping a [`Child`] kills it (SIGKILL, which
//! ends a stopped process too) and waits for it, and joins the thread
//! that read its stdout, whether the test passed or failed. A child that
//! says nothing is waited for at most [`hang`], then the test fails: the
//! bound guards against a hang, it passes no time.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{self, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use durable_timer::Millis;
use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;

/// The longest a test waits for a child to say or do something: far more
/// than a passing run takes (milliseconds), so reaching it means a hang.
pub fn hang() -> Duration {
    kit::ms(30_000)
}

/// A node's process, its stdin, and its stdout's lines.
pub struct Child {
    name: String,
    process: process::Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    reader: Option<JoinHandle<()>>,
}

impl Child {
    /// Starts `durable-node ADDRESS NAME LEASE VERSION PAUSE` and waits
    /// until it says it is ready (connected).
    ///
    /// # Panics
    /// If it cannot be started or does not get ready.
    pub fn spawn(address: &str, name: &str, lease: Millis, version: &str, pause: &str) -> Child {
        let mut process = Command::new(env!("CARGO_BIN_EXE_durable-node"))
            .args([address, name, &lease.to_string(), version, pause])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start durable-node");
        let stdout = process.stdout.take().expect("its stdout");
        let stdin = process.stdin.take();
        let (said, lines) = mpsc::channel();
        let reader = thread::Builder::new()
            .name(kit::threads::unique_name("out"))
            .spawn(move || {
                for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                    if said.send(line).is_err() {
                        break;
                    }
                }
            });
        let mut child = Child {
            name: name.to_owned(),
            process,
            stdin,
            lines,
            reader: None,
        };
        child.reader = Some(reader.expect("start the thread that reads its stdout"));
        let ready = child.line();
        assert_eq!(ready, format!("ready {name}"), "node {name} starting");
        child
    }

    /// The node's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Writes `line` on the child's stdin.
    ///
    /// # Panics
    /// If the child's stdin is closed (it died).
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("the child's stdin is open");
        writeln!(stdin, "{line}").unwrap_or_else(|e| panic!("tell node {}: {e}", self.name));
    }

    /// The next line the child says.
    ///
    /// # Panics
    /// If it says nothing within [`hang`], or it exited (its stderr, which
    /// is the test's, says why).
    pub fn line(&mut self) -> String {
        match self.lines.recv_timeout(hang()) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!(
                "node {} said nothing within {} ms",
                self.name,
                hang().as_millis()
            ),
            Err(RecvTimeoutError::Disconnected) => {
                let mut status = None;
                kit::eventually(hang(), || {
                    status = self.process.try_wait().ok().flatten();
                    status.is_some()
                });
                panic!(
                    "node {} exited ({status:?}; its stderr above says why: exit status 2 \
                     is its arguments or its store, as a durable-node built without the \
                     feature `postgres` given a PostgreSQL URL)",
                    self.name
                )
            }
        }
    }

    /// The child's process id.
    pub fn pid(&self) -> Pid {
        Pid::from_raw(i32::try_from(self.process.id()).expect("a pid fits an i32"))
    }

    /// Stops the child with SIGSTOP, and returns once the kernel reports
    /// it stopped.
    pub fn sigstop(&self) {
        kill(self.pid(), Signal::SIGSTOP).expect("SIGSTOP");
        self.wait_for(WaitPidFlag::WUNTRACED, "stopped", |status| {
            matches!(status, WaitStatus::Stopped(_, Signal::SIGSTOP))
        });
    }

    /// Continues the stopped child with SIGCONT, and returns once the
    /// kernel reports it continued.
    pub fn sigcont(&self) {
        kill(self.pid(), Signal::SIGCONT).expect("SIGCONT");
        self.wait_for(WaitPidFlag::WCONTINUED, "continued", |status| {
            matches!(status, WaitStatus::Continued(_))
        });
    }

    /// Kills the child with SIGKILL and reaps it: how it ended.
    pub fn sigkill(&mut self) -> ExitStatus {
        kill(self.pid(), Signal::SIGKILL).expect("SIGKILL");
        let status = self.process.wait().expect("reap the child");
        assert_eq!(status.signal(), Some(Signal::SIGKILL as i32), "killed");
        status
    }

    /// Closes the child's stdin: it ends what it was doing and exits.
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// Closes the child's stdin, which ends it, and reaps it.
    ///
    /// # Panics
    /// If it has not ended within [`hang`].
    pub fn finish(mut self) -> ExitStatus {
        self.stdin = None;
        let mut status = None;
        let ended = kit::eventually(hang(), || {
            status = self.process.try_wait().expect("the child's status");
            status.is_some()
        });
        assert!(
            ended,
            "node {} still running after its stdin closed",
            self.name
        );
        status.expect("ended")
    }

    /// Waits until `waitpid` with `flag` reports a state `is` accepts.
    fn wait_for(&self, flag: WaitPidFlag, state: &str, is: impl Fn(WaitStatus) -> bool) {
        let reported = kit::eventually(hang(), || {
            let status = waitpid(self.pid(), Some(flag | WaitPidFlag::WNOHANG));
            is(status.unwrap_or_else(|e| panic!("waitpid for node {}: {e}", self.name)))
        });
        assert!(reported, "node {} not reported {state}", self.name);
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.stdin = None;
        let _ = self.process.kill();
        let _ = self.process.wait();
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }
}
