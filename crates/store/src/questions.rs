//! The read model's SQL shared by both backends (they differ only in how a parameter is written), and what
//! answers share. A question reads one metric's numbers (keyed by metric first) and tallies
//! them against the seats held in memory (`crate::seats`); names are looked up once per group, after grouping.

use crate::rows::Dimension;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The statement that makes the seats of the games `$1` names (`games` says how: one id, or an array, and
/// what follows), with their openings as `opening` and `join` say.
macro_rules! insert_seats {
    ($opening:literal, $join:literal, $games:literal) => {
        concat!(
            "INSERT INTO seats (game_id, seat, ruleset, player, players, played_on, owner, published, deleted,
                        fingerprint, finished, counted, bot, edition, opening)
     SELECT p.game_id, p.seat, g.ruleset, COALESCE(pl.merged_into, pl.id),
            (SELECT COUNT(*) FROM game_players q WHERE q.game_id = g.id), g.played_on, g.owner, g.published,
            g.deleted_at IS NOT NULL, g.fingerprint, g.winner IS NOT NULL,
            g.published AND g.deleted_at IS NULL AND g.winner IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM seats e WHERE e.fingerprint = g.fingerprint AND e.seat = p.seat AND e.counted),
            p.bot, COALESCE(g.edition, ''), ",
            $opening,
            "
     FROM game_players p JOIN games g ON g.id = p.game_id JOIN players pl ON pl.id = p.player_id",
            $join,
            "
     WHERE p.game_id ",
            $games
        )
    };
}

/// A game's seats as questions read them, made once from its row and players (`$1`: the game); a game
/// stored again keeps its seats.
pub(crate) const INSERT_SEATS: &str = insert_seats!("NULL", "", "= $1 ON CONFLICT (game_id, seat) DO NOTHING");

/// `INSERT_SEATS` of several new games at once (`$1`: their ids, in the order stored, none of whose
/// fingerprints another of them shares: a statement does not see its own rows, and two such seats would both
/// count), with their openings (`$2`, `$3`, `$4`: game, seat, opening); each seat's key, game and seat given
/// back. PostgreSQL only.
pub(crate) const INSERT_SEATS_OF_GAMES: &str = insert_seats!(
    "o.opening",
    "
     LEFT JOIN unnest($2::text[], $3::int[], $4::text[]) AS o(game_id, seat, opening)
            ON o.game_id = p.game_id AND o.seat = p.seat",
    "= ANY($1) ORDER BY g.n, p.seat
     ON CONFLICT (game_id, seat) DO NOTHING
     RETURNING key, game_id, seat"
);

/// Sums and counts kept by a key of three words (a ruleset, a metric, its argument), met number by number: a
/// key is written into one buffer to be looked up, and copied only the first time.
#[derive(Default)]
pub(crate) struct Sums {
    /// By key: the sum, the sum of the squares of the values added one by one, the count, and the sum of the
    /// players at the tables of the values added one by one.
    sums: HashMap<String, (f64, f64, i64, f64)>,
    key: String,
}

impl Sums {
    /// Adds `total` over `count` values (a field's sums, moved by whole seats' numbers).
    pub(crate) fn add(&mut self, words: [&str; 3], total: f64, count: i64) {
        self.add_with_squares(words, (total, 0.0, count, 0.0));
    }

    /// Adds one value, and its square, for the spread of what is summed, of a seat at a table of `players`.
    pub(crate) fn add_value(&mut self, words: [&str; 3], value: f64, players: u16) {
        self.add_with_squares(words, (value, value * value, 1, f64::from(players)));
    }

    fn add_with_squares(&mut self, words: [&str; 3], (total, squares, count, players): (f64, f64, i64, f64)) {
        self.key.clear();
        self.key.extend([words[0], "\0", words[1], "\0", words[2]]);
        match self.sums.get_mut(self.key.as_str()) {
            Some(sum) => *sum = (sum.0 + total, sum.1 + squares, sum.2 + count, sum.3 + players),
            None => {
                self.sums.insert(self.key.clone(), (total, squares, count, players));
            }
        }
    }

    /// Each key's words, sum, sum of squares (of the values added one by one), count and sum of players at
    /// the tables (of the values added one by one), in no order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = ([&str; 3], f64, f64, i64, f64)> {
        self.sums.iter().map(|(key, &(total, squares, count, players))| {
            let mut words = key.splitn(3, '\0');
            let mut next = || words.next().expect("written with two separators");
            ([next(), next(), next()], total, squares, count, players)
        })
    }
}

/// A hash for the maps a question fills row by row (FNV-1a, a byte at a time): their keys are seat keys and
/// group keys, nobody's choice; the standard SipHash, made to withstand keys chosen to collide, took a sixth
/// of a question's time.
pub(crate) type Quick = BuildHasherDefault<Fnv>;

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

impl Dimension {
    /// A group's label from its key, names looked up in `player_names` and `club_names` (by id).
    pub(crate) fn group_label(
        self,
        id: i64,
        key: &str,
        player_names: &HashMap<i64, String>,
        club_names: &HashMap<i64, String>,
    ) -> String {
        match self {
            Dimension::Player | Dimension::Opponent => {
                player_names.get(&id).cloned().unwrap_or_else(|| key.to_string())
            }
            Dimension::Seat => format!("seat {key}"),
            Dimension::Ruleset | Dimension::Month => key.to_string(),
            Dimension::Players => format!("{key} players"),
            Dimension::Club => club_names.get(&id).cloned().unwrap_or_else(|| "no club".to_string()),
            Dimension::Opening if key.is_empty() => "none".to_string(),
            Dimension::Opening => key.to_string(),
        }
    }
}

/// The field's sums of a ruleset by table size and edition: every number's total and seats, people's and
/// programs' alike.
pub(crate) const FIELD_SUMS: &str =
    "SELECT players, edition, metric, arg, total, seats FROM field_metrics WHERE ruleset = $1";

/// A row of the field's sums: one number's total over the seats that count of games alike in ruleset, table
/// size and edition.
pub(crate) struct FieldSum {
    pub players: i64,
    pub edition: String,
    pub metric: String,
    pub arg: String,
    pub total: f64,
    pub seats: i64,
}

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

#[cfg(test)]
mod tests {
    use super::Sums;

    #[test]
    fn sums_keep_keys_apart_that_read_alike_joined() {
        let mut sums = Sums::default();
        sums.add(["a", "bc", ""], 1.0, 1);
        sums.add(["ab", "c", ""], 2.0, 1);
        sums.add(["a", "bc", ""], 3.0, 2);
        sums.add(["a", "b", "c"], -1.0, -1);
        let mut all: Vec<([&str; 3], f64, i64)> = sums.iter().map(|(w, t, _, n, _)| (w, t, n)).collect();
        all.sort_by(|x, y| x.0.cmp(&y.0));
        assert_eq!(all, [(["a", "b", "c"], -1.0, -1), (["a", "bc", ""], 4.0, 3), (["ab", "c", ""], 2.0, 1)]);
    }
}
