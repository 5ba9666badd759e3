//! Other programs' records of Carcassonne games, translated to almanac/1.

pub mod jcz;
