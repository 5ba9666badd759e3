//! The SQL of a question across games, shared by both backends: they differ only in how a parameter and the
//! viewer's condition are written.

use crate::rows::{Dimension, Question};

/// Parameters, in this order: 1 metric, 2 arg, 3 ruleset, 4 club, 5 player, 6 players, 7 group, then the
/// two of the viewer's condition.
pub(crate) const VIEWER_FIRST: usize = 8;

/// `FROM … WHERE …` of the seats a question counts. `param(n, sql_type)` writes parameter `n`; `visible`
/// is the viewer's condition on `g`.
pub(crate) fn from_where(q: &Question, param: impl Fn(usize, &str) -> String, visible: &str) -> String {
    let (key, _) = q.by.sql();
    let opponents = if q.by == Dimension::Opponent {
        "JOIN game_players op ON op.game_id = m.game_id AND op.seat <> m.seat
         JOIN players pyou ON pyou.id = op.player_id
         JOIN players you ON you.id = COALESCE(pyou.merged_into, pyou.id)"
    } else {
        ""
    };
    let (ruleset, club, player, players, group) =
        (param(3, "text"), param(4, "text"), param(5, "bigint"), param(6, "bigint"), param(7, "text"));
    format!(
        "FROM seat_metrics m
         JOIN games g ON g.id = m.game_id
         JOIN game_players p ON p.game_id = m.game_id AND p.seat = m.seat
         JOIN players pme ON pme.id = p.player_id
         JOIN players me ON me.id = COALESCE(pme.merged_into, pme.id)
         LEFT JOIN clubs c ON c.id = g.owner
         {opponents}
         WHERE m.metric = {metric} AND m.arg = {arg} AND {visible}
           AND ({ruleset} IS NULL OR g.ruleset = {ruleset}) AND ({club} IS NULL OR c.name = {club})
           AND ({player} IS NULL OR me.id = {player}) AND ({players} IS NULL OR g.player_count = {players})
           AND ({group} IS NULL OR {key} = {group})",
        metric = param(1, "text"),
        arg = param(2, "text"),
    )
}

/// The answer's groups: key, label, seats, games, mean.
pub(crate) fn answer(q: &Question, from_where: &str) -> String {
    let (key, label) = q.by.sql();
    format!("SELECT {key}, MIN({label}), COUNT(*), COUNT(DISTINCT g.id), AVG(m.value) {from_where} GROUP BY {key}")
}

/// How many games were counted.
pub(crate) fn counted(from_where: &str) -> String {
    format!("SELECT COUNT(DISTINCT g.id) {from_where}")
}

/// The counted games, latest played first, at most `limit` (the last parameter, numbered `limit`).
pub(crate) fn counted_games(from_where: &str, limit: &str) -> String {
    format!(
        "SELECT g.id, g.ruleset, g.title, g.played_on {from_where}
         GROUP BY g.id, g.ruleset, g.title, g.played_on
         ORDER BY g.played_on IS NULL, g.played_on DESC, g.id LIMIT {limit}"
    )
}
