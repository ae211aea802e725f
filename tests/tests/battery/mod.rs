//! The battery: adapters that give every timer one interface, the
//! scenarios, and the matrix they fill.

pub mod matrix;
pub mod scenarios;
pub mod versions;
