//! The rows and questions every backend of the store reads and writes: a game's row and players, which games
//! to list and in which order, what an insert did, what a copy of a database keeps.

use crate::ownership::Viewer;
use almanac_core::{FactRow, Game, Insights};
use serde::Serialize;

/// Events appended to a stored game: the game after them (already validated), their lines (the game's last
/// events), and its read model for questions after them.
#[derive(Clone, Copy)]
pub struct Appended<'a> {
    pub game: &'a dyn Game,
    pub lines: &'a [String],
    pub insights: &'a Insights,
}

/// A validated game to store: the game, its log as stored (the header line and the event lines), the hash
/// of the log's canonical spelling, its facts as rows (`Game::fact_rows(0)`: made once, for the read model
/// and for the store), its read model for questions (derived from its facts), and what was made of it ahead
/// for the store, on another thread (`Ahead::of`; the store does that work itself otherwise).
#[derive(Clone, Copy)]
pub struct NewGame<'a> {
    pub game: &'a dyn Game,
    pub header_line: &'a str,
    pub event_lines: &'a [&'a str],
    pub content_hash: &'a str,
    pub facts: &'a [FactRow],
    pub insights: &'a Insights,
    pub ahead: Option<&'a crate::Ahead>,
}

/// A stored game `reproject` would derive again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueGame {
    pub id: String,
    pub ruleset: String,
    /// Its facts, summary or coaches' numbers are an older version's. When not, only its checkpoints are
    /// missing (a migration dropped them, or it was stored before there were any): what it shows is current.
    pub numbers_older: bool,
}

/// A stored game derived again by this build (`reproject`): its id, the game read again from its stored log,
/// its facts as rows (`Game::fact_rows(0)`: made once, for the read model and for the store) and its read model.
#[derive(Clone, Copy)]
pub struct Derivation<'a> {
    pub id: &'a str,
    pub game: &'a dyn Game,
    pub facts: &'a [FactRow],
    pub insights: &'a Insights,
}

/// What `insert_game` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inserted {
    New(String),
    /// The same log was already stored under this id.
    Existing(String),
}

impl Inserted {
    pub fn id(&self) -> &str {
        match self {
            Inserted::New(id) | Inserted::Existing(id) => id,
        }
    }
}

/// A stored game's row, with its players.
#[derive(Debug, Clone, Serialize)]
pub struct GameRow {
    pub id: String,
    pub ruleset: String,
    pub ruleset_version: u32,
    pub title: Option<String>,
    pub played_on: Option<String>,
    pub club: Option<String>,
    pub location: Option<String>,
    pub stored_at: String,
    pub event_count: u64,
    pub turn_count: u32,
    pub winner: Option<String>,
    /// The game with its expansions and variants, in words (`None` or empty: its ruleset says it).
    pub edition: Option<String>,
    /// The club that uploaded the game (`None`: the operator's own).
    pub owner: Option<String>,
    /// Readable by anyone; a club's game is private until it publishes it.
    pub published: bool,
    /// The cards the record names that it did not see (`Game::unseen`): 0 for a full record.
    pub unseen: u64,
    pub players: Vec<PlayerRow>,
}

/// A game's state after `events` events, as its ruleset wrote it (`Ruleset::write_state`).
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    pub events: u64,
    pub state: Vec<u8>,
}

/// What the state after some events is rebuilt from without replaying the game from its start: the header,
/// the nearest checkpoint of the current ruleset version, and the event lines after it.
#[derive(Debug, Clone, PartialEq)]
pub struct ResumePoint {
    pub ruleset: String,
    pub header: String,
    /// After how many events the state is asked (at most the game's count).
    pub events: u64,
    pub checkpoint: Option<Checkpoint>,
    /// Events `checkpoint.events + 1 ..= events`.
    pub lines: Vec<String>,
}

/// Another record of the same game (the same fingerprint): a spectator's log, a view, a copy under another
/// title or club.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Recording {
    pub id: String,
    pub title: Option<String>,
    /// The club that uploaded it (`None`: the operator's own).
    pub owner: Option<String>,
    pub stored_at: String,
    /// It is the record that counts for the public (see `recount`).
    pub counted: bool,
    /// What it saw, as the counting orders records: the cards it did not see, and its events.
    pub unseen: u64,
    pub events: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct PlayerRow {
    pub seat: u32,
    pub name: String,
    pub color: Option<String>,
    pub vp: Option<i64>,
    pub vp_public: Option<i64>,
    /// The player across games (the identity its spelling is merged into).
    pub player: Option<PlayerId>,
    /// The seat was played by a program, as the record says.
    pub bot: bool,
}

/// A player across games: one per name (in any case) among a club's games, spellings merged into one.
pub type PlayerId = i64;

/// A player as a page shows them: the identity, its club (`None`: games no club owns), the first spelling
/// seen and every spelling merged into it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Identity {
    pub id: PlayerId,
    pub club: Option<String>,
    pub name: String,
    pub spellings: Vec<String>,
    /// Every seat of this player was played by a program (a bot), as the records say.
    pub bot: bool,
}

/// A published game as ratings read it: each seat's player (after merges) and final score, in seat order.
#[derive(Debug, Clone, PartialEq)]
pub struct RatedGame {
    pub game: String,
    pub seats: Vec<(PlayerId, Option<i64>)>,
}

/// A published game a player sat in, with every seat.
#[derive(Debug, Clone, Serialize)]
pub struct Sitting {
    pub game: String,
    pub ruleset: String,
    pub title: Option<String>,
    pub played_on: Option<String>,
    pub winner: Option<String>,
    pub seats: Vec<SeatOf>,
}

/// One seat of a game: who sat there (the identity) and the final score.
#[derive(Debug, Clone, Serialize)]
pub struct SeatOf {
    pub seat: u32,
    pub player: PlayerId,
    pub name: String,
    pub vp: Option<i64>,
}

/// How names are matched to identities: in any case, by Unicode's rules ([`almanac_core::fold_name`]).
pub fn player_key(name: &str) -> String {
    almanac_core::fold_name(name)
}

/// An identity as the store keeps it, for [`rekeying`]: id, club, name, key and what it is merged into.
pub(crate) type KeptIdentity = (PlayerId, i64, String, String, Option<PlayerId>);

/// What a change of [`player_key`] asks of identities keyed by an older one (see [`rekeying`]).
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Rekeying {
    /// An identity and its new key.
    pub rekey: Vec<(PlayerId, String)>,
    /// An identity and the one it is merged into.
    pub merge: Vec<(PlayerId, PlayerId)>,
}

/// What a change of [`player_key`] asks of identities keyed by an older one: `rekey` the first identity of a
/// club whose name now folds to a key no identity holds; `merge` every other one into the identity that holds
/// its new key (so `Işıl` and `IŞIL`, kept apart before, become one player). Identities in id order.
pub(crate) fn rekeying(identities: &[KeptIdentity]) -> Rekeying {
    use std::collections::HashMap;
    let mut holder: HashMap<(i64, String), PlayerId> = HashMap::new();
    let mut root: HashMap<PlayerId, PlayerId> = HashMap::new();
    for (id, club, _, key, merged) in identities {
        holder.insert((*club, key.clone()), *id);
        root.insert(*id, merged.unwrap_or(*id));
    }
    let (mut rekey, mut merge) = (Vec::new(), Vec::new());
    for (id, club, name, key, merged) in identities {
        let folded = player_key(name);
        if *key == folded {
            continue;
        }
        match holder.get(&(*club, folded.clone())) {
            Some(other) => {
                let into = root[other];
                if merged.is_none() && into != *id {
                    merge.push((*id, into));
                }
            }
            None => {
                holder.insert((*club, folded.clone()), *id);
                rekey.push((*id, folded));
            }
        }
    }
    Rekeying { rekey, merge }
}

/// Which games to list, in which order.
#[derive(Debug, Clone, Default)]
pub struct GameFilter {
    /// Who is asking: only the games they may see are listed.
    pub viewer: Viewer,
    pub ruleset: Option<String>,
    /// A player's name, in any case.
    pub player: Option<String>,
    /// Words found in the title, the club, the place or a player's name, in any case.
    pub search: Option<String>,
    pub sort: Sort,
    pub limit: Option<u32>,
    pub offset: Option<u32>,
}

/// The order of a list of games.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Sort {
    /// The latest uploads first.
    #[default]
    Stored,
    /// The latest played first (games without a date last).
    Played,
    /// The longest games first.
    Turns,
    /// By title, A to Z.
    Title,
}

impl Sort {
    pub const ALL: [(Sort, &'static str, &'static str); 4] = [
        (Sort::Stored, "stored", "latest upload"),
        (Sort::Played, "played", "latest played"),
        (Sort::Turns, "turns", "most turns"),
        (Sort::Title, "title", "title"),
    ];

    pub fn from_name(name: &str) -> Option<Sort> {
        Sort::ALL.iter().find(|(_, n, _)| *n == name).map(|(s, _, _)| *s)
    }
}

/// `text` as a LIKE pattern that finds it anywhere, in any case (`\` escapes the wildcards).
pub(crate) fn anywhere(text: &str) -> String {
    let folded = almanac_core::search_fold(text.trim());
    format!("%{}%", folded.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"))
}

/// A stored game as a copy of the database must keep it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredGame {
    pub id: String,
    pub content_hash: String,
    /// The owning club's name (`None`: the operator's own).
    pub owner: Option<String>,
    pub published: bool,
    pub deleted: bool,
    pub events: u64,
}

/// A token as stored: its club, its hash, its label, whether it is revoked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRecord {
    pub club: String,
    pub hash: String,
    pub label: String,
    pub revoked: bool,
}

/// The game id for a content hash: its first 16 hex digits.
pub fn game_id(content_hash: &str) -> String {
    content_hash[..16.min(content_hash.len())].to_string()
}

/// A coach's note on a moment of a game: after event `seq` (0: before the first), by a club.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Note {
    pub id: i64,
    pub seq: u64,
    pub club: String,
    pub text: String,
    pub created_at: String,
}

/// A win-chance model as the store keeps it: what it was trained on, and the model itself as the analysis
/// layer wrote it (a JSON document, opaque here).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WinModel {
    /// The store's id of it (0 for one not stored yet): the games' numbers name the model they were read
    /// with by it.
    pub id: i64,
    pub ruleset: String,
    /// The model's format version.
    pub version: u32,
    pub games: u64,
    pub positions: u64,
    /// When it was stored (UTC, ISO 8601); empty for one not stored yet.
    pub trained_at: String,
    pub body: String,
}

/// What a question's answers are grouped by: a column of the games or seats the store keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dimension {
    /// The player across games (after merges).
    Player,
    /// The seat, counted from 1 (the first to play).
    Seat,
    /// Each other player at the table: a seat counts once per opponent.
    Opponent,
    Ruleset,
    /// The month played (`YYYY-MM`, from the header's date).
    Month,
    /// The number of players at the table.
    Players,
    /// The club that owns the game.
    Club,
    /// The seat's opening in words (what the game gave it at setup).
    Opening,
}

impl Dimension {
    pub const ALL: [Dimension; 8] = [
        Dimension::Player,
        Dimension::Seat,
        Dimension::Opponent,
        Dimension::Ruleset,
        Dimension::Month,
        Dimension::Players,
        Dimension::Club,
        Dimension::Opening,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Dimension::Player => "player",
            Dimension::Seat => "seat",
            Dimension::Opponent => "opponent",
            Dimension::Ruleset => "ruleset",
            Dimension::Month => "month",
            Dimension::Players => "players",
            Dimension::Club => "club",
            Dimension::Opening => "opening",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Dimension::Player => "player",
            Dimension::Seat => "seat",
            Dimension::Opponent => "opponent",
            Dimension::Ruleset => "game",
            Dimension::Month => "month",
            Dimension::Players => "number of players",
            Dimension::Club => "club",
            Dimension::Opening => "opening",
        }
    }

    pub fn from_id(id: &str) -> Option<Dimension> {
        Dimension::ALL.into_iter().find(|d| d.id() == id)
    }
}

/// A question across games as the store answers it: one metric (with its argument) over the seats of the
/// games `viewer` may see, narrowed by the filters, grouped by `by`.
#[derive(Debug, Clone)]
pub struct Question {
    pub viewer: Viewer,
    /// A metric's id, checked against the metrics analysis declares before it is asked.
    pub metric: &'static str,
    pub arg: String,
    pub by: Dimension,
    pub ruleset: Option<String>,
    /// The owning club's name.
    pub club: Option<String>,
    /// Only this player's seats (an identity; merges followed).
    pub player: Option<PlayerId>,
    /// Only games with this many players.
    pub players: Option<u32>,
    /// Only the seats in this group (a key of an answer): the games behind one line.
    pub group: Option<String>,
    /// Programs' seats (bots) among the players a "who" question (by player, by opponent) ranks; people
    /// only by default.
    pub bots: bool,
    /// Groups of fewer seats are left out, with the games counted only in them.
    pub min_seats: u64,
    /// A second dimension (seat, then table size): each group is a pair of the two.
    pub then: Option<Dimension>,
}

impl Question {
    /// `metric` (without an argument) by `by`, over the games `viewer` may see, without filters.
    pub fn over(viewer: Viewer, metric: &'static str, by: Dimension) -> Question {
        Question {
            viewer,
            metric,
            arg: String::new(),
            by,
            ruleset: None,
            club: None,
            player: None,
            players: None,
            group: None,
            bots: false,
            min_seats: 1,
            then: None,
        }
    }
}

/// One group of an answer: its key (for `group`), its label, how many seats and games were counted, and
/// the mean of the metric over those seats.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnswerRow {
    /// The group's key as `Question::group` takes it.
    pub key: String,
    /// The player the group is, for the dimensions of players.
    pub player: Option<PlayerId>,
    /// The key as the read model numbers it (a seat, a count of players, a club's id, a word's index).
    #[serde(skip)]
    pub(crate) id: i64,
    /// The second dimension's key, for a question by two.
    #[serde(skip)]
    pub(crate) then_id: Option<i64>,
    pub label: String,
    pub seats: u64,
    pub games: u64,
    pub mean: f64,
    /// The variance of the seats' values (over the seats, not an estimate of a wider one's).
    pub variance: f64,
    /// The mean of 1 / players at the table over the group's seats: the win rate a fair game gives it.
    pub fair_share: f64,
    /// The mean number of players at the group's seats' tables: the last place a mean of places can reach.
    pub players: f64,
}

/// A question answered: its groups, how many games were counted, the latest of them.
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    pub rows: Vec<AnswerRow>,
    pub counted: u64,
    pub games: Vec<CountedGame>,
}

/// A game counted under a question.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CountedGame {
    pub id: String,
    pub ruleset: String,
    pub title: Option<String>,
    pub played_on: Option<String>,
    /// This record is the one of its game that counts for the public (a club's view may count its own
    /// record of a game another club's record counts for).
    pub counted: bool,
}

/// A player's mean of one number over their published games of one ruleset, beside the field's (every
/// published seat of that ruleset).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerNumber {
    pub ruleset: String,
    pub metric: String,
    pub arg: String,
    pub mean: f64,
    /// The variance of the player's values (over their seats), for how sure the mean is.
    pub variance: f64,
    pub seats: u64,
    /// The mean number of players at those seats' tables (the last place a mean of places can reach).
    pub players: f64,
    /// The mean of the player's peers (people for a person, programs for a program: `FieldOf`).
    pub field: Option<f64>,
}

/// Whom a player's numbers are set beside in one ruleset: their peers' seats that count, at games like the
/// player's (the same table size and edition).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldOf {
    pub ruleset: String,
    /// Programs' seats (for a program), or people's (for a person).
    pub programs: bool,
    /// The peers' seats and games over every kind of game in `like`.
    pub seats: u64,
    pub games: u64,
    /// Each kind of game the player played of this ruleset: the field's means are weighted as their seats are.
    pub like: Vec<LikeField>,
}

/// The field at one kind of game: a table size and edition of a ruleset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LikeField {
    pub players: u16,
    /// The game with its expansions, map, target and variants in words (`Game::edition`; empty: the game's name).
    pub edition: String,
    /// The peers' seats and games there.
    pub seats: u64,
    pub games: u64,
    /// The player's own seats there (the weight of this kind of game in the field's means).
    pub mine: u64,
}

/// A player's total of one number with one trade partner: another player (after merges) or a market.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartnerTotal {
    pub ruleset: String,
    pub metric: String,
    pub player: Option<PlayerId>,
    /// The other player's name (after merges).
    pub name: Option<String>,
    pub market: Option<String>,
    pub total: f64,
}

/// A player's numbers, trade partners and openings (`Store::player_profile`).
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerProfile {
    pub numbers: Vec<PlayerNumber>,
    /// Per ruleset, the field the numbers are set beside.
    pub fields: Vec<FieldOf>,
    pub partners: Vec<PartnerTotal>,
    pub openings: Vec<OpeningRecord>,
}

/// How a player's seats with one opening went: how many, and the mean of a number (the win rate).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpeningRecord {
    pub ruleset: String,
    pub opening: Option<String>,
    pub seats: u64,
    pub mean: f64,
}

/// Whether events `first..` of a game withdraw an entry (see `almanac_core::withdrawal`): an append that
/// does writes the game's facts again, as the withdrawn entry's count nowhere now.
pub(crate) fn withdraws(game: &dyn almanac_core::Game, first: usize) -> bool {
    (first..game.event_count()).any(|i| game.withdrawal_of(i).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_keyed_by_the_older_fold_are_rekeyed_or_merged_into_the_one_holding_their_key() {
        let kept = |id, club, name: &str, key: &str, merged| (id, club, name.to_string(), key.to_string(), merged);
        // Club 1: `IŞIL` keyed as it folds already, `Işıl` keyed `işıl` by lower case alone; `İpek` alone in
        // club 2; `Ayşe` keyed as it folds.
        let identities = [
            kept(10, 1, "IŞIL", &player_key("IŞIL"), None),
            kept(11, 1, "Işıl", "işıl", None),
            kept(12, 2, "İpek", "i\u{307}pek", None),
            kept(13, 1, "Ayşe", &player_key("Ayşe"), None),
        ];
        let r = rekeying(&identities);
        assert_eq!(r.rekey, [(12, "ipek".to_string())]);
        assert_eq!(r.merge, [(11, 10)]);
    }
}
