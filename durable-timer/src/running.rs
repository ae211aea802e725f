//! A node on a thread of its own: one round ([`Node::spawn_step`]), for a
//! test that holds it at a pause point, or rounds until stopped
//! ([`Node::spawn`]), polling the store when nothing is due. The thread is
//! named [`Node::thread_name`]; every one is joined.

use std::io;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crate::node::{Node, Step};
use crate::store::StoreError;

/// One round of a node, running on its thread.
pub struct StepThread {
    name: String,
    handle: JoinHandle<(Node, Result<Step, StoreError>)>,
}

impl StepThread {
    /// The thread's name.
    pub fn thread_name(&self) -> &str {
        &self.name
    }

    /// Waits for the round; the node, and what the round did.
    ///
    /// # Panics
    /// If the round panicked: the panic goes on in the caller.
    pub fn join(self) -> (Node, Result<Step, StoreError>) {
        self.handle
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }
}

/// What a node's rounds did, counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Rounds that completed a job.
    pub fired: u64,
    /// Rounds whose completion was refused.
    pub fenced: u64,
    /// Rounds that dropped their run, their lease gone.
    pub demoted: u64,
    /// Whether the node crashed (a test's fault).
    pub crashed: bool,
    /// The store's errors (a busy store, a lost connection); the node
    /// went on after each.
    pub errors: Vec<StoreError>,
}

/// A node running rounds on its thread until [`Running::stop`].
pub struct Running {
    name: String,
    stop: Sender<()>,
    handle: JoinHandle<(Node, Tally)>,
}

impl Running {
    /// The thread's name.
    pub fn thread_name(&self) -> &str {
        &self.name
    }

    /// Whether the node's thread has ended: it crashed (a test's fault).
    /// [`Running::stop`] joins it.
    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Stops the node after its round and joins its thread.
    ///
    /// # Panics
    /// If a round panicked: the panic goes on in the caller.
    pub fn stop(self) -> (Node, Tally) {
        let _ = self.stop.send(());
        self.handle
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }
}

impl Node {
    /// Runs one round on the node's thread.
    ///
    /// # Errors
    /// If the thread cannot be started.
    pub fn spawn_step(mut self) -> io::Result<StepThread> {
        let name = self.thread_name().to_owned();
        let handle = thread::Builder::new().name(name.clone()).spawn(move || {
            let step = self.step();
            (self, step)
        })?;
        Ok(StepThread { name, handle })
    }

    /// Runs rounds on the node's thread, one after another while jobs are
    /// due, and every `poll` when none is, until stopped or crashed.
    ///
    /// # Errors
    /// If the thread cannot be started.
    pub fn spawn(mut self, poll: Duration) -> io::Result<Running> {
        let name = self.thread_name().to_owned();
        let (stop, stopped) = mpsc::channel();
        let handle = thread::Builder::new().name(name.clone()).spawn(move || {
            let mut tally = Tally::default();
            loop {
                let idle = match self.step() {
                    Ok(Step::Idle) => true,
                    Ok(Step::Fired(_)) => tally_one(&mut tally.fired),
                    Ok(Step::Fenced(_)) => tally_one(&mut tally.fenced),
                    Ok(Step::Demoted(_)) => tally_one(&mut tally.demoted),
                    Ok(Step::Crashed) => {
                        tally.crashed = true;
                        break;
                    }
                    Err(e) => {
                        tally.errors.push(e);
                        true
                    }
                };
                let wait = if idle { poll } else { Duration::ZERO };
                match stopped.recv_timeout(wait) {
                    Err(RecvTimeoutError::Timeout) => {}
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
                }
            }
            (self, tally)
        })?;
        Ok(Running { name, stop, handle })
    }
}

/// Counts one round; it was not idle.
fn tally_one(count: &mut u64) -> bool {
    *count += 1;
    false
}
