//! The store on SQLite: games, players, events and facts in one file, the default and embedded backend.

mod checkpoints;
mod clubs;
mod events;
mod facts;
mod insights;
mod migrations;
mod notes;
mod players;

use crate::error::{Result, StoreError};
use crate::ownership::{ClubId, Ownership, Repeat, Viewer};
use crate::packed::Packed;
use crate::rows::{
    anywhere, Appended, Derivation, DueGame, GameFilter, GameRow, Inserted, NewGame, PlayerRow, Recording, Sort,
    StoredGame, TokenRecord,
};
use almanac_core::{FactRow, Game};
use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use std::path::Path;

/// The store in one SQLite file (or in memory): one writer, readers side by side (WAL).
pub struct Sqlite {
    pub(crate) conn: Connection,
    /// The metrics' keys this connection has used, kept from one write to the next.
    metric_keys: insights::MetricKeys,
}

/// The SQL condition on `g` (a games row) for the games `viewer` may see, and its two arguments (the club,
/// whether everything is visible), numbered from `first`.
pub(crate) fn visible_to(viewer: Viewer, first: usize) -> (String, Option<ClubId>, bool) {
    let sql = format!("(g.deleted_at IS NULL AND (g.published = 1 OR g.owner = ?{first} OR ?{}))", first + 1);
    (sql, viewer.club(), viewer == Viewer::Operator)
}

/// The SQL `ORDER BY` of a list's order.
fn order_by(sort: Sort) -> &'static str {
    match sort {
        Sort::Stored => "g.stored_at DESC, g.rowid DESC",
        Sort::Played => "g.played_on IS NULL, g.played_on DESC, g.rowid DESC",
        Sort::Turns => "g.turn_count DESC, g.rowid DESC",
        Sort::Title => "fold(COALESCE(g.title, g.id)), g.rowid",
    }
}

impl Sqlite {
    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Sqlite> {
        if let Some(dir) = path.parent() {
            if !dir.as_os_str().is_empty() {
                let _ = std::fs::create_dir_all(dir);
            }
        }
        let conn = Connection::open(path)?;
        Self::setup(conn)
    }

    /// `fold(text)`: lower case beyond ASCII (SQLite's own `lower` and `LIKE` fold ASCII letters only), for
    /// searches in any case (`almanac_core::search_fold`, as PostgreSQL's `fold` does).
    fn add_functions(conn: &Connection) -> Result<()> {
        use rusqlite::functions::FunctionFlags;
        conn.create_scalar_function(
            "fold",
            1,
            FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
            |ctx| Ok(ctx.get::<Option<String>>(0)?.map(|s| almanac_core::search_fold(&s))),
        )?;
        Ok(())
    }

    pub fn open_in_memory() -> Result<Sqlite> {
        Self::setup(Connection::open_in_memory()?)
    }

    /// Opens a database that exists and is up to date, for reading only (a [`Pool`]'s readers).
    pub fn open_reader(path: &Path) -> Result<Sqlite> {
        let conn =
            Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.set_prepared_statement_cache_capacity(64);
        Self::add_functions(&conn)?;
        Ok(Sqlite { conn, metric_keys: Default::default() })
    }

    fn setup(mut conn: Connection) -> Result<Sqlite> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // Statement journals (a statement inside a transaction, with triggers) in memory rather than in
        // temporary files, and 64 MB of page cache: both cost memory only.
        conn.pragma_update(None, "temp_store", "MEMORY")?;
        conn.pragma_update(None, "cache_size", -65536)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        // Storing a game runs about twenty statements: rusqlite's cache of 16 would prepare some again for
        // every game.
        conn.set_prepared_statement_cache_capacity(64);
        // Before the migrations: they may use `fold` too.
        Self::add_functions(&conn)?;
        migrations::run(&mut conn)?;
        Ok(Sqlite { conn, metric_keys: Default::default() })
    }

    /// The schema version (the number of the last migration applied).
    pub fn schema_version(&self) -> Result<u32> {
        migrations::current(&self.conn)
    }

    /// Stores a validated game with its events and facts in one transaction, owned as `ownership` says.
    /// The same content hash stored before gives `Existing` and writes nothing, if the uploader may see that
    /// game (its owner uploading a game it deleted shows it again); another club's private game with the
    /// same log is `TakenElsewhere`.
    pub fn insert_game_as(&mut self, id: &str, new: &NewGame, ownership: Ownership) -> Result<Inserted> {
        self.in_transaction(|tx, change| insert_game(tx, id, new, ownership, change))
    }

    /// Stores games under their ids, each owned as its ownership says, as `insert_game_as` does: each whole
    /// or not at all (`each_whole`).
    pub fn insert_games_as(&mut self, games: &[(&str, &NewGame, Ownership)]) -> Result<Vec<Result<Inserted>>> {
        self.each_whole(games, |tx, (id, new, ownership), change| insert_game(tx, id, new, *ownership, change))
    }

    /// Runs `write` in a transaction of its own, and adds what it changed in the field's sums before the commit.
    fn in_transaction<T>(&mut self, write: impl FnOnce(&Connection, &mut insights::Change) -> Result<T>) -> Result<T> {
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        // The keys leave the connection for the transaction and come back only if it commits.
        let mut change = insights::Change::new(std::mem::take(&mut self.metric_keys));
        let out = write(&tx, &mut change)?;
        let keys = change.write(&tx)?;
        count_change(&tx)?;
        tx.commit()?;
        self.metric_keys = keys;
        Ok(out)
    }

    /// `write` of every item in one transaction: each whole or not at all, as if written one by one, but written
    /// to the file once (a commit per game rewrote the read model's pages for every game). Should one fail, the
    /// transaction is rolled back and the items are written one by one, so that each outcome is its own. (A
    /// savepoint per item would say the same, but SQLite's savepoints cost more than the commits they save.)
    fn each_whole<I, T>(
        &mut self,
        items: &[I],
        write: impl Fn(&Connection, &I, &mut insights::Change) -> Result<T>,
    ) -> Result<Vec<Result<T>>> {
        let together =
            self.in_transaction(|tx, change| items.iter().map(|i| write(tx, i, change)).collect::<Result<Vec<T>>>());
        match together {
            Ok(out) => Ok(out.into_iter().map(Ok).collect()),
            Err(_) => Ok(items.iter().map(|i| self.in_transaction(|tx, change| write(tx, i, change))).collect()),
        }
    }

    /// Every game, deleted ones too, oldest first, with what a copy of the database must keep.
    pub fn stored_games(&self) -> Result<Vec<StoredGame>> {
        let mut stmt = self.conn.prepare(
            "SELECT g.id, g.content_hash, c.name, g.published, g.deleted_at IS NOT NULL, g.event_count
             FROM games g LEFT JOIN clubs c ON c.id = g.owner ORDER BY g.stored_at, g.rowid",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(StoredGame {
                id: r.get(0)?,
                content_hash: r.get(1)?,
                owner: r.get(2)?,
                published: r.get(3)?,
                deleted: r.get(4)?,
                events: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every token as stored (its hash), for a copy of the database.
    pub fn token_records(&self) -> Result<Vec<TokenRecord>> {
        let mut stmt = self.conn.prepare(
            "SELECT c.name, t.hash, t.label, t.revoked_at IS NOT NULL FROM tokens t JOIN clubs c ON c.id = t.club_id ORDER BY t.id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(TokenRecord { club: r.get(0)?, hash: r.get(1)?, label: r.get(2)?, revoked: r.get(3)? })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Appends the events `appended` names to game `id` of `club`, if the stored log still ends at
    /// `expected_seq`.
    pub fn append_events(&mut self, club: ClubId, id: &str, expected_seq: u64, appended: Appended) -> Result<u64> {
        let Appended { game, lines: new_lines, insights } = appended;
        self.in_transaction(|tx, change| {
            let (actual, owner): (u64, Option<ClubId>) = tx
                .query_row("SELECT event_count, owner FROM games WHERE id = ?1 AND deleted_at IS NULL", [id], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })
                .optional()?
                .ok_or_else(|| StoreError::NotFound(id.to_string()))?;
            if owner != Some(club) {
                return Err(StoreError::NotYours(id.to_string()));
            }
            if actual != expected_seq {
                return Err(StoreError::Conflict { game: id.to_string(), expected: expected_seq, actual });
            }
            let first = game.event_count() - new_lines.len();
            assert_eq!(first as u64, expected_seq, "the game given must be the stored log plus the new lines");
            if crate::rows::withdraws(game, first) {
                // A withdrawal takes an earlier entry's facts back: the game's facts are written again.
                write_events(tx, id, game, first, new_lines, &[])?;
                tx.execute("DELETE FROM fact_batches WHERE game_id = ?1", [id])?;
                facts::store(tx, id, 1, &game.fact_rows(0))?;
            } else {
                write_events(tx, id, game, first, new_lines, &game.fact_rows(first))?;
            }
            let standing = almanac_core::checkpoint::standing(first);
            let key = events::key_of(tx, id)?;
            checkpoints::write(
                tx,
                key,
                standing,
                game.ruleset_version(),
                &crate::packed::checkpoints(game.checkpoints(standing)),
            )?;
            let old = refresh_summary(tx, id, game)?;
            insights::write(tx, id, insights, change)?;
            recount(tx, id, old.as_deref())?;
            Ok(game.event_count() as u64)
        })
    }

    pub fn game(&self, id: &str) -> Result<GameRow> {
        let mut rows = self.query_games("WHERE g.id = ?1", &[&id as &dyn rusqlite::ToSql])?;
        rows.pop().ok_or_else(|| StoreError::NotFound(id.to_string()))
    }

    /// The games the filter's viewer may see, newest first.
    pub fn list_games(&self, filter: &GameFilter) -> Result<Vec<GameRow>> {
        let (visible, club, everything) = visible_to(filter.viewer, 1);
        let mut conds = vec![visible];
        let mut args: Vec<&dyn rusqlite::ToSql> = vec![&club, &everything];
        if let Some(r) = &filter.ruleset {
            args.push(r);
            conds.push(format!("g.ruleset = ?{}", args.len()));
        }
        let player = filter.player.as_ref().map(|p| almanac_core::search_fold(p.trim()));
        if let Some(p) = &player {
            args.push(p);
            conds.push(format!(
                "EXISTS (SELECT 1 FROM game_players q WHERE q.game_id = g.id AND fold(q.name) = ?{})",
                args.len()
            ));
        }
        let search = filter.search.as_deref().filter(|s| !s.trim().is_empty()).map(anywhere);
        if let Some(pattern) = &search {
            args.push(pattern);
            let n = args.len();
            conds.push(format!(
                "(fold(g.title) LIKE ?{n} ESCAPE '\\' OR fold(g.club) LIKE ?{n} ESCAPE '\\'
                  OR fold(g.location) LIKE ?{n} ESCAPE '\\' OR fold(g.ruleset) LIKE ?{n} ESCAPE '\\'
                  OR EXISTS (SELECT 1 FROM game_players q WHERE q.game_id = g.id AND fold(q.name) LIKE ?{n} ESCAPE '\\'))"
            ));
        }
        let mut sql = format!("WHERE {}", conds.join(" AND "));
        sql.push_str(&format!(
            " ORDER BY {} LIMIT {} OFFSET {}",
            order_by(filter.sort),
            filter.limit.unwrap_or(100),
            filter.offset.unwrap_or(0)
        ));
        self.query_games(&sql, &args)
    }

    fn query_games(&self, tail: &str, args: &[&dyn rusqlite::ToSql]) -> Result<Vec<GameRow>> {
        let sql = format!(
            "SELECT g.id, g.ruleset, g.ruleset_version, g.title, g.played_on, g.club, g.location, g.stored_at,
                    g.event_count, g.turn_count, g.winner, c.name, g.published, g.edition, g.unseen
             FROM games g LEFT JOIN clubs c ON c.id = g.owner {tail}"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let mut games: Vec<GameRow> = stmt
            .query_map(args, |r| {
                Ok(GameRow {
                    id: r.get(0)?,
                    ruleset: r.get(1)?,
                    ruleset_version: r.get(2)?,
                    title: r.get(3)?,
                    played_on: r.get(4)?,
                    club: r.get(5)?,
                    location: r.get(6)?,
                    stored_at: r.get(7)?,
                    event_count: r.get(8)?,
                    turn_count: r.get(9)?,
                    winner: r.get(10)?,
                    owner: r.get(11)?,
                    published: r.get(12)?,
                    edition: r.get(13)?,
                    unseen: r.get(14)?,
                    players: Vec::new(),
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        let mut players = self.conn.prepare_cached(
            "SELECT q.seat, q.name, q.color, q.vp, q.vp_public, COALESCE(pl.merged_into, pl.id), q.bot
             FROM game_players q LEFT JOIN players pl ON pl.id = q.player_id WHERE q.game_id = ?1 ORDER BY q.seat",
        )?;
        for g in &mut games {
            g.players = players
                .query_map([&g.id], |r| {
                    Ok(PlayerRow {
                        seat: r.get(0)?,
                        name: r.get(1)?,
                        color: r.get(2)?,
                        vp: r.get(3)?,
                        vp_public: r.get(4)?,
                        player: r.get(5)?,
                        bot: r.get(6)?,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
        }
        Ok(games)
    }

    /// The stored log: the header line and the event lines in order.
    /// See `Store::recordings`.
    pub fn recordings(&self, id: &str, viewer: Viewer) -> Result<(bool, Vec<Recording>)> {
        let counted: bool = self
            .conn
            .prepare_cached("SELECT COALESCE(MAX(counted), 0) = 1 FROM seats WHERE game_id = ?1")?
            .query_row([id], |r| r.get(0))?;
        let (visible, club, all) = visible_to(viewer, 2);
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT g.id, g.title, c.name, g.stored_at,
                    EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.counted = 1), g.unseen, g.event_count
             FROM games g LEFT JOIN clubs c ON c.id = g.owner
             WHERE g.fingerprint = (SELECT fingerprint FROM games WHERE id = ?1) AND g.id <> ?1 AND {visible}
             ORDER BY g.key"
        ))?;
        let rows = stmt.query_map(params![id, club, all], |r| {
            Ok(Recording {
                id: r.get(0)?,
                title: r.get(1)?,
                owner: r.get(2)?,
                stored_at: r.get(3)?,
                counted: r.get(4)?,
                unseen: r.get(5)?,
                events: r.get(6)?,
            })
        })?;
        Ok((counted, rows.collect::<rusqlite::Result<_>>()?))
    }

    pub fn log(&self, id: &str) -> Result<(String, Vec<String>)> {
        let header: String = self
            .conn
            .query_row("SELECT header FROM games WHERE id = ?1", [id], |r| r.get(0))
            .optional()?
            .ok_or_else(|| StoreError::NotFound(id.to_string()))?;
        Ok((header, events::all(&self.conn, id)?))
    }

    /// What the state after `events` events (none: all) is rebuilt from: the nearest checkpoint written by
    /// the current version of the game's ruleset (`version_of`) and the events after it.
    pub fn resume_point(
        &self,
        id: &str,
        events: Option<u64>,
        version_of: &dyn Fn(&str) -> Option<u32>,
    ) -> Result<crate::ResumePoint> {
        let (ruleset, header, count): (String, String, u64) = self
            .conn
            .prepare_cached("SELECT ruleset, header, event_count FROM games WHERE id = ?1")?
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()?
            .ok_or_else(|| StoreError::NotFound(id.to_string()))?;
        let n = events.map_or(count, |e| e.min(count));
        let checkpoint = match version_of(&ruleset) {
            Some(version) => checkpoints::before(&self.conn, id, n, version)?,
            None => None,
        };
        let from = checkpoint.as_ref().map_or(0, |c| c.events);
        let lines = if n > from {
            events::range(&self.conn, id, from + 1, n)?.into_iter().map(|(_, _, l)| l).collect()
        } else {
            Vec::new()
        };
        Ok(crate::ResumePoint { ruleset, header, events: n, checkpoint, lines })
    }

    /// The bytes of every stored checkpoint.
    pub fn checkpoint_bytes(&self) -> Result<u64> {
        checkpoints::bytes(&self.conn)
    }

    /// Stored events with their seq and turn, `from..=to` by seq.
    pub fn events(&self, id: &str, from: u64, to: u64) -> Result<Vec<(u64, u32, String)>> {
        self.game(id)?;
        events::range(&self.conn, id, from, to)
    }

    /// The projected facts of a game, in event order.
    pub fn facts(&self, id: &str) -> Result<Vec<FactRow>> {
        self.game(id)?;
        facts::read(&self.conn, id)
    }

    /// Finds a game by id or by a unique prefix of it, among the games `viewer` may see (so another club's
    /// private game is not found, and does not make a prefix ambiguous).
    pub fn resolve(&self, viewer: Viewer, id_or_prefix: &str) -> Result<String> {
        // The whole id first (the primary key), then the ids that begin so: a range of the same index (a
        // `LIKE` read every game's row, a tenth of a second per page at 100,000 games).
        let (visible, club, everything) = visible_to(viewer, 2);
        let mut exact = self.conn.prepare_cached(&format!("SELECT id FROM games g WHERE id = ?1 AND {visible}"))?;
        let found: Option<String> =
            exact.query_row(params![id_or_prefix, club, everything], |r| r.get(0)).optional()?;
        if let Some(id) = found {
            return Ok(id);
        }
        let (visible, club, everything) = visible_to(viewer, 3);
        let mut stmt = self
            .conn
            .prepare_cached(&format!("SELECT id FROM games g WHERE id >= ?1 AND id < ?2 AND {visible} LIMIT 2"))?;
        let past = format!("{id_or_prefix}\u{10FFFF}");
        let ids: Vec<String> = stmt
            .query_map(params![id_or_prefix, past, club, everything], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        match ids.as_slice() {
            [one] => Ok(one.clone()),
            _ => Err(StoreError::NotFound(id_or_prefix.to_string())),
        }
    }

    /// How many facts are stored, over all games.
    pub fn fact_count(&self) -> Result<u64> {
        Ok(self.conn.query_row("SELECT COALESCE(SUM(facts), 0) FROM fact_batches", [], |r| r.get(0))?)
    }

    pub fn log_bytes(&self) -> Result<u64> {
        Ok(self.conn.query_row(
            "SELECT (SELECT COALESCE(SUM(LENGTH(CAST(header AS BLOB)) + 1), 0) FROM games)
                  + (SELECT COALESCE(SUM(text_bytes), 0) FROM event_chunks)",
            [],
            |r| r.get(0),
        )?)
    }

    /// The games of `ruleset` (all games when `None`) stored by another version of their ruleset than
    /// `current` (every one of them when `current` is `None`), oldest first.
    pub fn games_to_reproject(&self, ruleset: Option<&str>, current: Option<u32>) -> Result<Vec<DueGame>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, ruleset, numbers_older FROM (
                 SELECT id, ruleset, stored_at, rowid AS n, event_count, key,
                        ?2 IS NULL OR ruleset_version <> ?2 OR insights_version <> ?3 OR fingerprint IS NULL
                        OR (winner IS NOT NULL AND chances_model IS NOT
                            (SELECT MAX(w.id) FROM win_models w WHERE w.ruleset = games.ruleset))
                        AS numbers_older
                 FROM games WHERE ?1 IS NULL OR ruleset = ?1) AS g
             WHERE numbers_older
                OR (event_count > 0 AND NOT EXISTS (SELECT 1 FROM checkpoints c WHERE c.game = g.key))
             ORDER BY stored_at, n",
        )?;
        let rows = stmt.query_map(params![ruleset, current, almanac_core::insights::VERSION], |r| {
            Ok(DueGame { id: r.get(0)?, ruleset: r.get(1)?, numbers_older: r.get(2)? })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Replaces the facts and the derived columns of game `id` by those of `game` (its stored log read by
    /// the current ruleset), and records the ruleset version that derived them; one transaction. The
    /// events are not touched: `game` must hold exactly the stored events.
    pub fn reproject(&mut self, d: &Derivation) -> Result<()> {
        self.in_transaction(|tx, change| reproject_game(tx, d, change))
    }

    /// Derives games again as `reproject` does, each whole or not at all (`each_whole`).
    pub fn reproject_games(&mut self, games: &[Derivation]) -> Result<Vec<Result<()>>> {
        self.each_whole(games, reproject_game)
    }
}

/// Derives a game's facts, summary and read model again in the caller's transaction (see `Store::reproject`).
fn reproject_game(tx: &rusqlite::Connection, d: &Derivation, change: &mut insights::Change) -> Result<()> {
    let Derivation { id, game, facts, insights } = *d;
    let stored: u64 = tx
        .query_row("SELECT event_count FROM games WHERE id = ?1", [id], |r| r.get(0))
        .optional()?
        .ok_or_else(|| StoreError::NotFound(id.to_string()))?;
    if stored != game.event_count() as u64 {
        return Err(StoreError::Conflict { game: id.to_string(), expected: stored, actual: game.event_count() as u64 });
    }
    tx.execute("DELETE FROM fact_batches WHERE game_id = ?1", [id])?;
    facts::store(tx, id, 1, facts)?;
    tx.prepare_cached("UPDATE games SET ruleset_version = ?2 WHERE id = ?1")?
        .execute(params![id, game.ruleset_version()])?;
    checkpoints::write(
        tx,
        events::key_of(tx, id)?,
        0,
        game.ruleset_version(),
        &crate::packed::checkpoints(game.checkpoints(0)),
    )?;
    let old = refresh_summary(tx, id, game)?;
    insights::write(tx, id, insights, change)?;
    recount(tx, id, old.as_deref())
}

fn write_events(
    tx: &rusqlite::Connection,
    id: &str,
    game: &dyn Game,
    first: usize,
    lines: &[impl AsRef<str>],
    facts: &[almanac_core::FactRow],
) -> Result<()> {
    events::write(tx, id, game, first, lines)?;
    facts::store(tx, id, first as u64 + 1, facts)
}

/// Refreshes the derived columns of a game (counts, winner, fingerprint, final scores) from its final state;
/// gives back the fingerprint it had.
fn refresh_summary(tx: &rusqlite::Connection, id: &str, game: &dyn Game) -> Result<Option<String>> {
    let view = game.view_after(usize::MAX);
    let old: Option<String> =
        tx.prepare_cached("SELECT fingerprint FROM games WHERE id = ?1")?.query_row([id], |r| r.get(0))?;
    tx.prepare_cached(
        "UPDATE games SET event_count = ?2, turn_count = ?3, winner = ?4, edition = ?5, fingerprint = ?6, unseen = ?7
         WHERE id = ?1",
    )?
    .execute(params![
        id,
        game.event_count() as u64,
        game.current_turn(),
        view.winner,
        game.edition(),
        game.fingerprint(),
        game.unseen()
    ])?;
    let mut upd = tx
        .prepare_cached("UPDATE game_players SET vp = ?3, vp_public = ?4, bot = ?5 WHERE game_id = ?1 AND seat = ?2")?;
    let bots = game.bots();
    for (seat, p) in view.players.iter().enumerate() {
        upd.execute(params![id, seat as u32, p.vp, p.vp_public, bots.get(seat).copied().unwrap_or(false)])?;
    }
    Ok(old)
}

/// Which seats count, decided again after game `id` changed (its events, visibility or derivation): its seats
/// take its row's fingerprint and whether it has a winner, then every seat of a game sharing its fingerprint,
/// or the one it had (`old`), is counted when its game is published, not deleted, has a winner and is, of the
/// games so with that fingerprint, the one that saw the most (the fewest unseen cards, then the longest, then
/// the first stored). A seat that comes to count or stops moves its numbers
/// in or out of the field (trigger `field_follows_counting`).
pub(super) fn recount(tx: &rusqlite::Connection, id: &str, old: Option<&str>) -> Result<()> {
    tx.prepare_cached(
        "UPDATE seats SET fingerprint = g.fingerprint, finished = (g.winner IS NOT NULL),
                          edition = COALESCE(g.edition, '')
         FROM games g WHERE g.id = seats.game_id AND seats.game_id = ?1
           AND (seats.fingerprint IS NOT g.fingerprint OR seats.finished <> (g.winner IS NOT NULL)
                OR seats.edition <> COALESCE(g.edition, ''))",
    )?
    .execute([id])?;
    tx.prepare_cached(
        "UPDATE seats SET bot = q.bot FROM game_players q
         WHERE q.game_id = seats.game_id AND q.seat = seats.seat AND seats.game_id = ?1 AND seats.bot <> q.bot",
    )?
    .execute([id])?;
    // Of the records of one game, the one that saw the most: the fewest unseen cards, then the longest, then
    // the first stored.
    let counts = "(published = 1 AND deleted = 0 AND finished = 1 AND NOT EXISTS (
                      SELECT 1 FROM seats e JOIN games ge ON ge.id = e.game_id, games gx
                      WHERE gx.id = seats.game_id AND e.fingerprint = seats.fingerprint AND e.seat = seats.seat
                         AND e.published = 1 AND e.deleted = 0 AND e.finished = 1
                         AND (ge.unseen, -ge.event_count, e.key) < (gx.unseen, -gx.event_count, seats.key)))";
    tx.prepare_cached(&format!(
        "UPDATE seats SET counted = {counts}
         WHERE (game_id = ?1 OR fingerprint = (SELECT fingerprint FROM games WHERE id = ?1) OR fingerprint = ?2)
           AND counted <> {counts}"
    ))?
    .execute(params![id, old])?;
    Ok(())
}

/// Counts a write in the read model's version, inside the write's own transaction: what readers' caches
/// compare, changed with what it counts (a second commit for every upload otherwise).
fn count_change(tx: &Connection) -> Result<()> {
    tx.prepare_cached("UPDATE read_model SET version = version + 1")?.execute([])?;
    Ok(())
}

/// Stores game `id` with its events, facts and read model in the caller's transaction (see `Store::insert_game`).
fn insert_game(
    tx: &rusqlite::Connection,
    id: &str,
    new: &NewGame,
    ownership: Ownership,
    change: &mut insights::Change,
) -> Result<Inserted> {
    let NewGame { game, header_line, content_hash, insights, .. } = *new;
    let id = id.to_string();
    if let Some((existing, owner, published, deleted)) = tx
        .prepare_cached("SELECT id, owner, published, deleted_at IS NOT NULL FROM games WHERE content_hash = ?1")?
        .query_row([content_hash], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Option<ClubId>>(1)?, r.get::<_, bool>(2)?, r.get::<_, bool>(3)?))
        })
        .optional()?
    {
        match Repeat::of(owner, published, deleted, ownership) {
            Repeat::Unhide => {
                tx.execute("UPDATE games SET deleted_at = NULL WHERE id = ?1", [&existing])?;
                recount(tx, &existing, None)?;
            }
            Repeat::Same => {}
            Repeat::TakenElsewhere => return Err(StoreError::TakenElsewhere(existing)),
        }
        return Ok(Inserted::Existing(existing));
    }
    if tx.prepare_cached("SELECT 1 FROM games WHERE id = ?1")?.query_row([&id], |_| Ok(())).optional()?.is_some() {
        return Err(StoreError::IdClash(id));
    }
    let env = game.envelope();
    tx.prepare_cached(
        "INSERT INTO games (id, content_hash, ruleset, ruleset_version, header, title, played_on, club, location,
                            event_count, turn_count, winner, owner, published, key)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 0, 0, NULL, ?10, ?11,
                 (SELECT COALESCE(MAX(key), 0) + 1 FROM games))",
    )?
    .execute(params![
        id,
        content_hash,
        game.ruleset(),
        game.ruleset_version(),
        header_line,
        env.title,
        env.date,
        env.club,
        env.location,
        ownership.club,
        ownership.published || ownership.club.is_none()
    ])?;
    {
        let club = ownership.club.unwrap_or(0);
        let bots = game.bots();
        for (seat, p) in env.players.iter().enumerate() {
            // Stored as people read it: one spelling for names typed alike (`almanac_core::normalise_name`).
            let name = almanac_core::normalise_name(&p.name);
            let player = players::identity_for(tx, club, &name)?;
            tx.prepare_cached(
                "INSERT INTO game_players (game_id, seat, name, color, player_id, bot) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![
                id,
                seat as u32,
                name,
                p.color,
                player,
                bots.get(seat).copied().unwrap_or(false)
            ])?;
        }
    }
    let packed_here;
    let packed = match new.ahead {
        Some(ahead) => &ahead.packed,
        None => {
            packed_here = Packed::of(new);
            &packed_here
        }
    };
    let key = events::key_of(tx, &id)?;
    events::write_chunk(tx, key, 1, &packed.events)?;
    facts::store_batch(tx, &id, 1, &packed.facts)?;
    checkpoints::write(tx, key, 0, game.ruleset_version(), &packed.checkpoints)?;
    refresh_summary(tx, &id, game)?;
    insights::write(tx, &id, insights, change)?;
    // Another record of the same game: which of them counts is decided again (the one that saw the most).
    let shared: bool = tx
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM games WHERE fingerprint = (SELECT fingerprint FROM games WHERE id = ?1) AND id <> ?1)",
        )?
        .query_row([&id], |r| r.get(0))?;
    if shared {
        recount(tx, &id, None)?;
    }
    Ok(Inserted::New(id))
}
