//! The `carcassonne` ruleset: the base game with Traders & Builders. Pure: no I/O.
pub mod tiles;
