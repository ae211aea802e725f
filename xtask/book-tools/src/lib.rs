//! The book's tools: building and serving it, checking its words and its
//! catalogue against the code, regenerating its captured outputs and
//! pictures, its screenshots, the classroom bundle, and the teachers'
//! demos. `cargo xtask` forwards each command here; none of them is CI's
//! own (CI runs them from `xtask`).
//!
//! Its files, in reading order:
//!
//! - [`tools`]: the book's tools (mdBook and its link checker), pinned and
//!   installed when missing;
//! - [`book`]: `cargo xtask book` and `serve`, and the check that every
//!   file the book includes exists;
//! - [`site`]: the small web server that serves a built book where no
//!   mdBook is;
//! - [`prose`]: `cargo xtask prose`, the book's words: no figure from a run
//!   typed in, no chapter named by number;
//! - [`catalogue`]: `cargo xtask catalogue`, the book's catalogue of bugs
//!   against the tests, both ways;
//! - [`timelines`]: `cargo xtask timelines`, the book's generated assets
//!   regenerated from real runs; [`generators`]: the table of them;
//! - [`screenshots`]: `cargo xtask screenshots`, the book as a reader sees
//!   it, on screen and in print;
//! - [`bundle`]: `cargo xtask bundle`, the classroom bundle for a lab with
//!   no internet;
//! - [`demos`]: `cargo xtask demos` and `prepare`, every command a teacher
//!   is told to type, run as written.

// The shared tooling, under the names the files of this crate use.
use devkit::{cmd, loom};

pub mod book;
pub mod bundle;
pub mod catalogue;
pub mod demos;
pub mod generators;
pub mod prose;
pub mod screenshots;
pub mod site;
pub mod timelines;
pub mod tools;
