//! The SQL of a question across games, shared by both backends: they differ only in how a parameter and the
//! viewer's condition are written. A question reads one metric's rows (`seat_metrics`, keyed by metric
//! first) and the seats they belong to (`seats`, what questions group and filter by), once, tallied in Rust;
//! names are looked up once per group, after grouping.

use crate::rows::{AnswerRow, Dimension, Question};
use std::collections::{HashMap, HashSet};

/// A game's seats as questions read them, made once from its row and players (`$1`: the game); a game
/// stored again keeps its seats.
pub(crate) const INSERT_SEATS: &str =
    "INSERT INTO seats (game_id, seat, ruleset, player, players, played_on, owner, published, deleted)
     SELECT p.game_id, p.seat, g.ruleset, COALESCE(pl.merged_into, pl.id),
            (SELECT COUNT(*) FROM game_players q WHERE q.game_id = g.id), g.played_on, g.owner, g.published,
            g.deleted_at IS NOT NULL
     FROM game_players p JOIN games g ON g.id = p.game_id JOIN players pl ON pl.id = p.player_id
     WHERE p.game_id = $1
     ON CONFLICT (game_id, seat) DO NOTHING";

/// Parameters, in this order: 1 metric, 2 arg, 3 ruleset, 4 club, 5 player, 6 players, 7 group, then the
/// two of the viewer's condition.
pub(crate) const VIEWER_FIRST: usize = 8;

impl Dimension {
    /// The group's key as SQL over `s` (the seat) and, for opponents, `o` (another seat of the same game).
    fn key_sql(self) -> &'static str {
        match self {
            Dimension::Player => "s.player",
            Dimension::Seat => "s.seat + 1",
            Dimension::Opponent => "o.player",
            Dimension::Ruleset => "s.ruleset",
            Dimension::Month => "COALESCE(substr(s.played_on, 1, 7), 'undated')",
            Dimension::Players => "s.players",
            Dimension::Club => "COALESCE(s.owner, 0)",
            Dimension::Opening => "COALESCE(s.opening, '')",
        }
    }
}

/// `FROM … WHERE …` of the seats a question counts. `param(n, sql_type)` writes parameter `n`; `visible`
/// is the viewer's condition on `s`.
pub(crate) fn from_where(q: &Question, param: impl Fn(usize, &str) -> String, visible: &str) -> String {
    let key = q.by.key_sql();
    let opponents =
        if q.by == Dimension::Opponent { "JOIN seats o ON o.game_id = s.game_id AND o.seat <> s.seat" } else { "" };
    let (ruleset, club, player, players, group) =
        (param(3, "text"), param(4, "text"), param(5, "bigint"), param(6, "bigint"), param(7, "text"));
    format!(
        "FROM seat_metrics m JOIN seats s ON s.key = m.seat_key {opponents}
         WHERE m.metric = {metric} AND m.arg = {arg} AND {visible}
           AND ({ruleset} IS NULL OR s.ruleset = {ruleset})
           AND ({club} IS NULL OR s.owner = (SELECT id FROM clubs WHERE name = {club}))
           AND ({player} IS NULL OR s.player = {player}) AND ({players} IS NULL OR s.players = {players})
           AND ({group} IS NULL OR CAST({key} AS TEXT) = {group})",
        metric = param(1, "text"),
        arg = param(2, "text"),
    )
}

/// The rows a question counts, one per seat (per seat and opponent): the group's key, the game, when it was
/// played, the value. Read once and tallied in Rust (`Tally`): one pass instead of a query for the groups, one
/// for the games counted and one for the latest of them.
pub(crate) fn rows(q: &Question, from_where: &str) -> String {
    format!("SELECT CAST({key} AS TEXT), s.game_id, s.played_on, m.value {from_where}", key = q.by.key_sql())
}

/// What a backend hands every row of a question to: the group's key, the game, when it was played, the value.
pub(crate) type EachRow<'a> = dyn FnMut(&str, &str, Option<&str>, f64) + 'a;

/// A question's rows tallied: per group the seats, the distinct games and the sum; the games counted, with
/// the day each was played.
#[derive(Default)]
pub(crate) struct Tally {
    groups: HashMap<String, (u64, f64, HashSet<u32>)>,
    games: HashMap<String, u32>,
    played: Vec<(Option<String>, String)>,
}

impl Tally {
    pub(crate) fn add(&mut self, key: &str, game: &str, played_on: Option<&str>, value: f64) {
        // Looked up before inserting: most rows meet a game and a group seen before, and need no copy of either.
        let g = match self.games.get(game) {
            Some(&g) => g,
            None => {
                let g = self.games.len() as u32;
                self.games.insert(game.to_string(), g);
                self.played.push((played_on.map(str::to_string), game.to_string()));
                g
            }
        };
        if !self.groups.contains_key(key) {
            self.groups.insert(key.to_string(), Default::default());
        }
        let group = self.groups.get_mut(key).expect("inserted above");
        group.0 += 1;
        group.1 += value;
        group.2.insert(g);
    }

    /// The groups (no labels yet), how many games were counted, and the ids of the latest `limit` of them
    /// (played latest first, undated last).
    pub(crate) fn finish(self, limit: usize) -> Tallied {
        let groups = self
            .groups
            .into_iter()
            .map(|(key, (seats, sum, games))| AnswerRow {
                key,
                label: String::new(),
                seats,
                games: games.len() as u64,
                mean: sum / seats as f64,
            })
            .collect();
        let mut played = self.played;
        played.sort_by(|a, b| a.0.is_none().cmp(&b.0.is_none()).then(b.0.cmp(&a.0)).then(a.1.cmp(&b.1)));
        let latest = played.into_iter().take(limit).map(|(_, id)| id).collect();
        Tallied { groups, counted: self.games.len() as u64, latest }
    }
}

pub(crate) struct Tallied {
    pub groups: Vec<AnswerRow>,
    pub counted: u64,
    pub latest: Vec<String>,
}

impl Dimension {
    /// A group's label from its key, names looked up in `player_names` and `club_names` (by id).
    pub(crate) fn group_label(
        self,
        key: &str,
        player_names: &HashMap<i64, String>,
        club_names: &HashMap<i64, String>,
    ) -> String {
        let id = || key.parse::<i64>().unwrap_or(-1);
        match self {
            Dimension::Player | Dimension::Opponent => {
                player_names.get(&id()).cloned().unwrap_or_else(|| key.to_string())
            }
            Dimension::Seat => format!("seat {key}"),
            Dimension::Ruleset | Dimension::Month => key.to_string(),
            Dimension::Players => format!("{key} players"),
            Dimension::Club => club_names.get(&id()).cloned().unwrap_or_else(|| "no club".to_string()),
            Dimension::Opening if key.is_empty() => "none".to_string(),
            Dimension::Opening => key.to_string(),
        }
    }
}

/// Every number of a player's published seats, once: ruleset, metric, argument, value, the seat's opening,
/// and for a number kept per trade partner that is another seat (`seat:N`), that seat's player; parameter 1
/// the player.
pub(crate) fn player_rows(public: &str) -> String {
    format!(
        "SELECT s.ruleset, m.metric, m.arg, m.value, s.opening,
                CASE WHEN m.arg LIKE 'seat:%' THEN
                    (SELECT o.player FROM seats o WHERE o.game_id = s.game_id AND 'seat:' || CAST(o.seat AS TEXT) = m.arg)
                END
         FROM seats s JOIN seat_metrics m ON m.seat_key = s.key
         WHERE s.player = $1 AND {public}"
    )
}

/// One row of `player_rows`.
pub(crate) struct PlayerRow<'a> {
    pub ruleset: &'a str,
    pub metric: &'a str,
    pub arg: &'a str,
    pub value: f64,
    pub opening: Option<&'a str>,
    pub partner: Option<i64>,
}

/// The field's mean of every number of a ruleset (`ruleset, metric, arg, mean`); parameter 1 the ruleset.
pub(crate) const FIELD: &str = "SELECT metric, arg, total / seats FROM field_metrics WHERE ruleset = $1 AND seats > 0";

/// What a ruleset's ratings depend on, as one text: its published seats (how many, and the sum of their keys),
/// the field's total of metric parameter 2 (the final score: it moves when a game is appended to or derived
/// again) and the merges of spellings; parameter 1 the ruleset.
pub(crate) fn ratings_fingerprint(public: &str) -> String {
    format!(
        "SELECT CAST(COUNT(*) AS TEXT) || ':' || CAST(COALESCE(SUM(s.key), 0) AS TEXT) || ':'
                || COALESCE((SELECT CAST(total AS TEXT) FROM field_metrics WHERE ruleset = $1 AND metric = $2 AND arg = ''), '')
                || ':' || CAST((SELECT COUNT(*) FROM players WHERE merged_into IS NOT NULL) AS TEXT)
         FROM seats s WHERE s.ruleset = $1 AND {public}"
    )
}
