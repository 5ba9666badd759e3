//! One game is one game: a fingerprint of what was played, so that a spectator's log of a game, the same log
//! uploaded again under another title, and the full and observer views of one record are known as one game
//! and counted once.
//!
//! The fingerprint is the SHA-256 of the ruleset, the players' names (folded, in seat order) and the facts
//! every view of a game sees alike: whose turn each was, the dice, what was built, the cards played, the
//! awards and the winner. It leaves out what a view may not see (the cards in a hand, what a steal took, points
//! still hidden) and everything a recorder writes beside the play (title, date, place, club).

use crate::facts::{Fact, Seat};
use crate::log::Envelope;
use std::fmt::Write;

/// A name as identities and duplicates compare it: in lower case by Unicode's rules, with the Turkish dotted
/// and dotless i read as the one letter `i` (`Işıl` and `IŞIL` are one name; Rust's lower case alone keeps `ı`
/// apart from `i` and writes `İ` as `i` with a combining dot).
pub fn fold_name(name: &str) -> String {
    name.to_lowercase().chars().filter(|&c| c != '\u{307}').map(|c| if c == 'ı' { 'i' } else { c }).collect()
}

/// A fingerprint being written, fact by fact.
pub struct Print {
    text: String,
}

impl Print {
    pub fn new(ruleset: &str, envelope: &Envelope) -> Print {
        let mut text = format!("{ruleset}\n{}\n", envelope.players.len());
        for p in &envelope.players {
            text.push_str(&fold_name(&p.name));
            text.push('\n');
        }
        Print { text }
    }

    /// Adds one event's facts: those every view sees alike.
    pub fn add(&mut self, facts: &[Fact]) {
        let seat = |s: Option<Seat>| s.map_or(String::from("-"), |s| s.to_string());
        for f in facts {
            let _ = match f {
                Fact::TurnStarted { turn, player } => write!(self.text, "t{turn},{player};"),
                Fact::Rolled { player, dice } => write!(self.text, "r{player},{};", dice.sum()),
                Fact::Built { player, piece } => write!(self.text, "b{player},{piece};"),
                Fact::CardPlayed { player, card } => write!(self.text, "c{player},{card};"),
                Fact::Award { award, from, to } => write!(self.text, "a{award},{},{};", seat(*from), seat(*to)),
                Fact::GameOver { winner } => write!(self.text, "w{};", seat(*winner)),
                _ => Ok(()),
            };
        }
    }

    /// The fingerprint, as hex.
    pub fn finish(self) -> String {
        crate::hash::sha256_hex(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::fold_name;

    #[test]
    fn names_fold_by_unicode_rules_with_the_turkish_i_as_one_letter() {
        assert_eq!(fold_name("Işıl"), fold_name("IŞIL"));
        assert_eq!(fold_name("İpek"), fold_name("ipek"));
        assert_eq!(fold_name("Ömer"), fold_name("ÖMER"));
        assert_eq!(fold_name("red"), fold_name("RED"));
        assert_ne!(fold_name("Ömer"), fold_name("Omer"));
        assert_ne!(fold_name("Işıl"), fold_name("Işık"));
    }
}
