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

/// A name as identities and duplicates compare it: as people read it (`normalise_name`), in lower case by
/// Unicode's rules, with the Turkish dotted and dotless i read as the one letter `i` (`Işıl` and `IŞIL` are
/// one name; Rust's lower case alone keeps `ı` apart from `i` and writes `İ` as `i` with a combining dot).
pub fn fold_name(name: &str) -> String {
    normalise_name(name)
        .to_lowercase()
        .chars()
        .filter(|&c| c != '\u{307}')
        .map(|c| if c == 'ı' { 'i' } else { c })
        .collect()
}

/// A name as people read it: in Unicode's composed form (NFC: `ş` one character, whichever keyboard typed
/// it), without the characters that do not show (zero-width spaces and joiners, direction marks, soft
/// hyphens, a byte-order mark: Unicode's format characters, and control characters), its spaces trimmed and
/// each run of them made one plain space. Two names that look the same are the same name: they are folded,
/// stored and fingerprinted in this form.
pub fn normalise_name(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let mut out = String::with_capacity(name.len());
    let mut space = false;
    for c in name.nfc() {
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if is_invisible(c) {
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
    out
}

/// A character that takes no place when a name is shown: a control character, or one of Unicode's format
/// characters (general category Cf).
fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{AD}' | '\u{600}'..='\u{605}' | '\u{61C}' | '\u{6DD}' | '\u{70F}' | '\u{180E}'
            | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}' | '\u{110BD}' | '\u{110CD}'
            | '\u{1BCA0}'..='\u{1BCA3}' | '\u{1D173}'..='\u{1D17A}' | '\u{E0001}' | '\u{E0020}'..='\u{E007F}')
}

/// A fingerprint being written, fact by fact: the SHA-256 of a text written as it goes, so that a game that
/// grows adds only its new events' facts (a live game's append at any length costs the same).
#[derive(Clone)]
pub struct Print {
    hasher: sha2::Sha256,
    /// One event's words, before they go into the hash.
    text: String,
}

impl Print {
    pub fn new(ruleset: &str, envelope: &Envelope) -> Print {
        let mut text = format!("{ruleset}\n{}\n", envelope.players.len());
        for p in &envelope.players {
            text.push_str(&fold_name(&p.name));
            text.push('\n');
        }
        let mut print = Print { hasher: sha2::Sha256::default(), text };
        print.flush();
        print
    }

    fn flush(&mut self) {
        sha2::Digest::update(&mut self.hasher, self.text.as_bytes());
        self.text.clear();
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
        self.flush();
    }

    /// The fingerprint of what was added so far, as hex (it may go on).
    pub fn now(&self) -> String {
        sha2::Digest::finalize(self.hasher.clone()).iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The fingerprint, as hex.
    pub fn finish(self) -> String {
        self.now()
    }
}

#[cfg(test)]
mod tests {
    use super::{fold_name, normalise_name};

    #[test]
    fn names_that_look_the_same_are_one_name() {
        let composed = "Ay\u{15F}e";
        let decomposed = "Ays\u{327}e";
        assert_ne!(composed, decomposed);
        for typed in
            [decomposed, "Ay\u{200B}\u{15F}e", " Ay\u{15F}e ", "Ay\u{15F}e\u{FEFF}", "\u{200E}Ay\u{15F}e\u{AD}"]
        {
            assert_eq!(normalise_name(typed), composed, "{typed:?}");
            assert_eq!(fold_name(typed), fold_name(composed), "{typed:?}");
        }
        assert_eq!(normalise_name("  Mehmet \t  Ali\u{A0} "), "Mehmet Ali");
        assert_eq!(normalise_name("\u{200B} \u{200D}"), "");
        // What shows stays apart: another letter, or a space inside a name.
        assert_ne!(fold_name("Ayse"), fold_name(composed));
        assert_ne!(fold_name("Mehmet Ali"), fold_name("MehmetAli"));
    }

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
