//! The store on PostgreSQL, for a federation that outgrows one machine: the same tables, promises and
//! answers as the SQLite file, for any number of servers on one database. Correct under concurrency by the
//! database's own means: the content hash is UNIQUE (two servers storing one log at once yield one game),
//! a live append locks its game's row (a stale writer on another server gets `Conflict`), triggers keep
//! the log's chunks append-only and contiguous. The log, facts and checkpoints are stored packed as on
//! SQLite (`crate::packed`); other rows in bulk (`unnest` of arrays): one round trip per table per game.

use crate::error::{Result, StoreError};
use crate::ownership::{Access, Club, ClubId, ClubRow, Ownership, Repeat, TokenRow, Viewer, VisiblePlayer};
use crate::questions;
use crate::rows::{
    anywhere, player_key, GameFilter, GameRow, Identity, Inserted, NewGame, PlayerId, PlayerRow, SeatOf, Sitting,
};
use crate::rows::{Appended, CountedGame, Derivation, DueGame, Question};
use crate::rows::{Note, Recording, Sort, StoredGame, TokenRecord, WinModel};
use crate::seats::{SeatRow, Seats, Sieve, Tally};
use almanac_core::{FactKind, FactRow, Game, Insights};
use postgres::error::SqlState;
use postgres::types::ToSql;
use postgres::{Client, NoTls, Row, Statement, Transaction};
use std::cell::RefCell;
use std::collections::HashMap;

mod clubs;
mod events;
mod insights;
mod migrations;
mod notes;
mod players;
mod together;

use crate::packed::{chunks, facts as batches, packing::decompress, Packed};
use events::{recount, refresh_summary, write_appended, write_batch, write_checkpoints, write_chunk, Prepared};
use insights::write_insights;
use migrations::migrate;
#[cfg(feature = "testing")]
pub(crate) use migrations::migrate_to;

/// One connection to a PostgreSQL database (`RefCell`: the client needs `&mut` even to read, and a
/// connection is used by one thread at a time).
pub struct Postgres {
    client: RefCell<Client>,
    prepared: Prepared,
}

/// The server's own words for an error, with its SQLSTATE code (`[23505]` is a unique violation). An error
/// that says the database is away — no answer, the connection lost, the server shutting down or in
/// recovery, a statement past its time, a standby that cannot take a write — is `Unavailable`, and the
/// connection it came on is marked for replacing.
fn sql(e: postgres::Error) -> StoreError {
    if is_unavailable(&e) {
        crate::error::mark_connection_lost();
        return StoreError::Unavailable(e.to_string());
    }
    match e.as_db_error() {
        // PostgreSQL's text takes no NUL character: a parameter holding one is the asker's mistake (the
        // readers of logs and notes refuse it before; this is what is left, a search for one).
        Some(db) if db.code() == &SqlState::CHARACTER_NOT_IN_REPERTOIRE => {
            StoreError::Invalid("text with a NUL character (\\u0000) is not taken".into())
        }
        Some(db) => StoreError::Postgres(format!("{} [{}]", db.message(), db.code().code())),
        None => StoreError::Postgres(e.to_string()),
    }
}

/// Whether an error says the database (or the way to it) is away, rather than that the statement is wrong.
fn is_unavailable(e: &postgres::Error) -> bool {
    match e.as_db_error() {
        // 08: connection exceptions; 57: operator intervention (shutdown, cannot connect now, a statement
        // cancelled by its timeout); 25006: a read-only transaction (a standby, or a primary demoted by a
        // failover); 40001: a replica's replay cancelled the read.
        Some(db) => {
            let code = db.code().code();
            code.starts_with("08") || code.starts_with("57") || code == "25006" || code == "40001"
        }
        // No answer from a server: the connection is closed, broke, or timed out.
        None => {
            e.is_closed()
                || std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>())
                || e.to_string().contains("timeout")
                || e.to_string().contains("connection")
        }
    }
}

/// How long a connection may take to open, and how long a statement may run: no call waits without a
/// bound (a reader's statement; the writer's, once the schema is up to date).
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);
pub(crate) const READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);
const WRITE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// Opens a connection to `url` (one host, or several with `target_session_attrs`) with the bounds every
/// connection of Almanac keeps: a time to connect, TCP keepalives and a user timeout (a host gone from the
/// network is noticed within seconds), and `statement` as the server's statement timeout.
fn open(url: &str, statement: std::time::Duration) -> Result<Client> {
    let mut config: postgres::Config = url.parse().map_err(|e: postgres::Error| StoreError::Invalid(e.to_string()))?;
    let options = format!(
        "{} -c statement_timeout={} -c idle_in_transaction_session_timeout={}",
        config.get_options().unwrap_or(""),
        statement.as_millis(),
        WRITE_TIMEOUT.as_millis()
    );
    config
        .options(options.trim())
        .connect_timeout(CONNECT_TIMEOUT)
        .keepalives(true)
        .keepalives_idle(std::time::Duration::from_secs(5))
        .keepalives_interval(std::time::Duration::from_secs(1))
        .keepalives_retries(3)
        .tcp_user_timeout(std::time::Duration::from_secs(10));
    Ok(config.connect(NoTls)?)
}

/// SQLSTATE of a unique violation: two writers stored the same thing at once.
const UNIQUE_VIOLATION: &str = "[23505]";

impl From<postgres::Error> for StoreError {
    fn from(e: postgres::Error) -> StoreError {
        sql(e)
    }
}

/// The SQL `ORDER BY` of a list's order.
fn order_by(sort: Sort) -> &'static str {
    match sort {
        Sort::Stored => "g.stored_at DESC, g.n DESC",
        Sort::Played => "g.played_on IS NULL, g.played_on DESC, g.n DESC",
        Sort::Turns => "g.turn_count DESC, g.n DESC",
        Sort::Title => "fold(COALESCE(g.title, g.id)), g.n",
    }
}

/// The condition on `g` for the games `viewer` may see, with its two arguments numbered from `first`.
fn visible_to(viewer: Viewer, first: usize) -> (String, Option<ClubId>, bool) {
    let sql = format!("(g.deleted_at IS NULL AND (g.published OR g.owner = ${first} OR ${}))", first + 1);
    (sql, viewer.club(), viewer == Viewer::Operator)
}

/// The channel appends are announced on: `"<id> <events>"`, or `"<id> visibility"` when who may see the game
/// changed.
const APPENDS_CHANNEL: &str = "almanac_appends";

/// An append's first statement: the game's row locked (a second writer waits here and then sees the new
/// count), and the notification of the append asked for.
const LOCK_FOR_APPEND: &str =
    "SELECT event_count, owner, pg_notify($2, $3) FROM games WHERE id = $1 AND deleted_at IS NULL FOR UPDATE";

/// The statements an append runs in the usual case, prepared when a writer connects: the first append
/// on a connection is then as quick as the next.
const APPEND_STATEMENTS: [&str; 9] = [
    LOCK_FOR_APPEND,
    events::APPENDED,
    events::SUMMARY,
    events::SEATS_OF_GAME,
    events::COUNTED,
    insights::SEAT_NUMBERS,
    insights::NUMBERS_GONE,
    insights::NUMBERS_MADE,
    insights::OPENINGS,
];
const SEEN_BY_CHANGED: &str = "visibility";

impl Postgres {
    /// Connects and brings the schema up to date.
    /// Calls `heard` with each append any server commits to the database at `url` (the game's id and its
    /// events now), and each change of who may see a game (its id, and `None`), as it commits; returns only
    /// when the connection fails.
    pub fn listen_for_appends(url: &str, mut heard: impl FnMut(&str, Option<u64>)) -> Result<()> {
        let mut client = open(url, READ_TIMEOUT)?;
        client.batch_execute(&format!("LISTEN {APPENDS_CHANNEL}"))?;
        let mut notifications = client.notifications();
        let mut waiting = notifications.blocking_iter();
        while let Some(n) = postgres::fallible_iterator::FallibleIterator::next(&mut waiting)? {
            match n.payload().split_once(' ') {
                Some((id, SEEN_BY_CHANGED)) => heard(id, None),
                Some((id, seq)) => {
                    if let Ok(seq) = seq.parse() {
                        heard(id, Some(seq));
                    }
                }
                None => {}
            }
        }
        Ok(())
    }

    pub fn connect(url: &str) -> Result<Postgres> {
        // A migration may take minutes on a large database: its connection has no statement timeout until
        // the schema is up to date.
        let mut client = open(url, std::time::Duration::ZERO)?;
        migrate(&mut client)?;
        client.batch_execute(&format!("SET statement_timeout = {}", WRITE_TIMEOUT.as_millis()))?;
        Postgres::writer(client)
    }

    /// Another connection to a database already up to date: a pool's reader, or its writer again after
    /// its connection was lost.
    pub fn connect_reader(url: &str) -> Result<Postgres> {
        Ok(Postgres { client: RefCell::new(open(url, READ_TIMEOUT)?), prepared: Prepared::default() })
    }

    pub fn connect_writer(url: &str) -> Result<Postgres> {
        Postgres::writer(open(url, WRITE_TIMEOUT)?)
    }

    /// A writer on `client`, the statements of an append prepared if their tables can be read now. Preparing
    /// takes the locks a statement takes: a connection does not wait on a table another holds locked (a
    /// migration, a copy), and what is not prepared now is prepared at its first use.
    fn writer(mut client: Client) -> Result<Postgres> {
        let prepared = Prepared::default();
        client.batch_execute("SET lock_timeout = 100")?;
        for sql in APPEND_STATEMENTS {
            if prepared.statement(&mut client, sql).is_err() {
                break;
            }
        }
        client.batch_execute("RESET lock_timeout")?;
        Ok(Postgres { client: RefCell::new(client), prepared })
    }

    /// Whether the connection is known to be closed.
    pub fn is_closed(&self) -> bool {
        self.client.borrow().is_closed()
    }

    pub fn wal_position(&self) -> Result<u64> {
        let at: i64 =
            self.client.borrow_mut().query_one("SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint", &[])?.get(0);
        Ok(at as u64)
    }

    pub fn replayed_position(&self) -> Result<Option<u64>> {
        let at: Option<i64> = self
            .client
            .borrow_mut()
            .query_one("SELECT (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint", &[])?
            .get(0);
        Ok(at.map(|a| a as u64))
    }

    pub fn schema_version(&self) -> Result<u32> {
        let v: i32 =
            self.client.borrow_mut().query_one("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", &[])?.get(0);
        Ok(v as u32)
    }

    pub fn insert_game_as(&mut self, id: &str, new: &NewGame, ownership: Ownership) -> Result<Inserted> {
        let content_hash = new.content_hash;
        let mut client = self.client.borrow_mut();
        let p = &self.prepared;
        let attempt = (|| -> Result<Inserted> {
            let mut tx = client.transaction()?;
            if let Some(existing) = existing_game(&mut tx, p, content_hash, ownership)? {
                tx.commit()?;
                return existing;
            }
            let made = new.ahead.is_none().then(|| Packed::of(new));
            let game = together::GameToStore::new(id, new, ownership, &made);
            together::insert_rows(&mut tx, p, std::slice::from_ref(&game))?;
            // Another record of the same game: which of them counts is decided again (the one that saw the most).
            let shared = "SELECT 1 FROM games WHERE fingerprint = $1 AND id <> $2 LIMIT 1";
            if !events::rows(&mut tx, p, shared, &[&game.fingerprint, &id])?.is_empty() {
                recount(&mut tx, p, id, None)?;
            }
            tx.commit()?;
            Ok(Inserted::New(id.to_string()))
        })();
        match attempt {
            // Another server stored the same log between our look and our insert: it is that game.
            Err(StoreError::Postgres(ref m)) if m.ends_with(UNIQUE_VIOLATION) => {
                let mut tx = client.transaction()?;
                let found = existing_game(&mut tx, &self.prepared, content_hash, ownership)?;
                tx.commit()?;
                match found {
                    Some(existing) => existing,
                    None => Err(StoreError::IdClash(id.to_string())),
                }
            }
            other => other,
        }
    }

    pub fn stored_games(&self) -> Result<Vec<StoredGame>> {
        let rows = self.client.borrow_mut().query(
            "SELECT g.id, g.content_hash, c.name, g.published, g.deleted_at IS NOT NULL, g.event_count
             FROM games g LEFT JOIN clubs c ON c.id = g.owner ORDER BY g.stored_at, g.n",
            &[],
        )?;
        Ok(rows
            .iter()
            .map(|r| StoredGame {
                id: r.get(0),
                content_hash: r.get(1),
                owner: r.get(2),
                published: r.get(3),
                deleted: r.get(4),
                events: r.get::<_, i64>(5) as u64,
            })
            .collect())
    }

    pub fn token_records(&self) -> Result<Vec<TokenRecord>> {
        let rows = self.client.borrow_mut().query(
            "SELECT c.name, t.hash, t.label, t.revoked_at IS NOT NULL FROM tokens t JOIN clubs c ON c.id = t.club_id ORDER BY t.id",
            &[],
        )?;
        Ok(rows
            .iter()
            .map(|r| TokenRecord { club: r.get(0), hash: r.get(1), label: r.get(2), revoked: r.get(3) })
            .collect())
    }

    pub fn append_events(&mut self, club: ClubId, id: &str, expected_seq: u64, appended: Appended) -> Result<u64> {
        let Appended { game, lines: new_lines, insights } = appended;
        let mut client = self.client.borrow_mut();
        let mut tx = client.transaction()?;
        // The game's row, locked: a second writer waits here and then sees the new count.
        // Statements prepared once per connection (`Prepared`): a round trip each, where a statement given as
        // text is two.
        // Every server on this database hears of the append when it commits (`listen_for_appends`): a
        // notification is sent at commit, and not at all if the transaction rolls back, so it is asked for
        // here, in the same round trip.
        let appended = format!("{id} {}", game.event_count());
        let row = events::rows(&mut tx, &self.prepared, LOCK_FOR_APPEND, &[&id, &APPENDS_CHANNEL, &appended])?
            .into_iter()
            .next()
            .ok_or_else(|| StoreError::NotFound(id.to_string()))?;
        let (actual, owner): (i64, Option<ClubId>) = (row.get(0), row.get(1));
        if owner != Some(club) {
            return Err(StoreError::NotYours(id.to_string()));
        }
        if actual as u64 != expected_seq {
            return Err(StoreError::Conflict { game: id.to_string(), expected: expected_seq, actual: actual as u64 });
        }
        let first = game.event_count() - new_lines.len();
        assert_eq!(first as u64, expected_seq, "the game given must be the stored log plus the new lines");
        let chunk = chunks::Chunk::of(game, first, new_lines);
        let standing = almanac_core::checkpoint::standing(first);
        let kept = crate::packed::checkpoints(game.checkpoints(standing));
        let version = game.ruleset_version();
        if crate::rows::withdraws(game, first) {
            // A withdrawal takes an earlier entry's facts back: the game's facts are written again.
            write_chunk(&mut tx, &self.prepared, id, first as u64 + 1, &chunk)?;
            tx.execute("DELETE FROM fact_batches WHERE game_id = $1", &[&id])?;
            write_batch(&mut tx, &self.prepared, id, 1, &batches::Batch::of(&game.fact_rows(0)))?;
            write_checkpoints(&mut tx, &self.prepared, id, standing, version, &kept)?;
        } else {
            let facts = batches::Batch::of(&game.fact_rows(first));
            write_appended(&mut tx, &self.prepared, id, first as u64 + 1, &chunk, &facts, standing, version, &kept)?;
        }
        let old = refresh_summary(&mut tx, &self.prepared, id, game, insights.chances_model)?;
        write_insights(&mut tx, &self.prepared, id, insights)?;
        recount(&mut tx, &self.prepared, id, old.as_deref())?;
        tx.commit()?;
        Ok(game.event_count() as u64)
    }

    pub fn game(&self, id: &str) -> Result<GameRow> {
        let mut rows = self.query_games("WHERE g.id = $1", &[&id])?;
        rows.pop().ok_or_else(|| StoreError::NotFound(id.to_string()))
    }

    pub fn list_games(&self, filter: &GameFilter) -> Result<Vec<GameRow>> {
        let (visible, club, everything) = visible_to(filter.viewer, 1);
        let mut conds = vec![visible];
        let mut args: Vec<Box<dyn ToSql + Sync>> = vec![Box::new(club), Box::new(everything)];
        if let Some(r) = &filter.ruleset {
            args.push(Box::new(r.clone()));
            conds.push(format!("g.ruleset = ${}", args.len()));
        }
        if let Some(p) = &filter.player {
            args.push(Box::new(almanac_core::search_fold(p.trim())));
            conds.push(format!(
                "EXISTS (SELECT 1 FROM game_players q WHERE q.game_id = g.id AND fold(q.name) = ${})",
                args.len()
            ));
        }
        if let Some(search) = filter.search.as_deref().filter(|s| !s.trim().is_empty()) {
            args.push(Box::new(anywhere(search)));
            let n = args.len();
            conds.push(format!(
                "(fold(g.title) LIKE ${n} ESCAPE '\\' OR fold(g.club) LIKE ${n} ESCAPE '\\'
                  OR fold(g.location) LIKE ${n} ESCAPE '\\' OR fold(g.ruleset) LIKE ${n} ESCAPE '\\'
                  OR EXISTS (SELECT 1 FROM game_players q WHERE q.game_id = g.id AND fold(q.name) LIKE ${n} ESCAPE '\\'))"
            ));
        }
        let tail = format!(
            "WHERE {} ORDER BY {} LIMIT {} OFFSET {}",
            conds.join(" AND "),
            order_by(filter.sort),
            filter.limit.unwrap_or(100),
            filter.offset.unwrap_or(0)
        );
        let refs: Vec<&(dyn ToSql + Sync)> = args.iter().map(|a| a.as_ref()).collect();
        self.query_games(&tail, &refs)
    }

    fn query_games(&self, tail: &str, args: &[&(dyn ToSql + Sync)]) -> Result<Vec<GameRow>> {
        let mut client = self.client.borrow_mut();
        let sql = format!(
            "SELECT g.id, g.ruleset, g.ruleset_version, g.title, g.played_on, g.club, g.location, g.stored_at,
                    g.event_count, g.turn_count, g.winner, c.name, g.published, g.edition, g.unseen
             FROM games g LEFT JOIN clubs c ON c.id = g.owner {tail}"
        );
        let mut games: Vec<GameRow> = client
            .query(&sql, args)?
            .iter()
            .map(|r| GameRow {
                id: r.get(0),
                ruleset: r.get(1),
                ruleset_version: r.get::<_, i32>(2) as u32,
                title: r.get(3),
                played_on: r.get(4),
                club: r.get(5),
                location: r.get(6),
                stored_at: r.get(7),
                event_count: r.get::<_, i64>(8) as u64,
                turn_count: r.get::<_, i32>(9) as u32,
                winner: r.get(10),
                owner: r.get(11),
                published: r.get(12),
                edition: r.get(13),
                unseen: r.get::<_, i64>(14) as u64,
                players: Vec::new(),
            })
            .collect();
        if games.is_empty() {
            return Ok(games);
        }
        let ids: Vec<&str> = games.iter().map(|g| g.id.as_str()).collect();
        let rows = client.query(
            "SELECT q.game_id, q.seat, q.name, q.color, q.vp, q.vp_public, COALESCE(pl.merged_into, pl.id), q.bot
             FROM game_players q LEFT JOIN players pl ON pl.id = q.player_id
             WHERE q.game_id = ANY($1) ORDER BY q.game_id, q.seat",
            &[&ids],
        )?;
        for r in rows {
            let game: String = r.get(0);
            if let Some(g) = games.iter_mut().find(|g| g.id == game) {
                g.players.push(PlayerRow {
                    seat: r.get::<_, i32>(1) as u32,
                    name: r.get(2),
                    color: r.get(3),
                    vp: r.get(4),
                    vp_public: r.get(5),
                    player: r.get(6),
                    bot: r.get(7),
                });
            }
        }
        Ok(games)
    }

    /// See `Store::recordings`.
    pub fn recordings(&self, id: &str, viewer: Viewer) -> Result<(bool, Vec<Recording>)> {
        let mut client = self.client.borrow_mut();
        let counted: bool =
            client.query_one("SELECT COALESCE(bool_or(counted), FALSE) FROM seats WHERE game_id = $1", &[&id])?.get(0);
        let (visible, club, all) = visible_to(viewer, 2);
        let rows = client.query(
            &format!(
                "SELECT g.id, g.title, c.name, g.stored_at,
                        EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.counted), g.unseen, g.event_count
                 FROM games g LEFT JOIN clubs c ON c.id = g.owner
                 WHERE g.fingerprint = (SELECT fingerprint FROM games WHERE id = $1) AND g.id <> $1 AND {visible}
                 ORDER BY g.stored_at, g.n"
            ),
            &[&id, &club, &all],
        )?;
        let recordings = rows
            .iter()
            .map(|r| Recording {
                id: r.get(0),
                title: r.get(1),
                owner: r.get(2),
                stored_at: r.get(3),
                counted: r.get(4),
                unseen: r.get::<_, i64>(5) as u64,
                events: r.get::<_, i64>(6) as u64,
            })
            .collect();
        Ok((counted, recordings))
    }

    pub fn log(&self, id: &str) -> Result<(String, Vec<String>)> {
        let mut client = self.client.borrow_mut();
        let header: String = client
            .query_opt("SELECT header FROM games WHERE id = $1", &[&id])?
            .ok_or_else(|| StoreError::NotFound(id.to_string()))?
            .get(0);
        drop(client);
        let events = self.chunks(id, 1, u64::MAX)?;
        Ok((header, events.into_iter().map(|(_, _, line)| line).collect()))
    }

    /// As `Sqlite::resume_point`.
    pub fn resume_point(
        &self,
        id: &str,
        events: Option<u64>,
        version_of: &dyn Fn(&str) -> Option<u32>,
    ) -> Result<crate::ResumePoint> {
        let mut client = self.client.borrow_mut();
        let row = client
            .query_opt("SELECT ruleset, header, event_count FROM games WHERE id = $1", &[&id])?
            .ok_or_else(|| StoreError::NotFound(id.to_string()))?;
        let (ruleset, header, count): (String, String, i64) = (row.get(0), row.get(1), row.get(2));
        let n = events.map_or(count, |e| e.min(count as u64) as i64);
        let checkpoint = match version_of(&ruleset) {
            Some(version) => client
                .query_opt(
                    "SELECT events, state FROM checkpoints WHERE game_id = $1 AND events <= $2 AND version = $3
                     ORDER BY events DESC LIMIT 1",
                    &[&id, &n, &(version as i32)],
                )?
                .map(|r| -> Result<crate::Checkpoint> {
                    let state = decompress(r.get(1), "a checkpoint")
                        .map_err(|e| StoreError::Invalid(format!("game {id}: {e}")))?;
                    Ok(crate::Checkpoint { events: r.get::<_, i64>(0) as u64, state })
                })
                .transpose()?,
            None => None,
        };
        drop(client);
        let from = checkpoint.as_ref().map_or(0, |c| c.events);
        let lines = if n as u64 > from {
            self.chunks(id, from + 1, n as u64)?.into_iter().map(|(_, _, line)| line).collect()
        } else {
            Vec::new()
        };
        Ok(crate::ResumePoint { ruleset, header, events: n as u64, checkpoint, lines })
    }

    /// The bytes of every stored checkpoint.
    pub fn checkpoint_bytes(&self) -> Result<u64> {
        let row = self
            .client
            .borrow_mut()
            .query_one("SELECT COALESCE(SUM(octet_length(state)), 0)::bigint FROM checkpoints", &[])?;
        Ok(row.get::<_, i64>(0) as u64)
    }

    pub fn events(&self, id: &str, from: u64, to: u64) -> Result<Vec<(u64, u32, String)>> {
        self.game(id)?;
        self.chunks(id, from, to)
    }

    /// Events `from ..= to` of game `id` as (seq, turn, line), from the chunks that hold them.
    fn chunks(&self, id: &str, from: u64, to: u64) -> Result<Vec<(u64, u32, String)>> {
        let (low, high) = (from.min(i64::MAX as u64) as i64, to.min(i64::MAX as u64) as i64);
        let rows = self.client.borrow_mut().query(
            "SELECT first_seq, last_seq, turns, lines, text_bytes FROM event_chunks
             WHERE game_id = $1 AND last_seq >= $2 AND first_seq <= $3 ORDER BY first_seq",
            &[&id, &low, &high],
        )?;
        let mut events = Vec::new();
        for r in rows {
            let (first, last) = (r.get::<_, i64>(0) as u64, r.get::<_, i64>(1) as u64);
            let chunk = chunks::unpack(first, last, r.get(2), r.get(3), r.get::<_, i64>(4) as u64, from..=to)
                .map_err(|e| StoreError::Invalid(format!("game {id}, events {first}–{last}: {e}")))?;
            events.extend(chunk);
        }
        Ok(events)
    }

    pub fn facts(&self, id: &str) -> Result<Vec<FactRow>> {
        self.game(id)?;
        let rows = self
            .client
            .borrow_mut()
            .query("SELECT packed FROM fact_batches WHERE game_id = $1 ORDER BY first_seq", &[&id])?;
        let mut facts = Vec::new();
        for r in rows {
            batches::read_batch(r.get(0), &mut facts).map_err(|e| StoreError::Invalid(format!("game {id}: {e}")))?;
        }
        Ok(facts)
    }

    pub fn resolve(&self, viewer: Viewer, id_or_prefix: &str) -> Result<String> {
        let (visible, club, everything) = visible_to(viewer, 2);
        // The whole id first, by the primary key; a prefix is looked for only when no id is the whole of it.
        let exact = self.client.borrow_mut().query(
            &format!("SELECT id FROM games g WHERE id = $1 AND {visible}"),
            &[&id_or_prefix, &club, &everything],
        )?;
        if let Some(row) = exact.first() {
            return Ok(row.get(0));
        }
        let pattern = format!("{}%", id_or_prefix.replace(['%', '_', '\\'], ""));
        let rows = self.client.borrow_mut().query(
            &format!("SELECT id FROM games g WHERE id LIKE $1 AND {visible} LIMIT 2"),
            &[&pattern, &club, &everything],
        )?;
        match rows.as_slice() {
            [one] => Ok(one.get(0)),
            _ => Err(StoreError::NotFound(id_or_prefix.to_string())),
        }
    }

    pub fn fact_count(&self) -> Result<u64> {
        Ok(self
            .client
            .borrow_mut()
            .query_one("SELECT COALESCE(SUM(facts), 0)::bigint FROM fact_batches", &[])?
            .get::<_, i64>(0) as u64)
    }

    pub fn log_bytes(&self) -> Result<u64> {
        let bytes: i64 = self
            .client
            .borrow_mut()
            .query_one(
                "SELECT ((SELECT COALESCE(SUM(octet_length(header) + 1), 0) FROM games)
                       + (SELECT COALESCE(SUM(text_bytes), 0) FROM event_chunks))::bigint",
                &[],
            )?
            .get(0);
        Ok(bytes as u64)
    }

    pub fn games_to_reproject(&self, ruleset: Option<&str>, current: Option<u32>) -> Result<Vec<DueGame>> {
        let current = current.map(|c| c as i32);
        let rows = self.client.borrow_mut().query(
            "SELECT id, ruleset, numbers_older FROM (
                 SELECT id, ruleset, stored_at, n, event_count,
                        ($2::int IS NULL OR ruleset_version <> $2 OR insights_version <> $3 OR fingerprint IS NULL
                         OR (winner IS NOT NULL AND chances_model IS DISTINCT FROM
                            (SELECT MAX(w.id) FROM win_models w WHERE w.ruleset = games.ruleset))) AS numbers_older
                 FROM games WHERE $1::text IS NULL OR ruleset = $1) AS g
             WHERE numbers_older
                OR (event_count > 0 AND NOT EXISTS (SELECT 1 FROM checkpoints c WHERE c.game_id = g.id))
             ORDER BY stored_at, n",
            &[&ruleset, &current, &(almanac_core::insights::VERSION as i32)],
        )?;
        Ok(rows.iter().map(|r| DueGame { id: r.get(0), ruleset: r.get(1), numbers_older: r.get(2) }).collect())
    }

    pub fn reproject(&mut self, d: &Derivation) -> Result<()> {
        let Derivation { id, game, facts, insights } = *d;
        let mut client = self.client.borrow_mut();
        let mut tx = client.transaction()?;
        let stored: i64 = tx
            .query_opt("SELECT event_count FROM games WHERE id = $1 FOR UPDATE", &[&id])?
            .ok_or_else(|| StoreError::NotFound(id.to_string()))?
            .get(0);
        if stored as u64 != game.event_count() as u64 {
            return Err(StoreError::Conflict {
                game: id.to_string(),
                expected: stored as u64,
                actual: game.event_count() as u64,
            });
        }
        tx.execute("DELETE FROM fact_batches WHERE game_id = $1", &[&id])?;
        write_batch(&mut tx, &self.prepared, id, 1, &batches::Batch::of(facts))?;
        tx.execute("UPDATE games SET ruleset_version = $2 WHERE id = $1", &[&id, &(game.ruleset_version() as i32)])?;
        let kept = crate::packed::checkpoints(game.checkpoints(0));
        write_checkpoints(&mut tx, &self.prepared, id, 0, game.ruleset_version(), &kept)?;
        let old = refresh_summary(&mut tx, &self.prepared, id, game, insights.chances_model)?;
        write_insights(&mut tx, &self.prepared, id, insights)?;
        recount(&mut tx, &self.prepared, id, old.as_deref())?;
        tx.commit()?;
        Ok(())
    }
}

/// The game already stored with this content hash, as `insert_game` answers for it (`Repeat`).
fn existing_game(
    tx: &mut Transaction,
    p: &Prepared,
    content_hash: &str,
    ownership: Ownership,
) -> Result<Option<Result<Inserted>>> {
    let found = events::rows(
        tx,
        p,
        "SELECT id, owner, published, deleted_at IS NOT NULL FROM games WHERE content_hash = $1 FOR UPDATE",
        &[&content_hash],
    )?;
    let Some(r) = found.first() else {
        return Ok(None);
    };
    let (existing, owner, published, deleted): (String, Option<ClubId>, bool, bool) =
        (r.get(0), r.get(1), r.get(2), r.get(3));
    match Repeat::of(owner, published, deleted, ownership) {
        Repeat::Unhide => {
            tx.execute("UPDATE games SET deleted_at = NULL WHERE id = $1", &[&existing])?;
            recount(tx, p, &existing, None)?;
        }
        Repeat::Same => {}
        Repeat::TakenElsewhere => return Ok(Some(Err(StoreError::TakenElsewhere(existing)))),
    }
    Ok(Some(Ok(Inserted::Existing(existing))))
}
