//! What every tool of the workspace needs, whoever it serves: the project's
//! automation (`xtask`), the course runner (`exercises/runner`), and
//! anything after them. Its files, in reading order:
//!
//! - [`cmd`]: running a command (cargo among them) from the workspace root,
//!   and capturing what it prints with a time limit; where cargo builds;
//! - [`cargo`]: the workspace's packages (cargo metadata), the test
//!   executables a build made, the tests each lists;
//! - [`libtest`]: reading what a test run printed: bug IDs, panic
//!   messages, a test's own lines, a failing run's stable excerpt;
//! - [`wrap`]: the book's width, and outputs and shell commands wrapped
//!   to it;
//! - [`load`]: one busy thread per core beside some work;
//! - [`loom`]: where and how the loom models are built, and one model
//!   file run as a class sees it;
//! - [`markdown`]: the book's Markdown tables: one written from its
//!   header and rows, and whether a generated one has lost its figures;
//! - [`files`]: the files under a directory, at any depth, and copies of
//!   them.

pub mod cargo;
pub mod cmd;
pub mod files;
pub mod libtest;
pub mod load;
pub mod loom;
pub mod markdown;
pub mod wrap;
