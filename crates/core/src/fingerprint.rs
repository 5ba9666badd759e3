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

/// A name as identities and duplicates compare it: two names a reader cannot tell apart are one name.
///
/// Unicode's own rules for identifiers that look alike, through `unicode-security` (UTS #39) and
/// `unicode-normalization` rather than a list of our own:
/// - compatibility forms read as their plain letters (NFKC: a fullwidth `Ｃan` is `Can`);
/// - code points that do not show removed (Unicode's Default_Ignorable_Code_Point: zero-width spaces and
///   joiners, the combining grapheme joiner, variation selectors, Hangul fillers, direction marks, tags), and
///   control characters;
/// - lower case by Unicode's rules, with the Turkish dotted and dotless i read as the one letter `i` (`Işıl` and
///   `IŞIL` are one name);
/// - each character outside ASCII read as its confusable prototype (its skeleton: a Cyrillic `а` is a Latin
///   `a`, a Greek `Ο` an `O`, the braille blank a space);
/// - spaces trimmed and each run of them made one.
///
/// Decision: letters and digits typed in ASCII are compared as typed (case aside), not by their own
/// skeletons. UTS #39 reads `m` as `rn`, `l` as `I` and `0` as `O` because some fonts draw them alike, but
/// `Amie` and `Arnie` are two people a club may well have, and merging identities cannot be undone by the
/// club; nobody types a Cyrillic letter into a Latin name by accident of handwriting.
pub fn fold_name(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let lower: String = name
        .nfkc()
        .collect::<String>()
        .to_lowercase()
        .chars()
        .filter(|&c| c != '\u{307}')
        .map(|c| if c == 'ı' { 'i' } else { c })
        .collect();
    let mut prototype = String::with_capacity(lower.len());
    for c in lower.chars() {
        if c.is_ascii() {
            prototype.push(c);
        } else if !c.is_control() {
            let mut utf8 = [0; 4];
            prototype.extend(unicode_security::skeleton(c.encode_utf8(&mut utf8)));
        }
    }
    // A prototype may be a capital (Cyrillic `С` is Latin `C`), and marks come out apart (NFD).
    let folded: String = prototype.to_lowercase().nfc().collect();
    spaces_made_one(folded.chars().filter(|c| !c.is_control()))
}

/// Text as a search box compares it (a title, a club, a place, a player's name typed to search): as people
/// read it (`normalise_name`), in lower case by Unicode's rules, with the Turkish dotted and dotless i read as
/// the one letter `i`. The stores' SQL `fold` is this, so that a pattern made here finds what they fold.
/// Look-alike letters from other scripts are not read as their prototypes here: that is `fold_name`'s, for
/// who is who, which the stores keep as each player's key.
pub fn search_fold(text: &str) -> String {
    normalise_name(text)
        .to_lowercase()
        .chars()
        .filter(|&c| c != '\u{307}')
        .map(|c| if c == 'ı' { 'i' } else { c })
        .collect()
}

/// A name as people read it, as typed: in Unicode's composed form (NFC: `ş` one character, whichever
/// keyboard typed it), without the code points that do not show (Unicode's Default_Ignorable_Code_Point)
/// and control characters, its spaces trimmed and each run of them made one plain space. Names are stored
/// and shown in this form; a fullwidth or Cyrillic letter stays as typed (the comparison is `fold_name`'s).
pub fn normalise_name(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    spaces_made_one(name.nfc().filter(|&c| !c.is_control() && !is_ignorable(c)))
}

/// The characters with their spaces trimmed and each run of them made one plain space.
fn spaces_made_one(chars: impl Iterator<Item = char>) -> String {
    let mut out = String::new();
    let mut space = false;
    for c in chars {
        if c.is_whitespace() {
            space = !out.is_empty();
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

/// A code point Unicode says to show as nothing (Default_Ignorable_Code_Point): the one kind a skeleton
/// drops, so asked of `unicode-security`'s skeleton of the character alone.
fn is_ignorable(c: char) -> bool {
    let mut utf8 = [0; 4];
    !c.is_ascii() && unicode_security::skeleton(c.encode_utf8(&mut utf8)).next().is_none()
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

    /// The cases: characters that show nothing though Unicode does not call them format characters,
    /// and letters from another block or script that a reader cannot tell from the plain ones.
    #[test]
    fn names_a_reader_cannot_tell_apart_are_one_name() {
        let plain = fold_name("Can");
        for typed in [
            "Ca\u{34F}n",   // combining grapheme joiner
            "Can\u{FE0F}",  // a variation selector
            "Ca\u{E0100}n", // a supplementary variation selector
            "\u{3164}Can",  // Hangul filler
            "Can\u{115F}",  // Hangul choseong filler
            "Can\u{FFA0}",  // halfwidth Hangul filler
            "Can\u{2800}",  // braille blank: reads as a space, trimmed
            "\u{FF23}an",   // fullwidth C
            "C\u{430}n",    // Cyrillic a
            "\u{421}an",    // Cyrillic capital Es
            "\u{1D402}an",  // mathematical bold capital C
            "CAN",
        ] {
            assert_eq!(fold_name(typed), plain, "{typed:?}");
        }
        // Shown as typed, without what does not show.
        assert_eq!(normalise_name("Ca\u{34F}n\u{FE0F}\u{3164}"), "Can");
        assert_eq!(normalise_name("\u{FF23}an"), "\u{FF23}an");
        assert_eq!(normalise_name("C\u{430}n"), "C\u{430}n");
        assert_eq!(fold_name("\u{2800}\u{3164}"), "", "a name of blanks folds to nothing");
        // A blank inside a name is a space: it shows.
        assert_eq!(fold_name("Ca\u{2800}n"), fold_name("Ca n"));
    }

    /// A search compares text as the stores' SQL `fold` does: lower case, the Turkish i one letter, nothing
    /// read as a look-alike (a search for `AYŞE` finds `Ayşe` in a title as PostgreSQL folds it).
    #[test]
    fn a_search_folds_case_and_the_turkish_i_only() {
        use super::search_fold;
        assert_eq!(search_fold(" AYŞE "), "ayşe");
        assert_eq!(search_fold("IŞIL"), search_fold("Işıl"));
        assert_eq!(search_fold("İpek"), "ipek");
        assert_eq!(search_fold("\u{FF23}an"), "\u{FF43}an", "a fullwidth letter stays one");
    }

    /// ASCII letters and digits stay as typed: `m` is not `rn`, `l` is not `I` (the decision at `fold_name`).
    #[test]
    fn plain_letters_that_only_some_fonts_draw_alike_stay_apart() {
        assert_ne!(fold_name("Amie"), fold_name("Arnie"));
        assert_ne!(fold_name("Ian"), fold_name("lan"));
        assert_ne!(fold_name("Bo"), fold_name("B0"));
        assert_ne!(fold_name("Ayşe"), fold_name("Ayse"), "a letter with a mark is another letter");
        assert_ne!(fold_name("Åsa"), fold_name("Asa"));
        assert_ne!(fold_name("Strauß"), fold_name("Strauss"));
    }
}
