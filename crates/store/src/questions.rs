//! The SQL of a question across games, shared by both backends: they differ only in how a parameter and the
//! viewer's condition are written. A question reads one metric's rows (`seat_metrics`, keyed by metric
//! first) and the seats they belong to (`seats`, what questions group and filter by); names are looked up
//! once per group, after grouping.

use crate::rows::{Dimension, Question};

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

    /// A group's label as SQL over its key `k`.
    fn label_sql(self) -> &'static str {
        match self {
            Dimension::Player | Dimension::Opponent => "(SELECT name FROM players WHERE id = k)",
            Dimension::Seat => "'seat ' || CAST(k AS TEXT)",
            Dimension::Ruleset | Dimension::Month => "k",
            Dimension::Players => "CAST(k AS TEXT) || ' players'",
            Dimension::Club => "COALESCE((SELECT name FROM clubs WHERE id = k), 'no club')",
            Dimension::Opening => "CASE WHEN k = '' THEN 'none' ELSE k END",
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

/// The answer's groups: key, label, seats, games, mean.
pub(crate) fn answer(q: &Question, from_where: &str) -> String {
    // A game has one seat per seat number and per player (two spellings of one person never share a
    // table), and one per opponent when the question is one player's: there the games are the seats, and
    // counting them apart, the costliest part of a question, is spared.
    let one_seat_per_game =
        matches!(q.by, Dimension::Seat | Dimension::Player) || (q.by == Dimension::Opponent && q.player.is_some());
    let games = if one_seat_per_game { "COUNT(*)" } else { "COUNT(DISTINCT s.game_id)" };
    format!(
        "SELECT CAST(k AS TEXT), {label}, seats, games, mean FROM (
             SELECT {key} AS k, COUNT(*) AS seats, {games} AS games, AVG(m.value) AS mean
             {from_where} GROUP BY {key}) AS grouped",
        label = q.by.label_sql(),
        key = q.by.key_sql(),
    )
}

/// How many games were counted.
pub(crate) fn counted(from_where: &str) -> String {
    format!("SELECT COUNT(DISTINCT s.game_id) {from_where}")
}

/// The counted games, latest played first, at most `limit` (a parameter).
pub(crate) fn counted_games(from_where: &str, limit: &str) -> String {
    format!(
        "SELECT g.id, g.ruleset, g.title, g.played_on FROM (
             SELECT s.game_id {from_where}
             GROUP BY s.game_id ORDER BY MAX(s.played_on) IS NULL, MAX(s.played_on) DESC, s.game_id LIMIT {limit}) AS c
         JOIN games g ON g.id = c.game_id
         ORDER BY g.played_on IS NULL, g.played_on DESC, g.id"
    )
}

/// A player's numbers by ruleset with the field's; parameter 1 the player. `public` is the condition on `s`
/// for a published game not deleted; `partners` the metrics kept for trade partners, left out here.
pub(crate) fn player_numbers(public: &str, partners: &str) -> String {
    format!(
        "SELECT s.ruleset, m.metric, m.arg, AVG(m.value), COUNT(*),
                (SELECT f.total / f.seats FROM field_metrics f
                 WHERE f.ruleset = s.ruleset AND f.metric = m.metric AND f.arg = m.arg AND f.seats > 0)
         FROM seats s JOIN seat_metrics m ON m.seat_key = s.key
         WHERE s.player = $1 AND {public} AND m.metric NOT IN ({partners})
         GROUP BY s.ruleset, m.metric, m.arg"
    )
}

/// A player's totals with each trade partner; parameter 1 the player.
pub(crate) fn player_partners(public: &str, partners: &str) -> String {
    format!(
        "SELECT s.ruleset, m.metric, o.player, CASE WHEN o.player IS NULL THEN m.arg END, SUM(m.value),
                (SELECT name FROM players WHERE id = o.player)
         FROM seats s JOIN seat_metrics m ON m.seat_key = s.key
         LEFT JOIN seats o ON o.game_id = s.game_id AND m.arg = 'seat:' || CAST(o.seat AS TEXT)
         WHERE s.player = $1 AND {public} AND m.metric IN ({partners})
         GROUP BY s.ruleset, m.metric, o.player, CASE WHEN o.player IS NULL THEN m.arg END"
    )
}

/// A player's openings with the mean of metric parameter 2 (argument-less); parameter 1 the player.
pub(crate) fn player_openings(public: &str) -> String {
    format!(
        "SELECT s.ruleset, s.opening, COUNT(*), AVG(m.value)
         FROM seats s JOIN seat_metrics m ON m.seat_key = s.key AND m.metric = $2 AND m.arg = ''
         WHERE s.player = $1 AND {public}
         GROUP BY s.ruleset, s.opening"
    )
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

/// `metrics` as an SQL list of string literals (metric ids are the analysis crate's constants, never input).
pub(crate) fn literals(metrics: &[&str]) -> String {
    metrics.iter().map(|m| format!("'{}'", m.replace('\'', "''"))).collect::<Vec<_>>().join(", ")
}
