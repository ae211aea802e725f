//! The battery: adapters that give every timer one interface, the
//! scenarios, stage 6's pool in its own terms, and the matrix they fill.

pub mod futures;
pub mod gone;
pub mod matrix;
pub mod pools;
pub mod scenarios;
pub mod scheduled;
pub mod stress;
pub mod versions;
pub mod wheels;
