//! The questions' read model on SQLite: writing a game's numbers per seat, and answering questions.

use super::Sqlite;
use crate::error::Result;
use crate::questions::{self, VIEWER_FIRST};
use crate::rows::{CountedGame, PlayerId, Question};
use almanac_core::Insights;
use rusqlite::{params, params_from_iter, OptionalExtension, Transaction};

/// Replaces game `id`'s read model by `insights` (in the caller's transaction): its seats, made once from the
/// game's row and players, and their numbers.
pub fn write(tx: &Transaction, id: &str, insights: &Insights) -> Result<()> {
    let made = tx.prepare_cached(&numbered(questions::INSERT_SEATS.to_string()))?.execute([id])?;
    let keys: Vec<i64> = {
        let mut stmt = tx.prepare_cached("SELECT key FROM seats WHERE game_id = ?1 ORDER BY seat")?;
        let rows = stmt.query_map([id], |r| r.get(0))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    // Seats made just now have no numbers yet; seats kept from before (an append, a reproject) lose theirs.
    if made < keys.len() {
        let mut clear = tx.prepare_cached("DELETE FROM seat_metrics WHERE seat_key = ?1")?;
        for key in &keys {
            clear.execute([key])?;
        }
    }
    let mut ins =
        tx.prepare_cached("INSERT INTO seat_metrics (metric, arg, seat_key, value) VALUES (?1, ?2, ?3, ?4)")?;
    for m in &insights.metrics {
        if let Some(key) = keys.get(m.seat as usize) {
            ins.execute(params![m.metric, m.arg, key, m.value])?;
        }
    }
    let mut opening = tx.prepare_cached("UPDATE seats SET opening = ?2 WHERE key = ?1")?;
    for (key, o) in keys.iter().zip(&insights.openings) {
        opening.execute(params![key, o])?;
    }
    tx.execute("UPDATE games SET insights_version = ?2 WHERE id = ?1", params![id, almanac_core::insights::VERSION])?;
    Ok(())
}

impl Sqlite {
    fn question_params(q: &Question) -> Vec<rusqlite::types::Value> {
        use rusqlite::types::Value as V;
        let text = |s: &Option<String>| s.clone().map_or(V::Null, V::Text);
        vec![
            V::Text(q.metric.clone()),
            V::Text(q.arg.clone()),
            text(&q.ruleset),
            text(&q.club),
            q.player.map_or(V::Null, V::Integer),
            q.players.map_or(V::Null, |n| V::Integer(n as i64)),
            text(&q.group),
            q.viewer.club().map_or(V::Null, V::Integer),
            V::Integer((q.viewer == crate::Viewer::Operator) as i64),
        ]
    }

    fn question_from_where(q: &Question) -> String {
        let visible =
            format!("(s.deleted = 0 AND (s.published = 1 OR s.owner = ?{VIEWER_FIRST} OR ?{}))", VIEWER_FIRST + 1);
        questions::from_where(q, |n, _| format!("?{n}"), &visible)
    }

    /// A question's rows tallied. A database in a file is read in two halves of its seats at once, the second
    /// on a connection of its own in another thread, and the two tallies merged: a question over every game
    /// reads hundreds of thousands of rows, and each half is tallied as fast as the whole was.
    pub fn question_tally(&self, q: &Question) -> Result<questions::Tally> {
        let top: i64 = self.conn.query_row("SELECT COALESCE(MAX(key), 0) FROM seats", [], |r| r.get(0))?;
        let path = self.conn.path().filter(|p| !p.is_empty()).map(std::path::PathBuf::from);
        let Some(path) = path.filter(|_| top > 1) else {
            let mut t = questions::Tally::default();
            self.question_rows_between(q, i64::MIN, i64::MAX, &mut |k, g, p, v| t.add(k, g, p, v))?;
            return Ok(t);
        };
        let middle = top / 2;
        std::thread::scope(|scope| {
            let second = scope.spawn(|| -> Result<questions::Tally> {
                let other = Sqlite::open_reader(&path)?;
                let mut t = questions::Tally::default();
                other.question_rows_between(q, middle + 1, i64::MAX, &mut |k, g, p, v| t.add(k, g, p, v))?;
                Ok(t)
            });
            let mut t = questions::Tally::default();
            let first = self.question_rows_between(q, i64::MIN, middle, &mut |k, g, p, v| t.add(k, g, p, v));
            let second = second.join().expect("the second half of a question does not panic");
            first?;
            t.merge(second?);
            Ok(t)
        })
    }

    /// Hands every row a question counts of the seats keyed `from ..= to` to `each`: the group's key, the game,
    /// when it was played, the value.
    fn question_rows_between(&self, q: &Question, from: i64, to: i64, each: &mut questions::EachRow) -> Result<()> {
        let range = format!(" AND m.seat_key BETWEEN ?{} AND ?{}", VIEWER_FIRST + 2, VIEWER_FIRST + 3);
        let sql = questions::rows(q, &(Self::question_from_where(q) + &range));
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let mut params = Self::question_params(q);
        params.extend([rusqlite::types::Value::Integer(from), rusqlite::types::Value::Integer(to)]);
        let mut rows = stmt.query(params_from_iter(params))?;
        let text = |e: rusqlite::types::FromSqlError| {
            rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(e))
        };
        while let Some(r) = rows.next()? {
            let played: Option<&str> = r.get_ref(2)?.as_str_or_null().map_err(text)?;
            each(r.get_ref(0)?.as_str().map_err(text)?, r.get_ref(1)?.as_str().map_err(text)?, played, r.get(3)?);
        }
        Ok(())
    }

    /// The names of players, by id.
    pub fn player_names(&self, ids: &[i64]) -> Result<std::collections::HashMap<i64, String>> {
        let mut stmt = self.conn.prepare_cached("SELECT name FROM players WHERE id = ?1")?;
        let mut names = std::collections::HashMap::new();
        for &id in ids {
            if let Some(name) = stmt.query_row([id], |r| r.get::<_, String>(0)).optional()? {
                names.insert(id, name);
            }
        }
        Ok(names)
    }

    /// Counted games as a list shows them, in the order given.
    pub fn briefs(&self, ids: &[String]) -> Result<Vec<CountedGame>> {
        let mut stmt = self.conn.prepare_cached("SELECT id, ruleset, title, played_on FROM games WHERE id = ?1")?;
        let mut out = Vec::new();
        for id in ids {
            out.push(stmt.query_row([id], |r| {
                Ok(CountedGame { id: r.get(0)?, ruleset: r.get(1)?, title: r.get(2)?, played_on: r.get(3)? })
            })?);
        }
        Ok(out)
    }
}

const PUBLIC: &str = "s.published = 1 AND s.deleted = 0";

/// The shared SQL's `$N` parameters as SQLite numbers them (`?N`: by number, not by first appearance).
fn numbered(sql: String) -> String {
    sql.replace('$', "?")
}

impl Sqlite {
    pub fn read_model_version(&self) -> Result<i64> {
        Ok(self.conn.prepare_cached("SELECT version FROM read_model")?.query_row([], |r| r.get(0))?)
    }

    pub fn bump_read_model(&mut self) -> Result<()> {
        self.conn.execute("UPDATE read_model SET version = version + 1", [])?;
        Ok(())
    }

    pub fn player_rows(
        &self,
        player: PlayerId,
        metrics: &[&str],
        each: &mut dyn FnMut(questions::PlayerRow),
    ) -> Result<()> {
        let sql = numbered(questions::player_rows(PUBLIC, metrics.len()));
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let params: Vec<&dyn rusqlite::ToSql> = std::iter::once(&player as &dyn rusqlite::ToSql)
            .chain(metrics.iter().map(|m| m as &dyn rusqlite::ToSql))
            .collect();
        let mut rows = stmt.query(params.as_slice())?;
        let text = |e: rusqlite::types::FromSqlError| {
            rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(e))
        };
        while let Some(r) = rows.next()? {
            each(questions::PlayerRow {
                ruleset: r.get_ref(0)?.as_str().map_err(text)?,
                metric: r.get_ref(1)?.as_str().map_err(text)?,
                arg: r.get_ref(2)?.as_str().map_err(text)?,
                value: r.get(3)?,
                opening: r.get_ref(4)?.as_str_or_null().map_err(text)?,
                partner: r.get(5)?,
            });
        }
        Ok(())
    }

    pub fn field(&self, ruleset: &str) -> Result<Vec<(String, String, f64)>> {
        let mut stmt = self.conn.prepare_cached(&numbered(questions::FIELD.to_string()))?;
        let rows = stmt.query_map([ruleset], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    pub fn rated_games(&self, ruleset: &str) -> Result<Vec<crate::rows::RatedGame>> {
        // A game's rowid, from the index of ids alone (the games' rows carry their headers).
        let stored = "(SELECT g.rowid FROM games g WHERE g.id = s.game_id)";
        let mut stmt = self.conn.prepare_cached(&numbered(questions::rated_games(PUBLIC, stored)))?;
        let rows = stmt.query_map([ruleset], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(questions::gather_rated(rows.collect::<rusqlite::Result<Vec<_>>>()?))
    }

    pub fn ratings_fingerprint(&self, ruleset: &str, score: &str) -> Result<String> {
        let sql = numbered(questions::ratings_fingerprint(PUBLIC));
        Ok(self.conn.prepare_cached(&sql)?.query_row(params![ruleset, score], |r| r.get(0))?)
    }
}
