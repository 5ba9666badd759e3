//! The SQL of a question across games, shared by both backends: they differ only in how a parameter and the
//! viewer's condition are written. A question reads one metric's rows (`seat_metrics`, keyed by metric
//! first) and the seats they belong to (`seats`, what questions group and filter by), once, tallied in Rust;
//! names are looked up once per group, after grouping.

use crate::rows::{AnswerRow, Dimension, Question};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

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
/// the day each was played. Built for hundreds of thousands of rows: a game's id is copied once, games are
/// numbered and each group marks the games it counted in a bit set, and only the latest games are sorted.
#[derive(Default)]
pub(crate) struct Tally {
    groups: HashMap<String, GroupTally, Quick>,
    /// Games by number, and numbers by game.
    ids: Vec<Arc<str>>,
    numbers: HashMap<Arc<str>, u32, Quick>,
    /// When each game (by number) was played, as a number in `dates`.
    played: Vec<Option<u32>>,
    dates: HashMap<Box<str>, u32>,
    /// The previous row's game: rows come game after game, so most rows find their game here.
    last: Option<u32>,
}

#[derive(Default)]
struct GroupTally {
    seats: u64,
    sum: f64,
    games: u64,
    /// Bit `n`: game `n` is counted.
    counted: Vec<u64>,
}

impl GroupTally {
    /// Counts game `g` for this group, once.
    fn mark(&mut self, g: u32) {
        let (word, bit) = (g as usize / 64, 1u64 << (g % 64));
        if self.counted.len() <= word {
            self.counted.resize(word + 1, 0);
        }
        if self.counted[word] & bit == 0 {
            self.counted[word] |= bit;
            self.games += 1;
        }
    }
}

impl Tally {
    pub(crate) fn add(&mut self, key: &str, game: &str, played_on: Option<&str>, value: f64) {
        let g = match self.last {
            Some(g) if *self.ids[g as usize] == *game => g,
            _ => self.number(game, played_on),
        };
        self.last = Some(g);
        if !self.groups.contains_key(key) {
            self.groups.insert(key.to_string(), GroupTally::default());
        }
        let group = self.groups.get_mut(key).expect("inserted above");
        group.seats += 1;
        group.sum += value;
        group.mark(g);
    }

    /// The number of game `game`, given it when first met.
    fn number(&mut self, game: &str, played_on: Option<&str>) -> u32 {
        if let Some(&g) = self.numbers.get(game) {
            return g;
        }
        let g = self.ids.len() as u32;
        let id: Arc<str> = game.into();
        self.ids.push(id.clone());
        self.numbers.insert(id, g);
        let date = played_on.map(|d| match self.dates.get(d) {
            Some(&n) => n,
            None => {
                let n = self.dates.len() as u32;
                self.dates.insert(d.into(), n);
                n
            }
        });
        self.played.push(date);
        g
    }

    /// Adds what `other` tallied (rows of other seats: a question read in parts at once): its games numbered
    /// anew here, its groups' games marked here, so a game both parts met is counted once.
    pub(crate) fn merge(&mut self, other: Tally) {
        let mut dates: Vec<&str> = vec![""; other.dates.len()];
        for (text, &n) in &other.dates {
            dates[n as usize] = text;
        }
        let here: Vec<u32> = other
            .ids
            .iter()
            .zip(&other.played)
            .map(|(id, played)| self.number(id, played.map(|d| dates[d as usize])))
            .collect();
        for (key, theirs) in other.groups {
            let group = self.groups.entry(key).or_default();
            group.seats += theirs.seats;
            group.sum += theirs.sum;
            for (w, &word) in theirs.counted.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let g = here[w * 64 + bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                    group.mark(g);
                }
            }
        }
        self.last = None;
    }

    /// The groups (no labels yet), how many games were counted, and the ids of the latest `limit` of them
    /// (played latest first, undated last, then by id).
    pub(crate) fn finish(self, limit: usize) -> Tallied {
        let groups = self
            .groups
            .into_iter()
            .map(|(key, g)| AnswerRow {
                key,
                label: String::new(),
                seats: g.seats,
                games: g.games,
                mean: g.sum / g.seats as f64,
            })
            .collect();
        // Dates ranked in their text's order (a few hundred of them), so that games compare by number.
        let mut by_text: Vec<(&str, u32)> = self.dates.iter().map(|(d, &n)| (&**d, n)).collect();
        by_text.sort_unstable();
        let mut rank = vec![0u32; by_text.len()];
        for (r, (_, n)) in by_text.iter().enumerate() {
            rank[*n as usize] = r as u32;
        }
        let ids = &self.ids;
        let played = &self.played;
        let newest_first = |a: &u32, b: &u32| {
            let (pa, pb) =
                (played[*a as usize].map(|d| rank[d as usize]), played[*b as usize].map(|d| rank[d as usize]));
            let by_date = match (pa, pb) {
                (Some(x), Some(y)) => y.cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            };
            by_date.then_with(|| ids[*a as usize].cmp(&ids[*b as usize]))
        };
        let mut order: Vec<u32> = (0..ids.len() as u32).collect();
        if limit < order.len() {
            if limit > 0 {
                order.select_nth_unstable_by(limit - 1, newest_first);
            }
            order.truncate(limit);
        }
        order.sort_unstable_by(newest_first);
        let latest = order.into_iter().map(|g| ids[g as usize].to_string()).collect();
        Tallied { groups, counted: ids.len() as u64, latest }
    }
}

/// A hash for the tally's maps (FNV-1a, a byte at a time): their keys are game ids, themselves hashes of whole
/// logs, and group keys (numbers, dates, rulesets, openings); the standard SipHash, made to withstand keys
/// chosen to collide, took a sixth of a question's time.
type Quick = BuildHasherDefault<Fnv>;

pub(crate) struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
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
/// the player, then `metrics` parameters naming the only metrics read (every metric when there are none:
/// the index of a seat's numbers is sought metric by metric).
pub(crate) fn player_rows(public: &str, metrics: usize) -> String {
    let only = if metrics == 0 {
        String::new()
    } else {
        let params: Vec<String> = (2..2 + metrics).map(|n| format!("${n}")).collect();
        format!(" AND m.metric IN ({})", params.join(", "))
    };
    format!(
        "SELECT s.ruleset, m.metric, m.arg, m.value, s.opening,
                CASE WHEN m.arg LIKE 'seat:%' THEN
                    (SELECT o.player FROM seats o WHERE o.game_id = s.game_id AND 'seat:' || CAST(o.seat AS TEXT) = m.arg)
                END
         FROM seats s JOIN seat_metrics m ON m.seat_key = s.key
         WHERE s.player = $1 AND {public}{only}"
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

/// A ruleset's published games as ratings read them — each seat's player and final score —, in the order
/// played (undated last), then stored; from the read model's seats (by their ruleset index) and the seats'
/// scores, not from the games' rows, which carry every header; `stored` is the backend's order of storing of
/// the game of seat `s`; parameter 1 the ruleset.
pub(crate) fn rated_games(public: &str, stored: &str) -> String {
    format!(
        "SELECT s.game_id, s.player, q.vp
         FROM seats s JOIN game_players q ON q.game_id = s.game_id AND q.seat = s.seat
         WHERE s.ruleset = $1 AND {public}
         ORDER BY s.played_on IS NULL, s.played_on, {stored}, s.seat"
    )
}

/// Rows of `rated_games` (game, player, score) gathered into games.
pub(crate) fn gather_rated(rows: impl IntoIterator<Item = (String, i64, Option<i64>)>) -> Vec<crate::rows::RatedGame> {
    let mut games: Vec<crate::rows::RatedGame> = Vec::new();
    for (game, player, vp) in rows {
        match games.last_mut() {
            Some(last) if last.game == game => last.seats.push((player, vp)),
            _ => games.push(crate::rows::RatedGame { game, seats: vec![(player, vp)] }),
        }
    }
    games
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tally_counts_each_game_once_per_group_and_keeps_the_latest_games() {
        let mut t = Tally::default();
        // Game b comes back after c: it is still one game, counted once per group.
        for (key, game, played, value) in [
            ("x", "b", Some("2026-03-01"), 1.0),
            ("y", "b", Some("2026-03-01"), 0.0),
            ("x", "c", None, 1.0),
            ("x", "b", Some("2026-03-01"), 1.0),
            ("y", "a", Some("2026-03-01"), 1.0),
            ("y", "d", Some("2026-05-01"), 1.0),
            ("x", "e", None, 0.0),
        ] {
            t.add(key, game, played, value);
        }
        let done = t.finish(4);
        let mut groups: Vec<(String, u64, u64, f64)> =
            done.groups.iter().map(|g| (g.key.clone(), g.seats, g.games, g.mean)).collect();
        groups.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(groups, [("x".into(), 4, 3, 0.75), ("y".into(), 3, 3, 2.0 / 3.0)]);
        assert_eq!(done.counted, 5);
        // Newest first, a tie by id, the undated last: d, then a and b of March, then c (e is past the limit).
        assert_eq!(done.latest, ["d", "a", "b", "c"]);
    }

    #[test]
    fn a_tally_read_in_two_parts_and_merged_is_the_tally_read_at_once() {
        // Rows of 300 seats: games of three seats, a game met by both parts, keys and dates repeating.
        let rows: Vec<(String, String, Option<String>, f64)> = (0..300u32)
            .map(|i| {
                let game = format!("g{}", i / 3);
                let date = (i % 7 != 0).then(|| format!("2026-0{}-01", 1 + (i / 3) % 9));
                (format!("k{}", i % 4), game, date, (i % 5) as f64)
            })
            .collect();
        let tally = |rows: &[(String, String, Option<String>, f64)]| {
            let mut t = Tally::default();
            for (key, game, date, value) in rows {
                t.add(key, game, date.as_deref(), *value);
            }
            t
        };
        let sorted = |t: Tallied| {
            let mut groups: Vec<(String, u64, u64, f64)> =
                t.groups.into_iter().map(|g| (g.key, g.seats, g.games, g.mean)).collect();
            groups.sort_by(|a, b| a.0.cmp(&b.0));
            (groups, t.counted, t.latest)
        };
        let whole = sorted(tally(&rows).finish(20));
        for split in [1, 100, 151, 299] {
            let mut first = tally(&rows[..split]);
            first.merge(tally(&rows[split..]));
            assert_eq!(sorted(first.finish(20)), whole, "split at {split}");
        }
    }

    #[test]
    fn a_tally_lists_no_games_when_asked_for_none_and_all_when_asked_for_more() {
        let two = || {
            let mut t = Tally::default();
            t.add("x", "a", None, 1.0);
            t.add("x", "b", Some("2026-01-01"), 1.0);
            t
        };
        assert!(two().finish(0).latest.is_empty());
        assert_eq!(two().finish(0).counted, 2);
        assert_eq!(two().finish(10).latest, ["b", "a"]);
    }
}
