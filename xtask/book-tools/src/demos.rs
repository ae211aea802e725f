//! The teachers' demos, as the book writes them: `cargo xtask demos` runs
//! every command a teacher is told to type, and `cargo xtask prepare`
//! builds everything those commands (and the exercises) will build, so
//! nothing compiles in class.
//!
//! A demo is a fenced `sh` block followed by a comment that says what it
//! must do, invisible on the page:
//!
//! ````text
//! ```sh
//! cargo test -p naive --test n1_busy_wait -- --ignored
//! ```
//! <!-- demo: fails, shows "N1 busy_wait:" -->
//! ````
//!
//! The outcome is `passes`, `fails`, `hangs` (still running after
//! [`HANG`], then stopped as Ctrl-C would), or `not run: <why>`; each
//! `shows "…"` must be in the run's output *and* in what the page quotes
//! (its text, with its included files): the live screen and the book must
//! agree. In a block of several lines, every line but the last must pass.
//! Every `sh` block in a chapter's **For the teacher** note, and on the
//! teachers' page, must carry such a comment; and each command in the
//! teachers' page's table of demos must be a demo of its chapter.

mod page;
mod run;

pub use page::{Demo, Outcome, demos};
pub use run::{prepare, run};

use std::time::Duration;

/// How long a `hangs` demo must still be running.
pub const HANG: Duration = Duration::from_secs(5);
