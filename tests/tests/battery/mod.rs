//! The battery: adapters that give every timer one interface, the
//! scenarios, stage 6's pool in its own terms, stage 9's durable timer in
//! its own, and the matrix they fill.

pub mod durable;
pub mod futures;
pub mod gone;
pub mod matrix;
pub mod pools;
pub mod scenarios;
pub mod scheduled;
pub mod stress;
pub mod versions;
pub mod wheels;
