//! Other programs' records of Catan games, translated to almanac/1.

pub mod catanatron;
pub mod jsettlers;
