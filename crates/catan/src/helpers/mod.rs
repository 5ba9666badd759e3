//! The Helpers of Catan scenario (the base rulebook's "YARDIMCI KURALLARI").
//!
//! Ten two-sided helper cards. The six numbered ones form a stack (A1 on top, named in the header's
//! `helpers.stack`, since the rulebook names only A1: Nassir); each player takes the top one right after
//! placing the second settlement and road, and the rest join the display. A player always has exactly one
//! helper; it is not used in the turn it was taken, at most once per turn, never in the Special Building
//! Phase. After a use: flip an A side to B and keep it, or swap it for one of the display (a B side must
//! be swapped); a new helper comes A side up.
//!
//! - `cards`: the helpers, who holds which, and a use as the log records it;
//! - `effects`: the rules of a use, one function per helper.

pub mod cards;
pub mod effects;
