//! The store on PostgreSQL, for a federation that outgrows one machine: the same tables, promises and
//! answers as the SQLite file, for any number of servers on one database. Correct under concurrency by the
//! database's own means: the content hash is UNIQUE (two servers storing one log at once yield one game),
//! a live append locks its game's row (a stale writer on another server gets `Conflict`), triggers keep
//! events append-only and contiguous. Rows are written in bulk (`unnest` of arrays): one round trip per
//! table per game.

use crate::error::{Result, StoreError};
use crate::ownership::{Access, Club, ClubId, ClubRow, Ownership, Repeat, TokenRow, Viewer, VisiblePlayer};
use crate::questions;
use crate::rows::{
    anywhere, player_key, GameFilter, GameRow, Identity, Inserted, NewGame, PlayerId, PlayerRow, SeatOf, Sitting,
};
use crate::rows::{CountedGame, Derivation, Question};
use crate::rows::{Note, Sort, StoredGame, TokenRecord};
use crate::seats::{SeatRow, Seats, Sieve, Tally};
use almanac_core::{FactKind, FactRow, Game, Insights};
use postgres::error::SqlState;
use postgres::types::ToSql;
use postgres::{Client, NoTls, Row, Statement, Transaction};
use std::cell::RefCell;
use std::collections::HashMap;

/// Numbered migrations of the PostgreSQL schema, applied in order, once.
const MIGRATIONS: &[(u32, &str)] = &[
    (1, include_str!("../../migrations-postgres/001_schema.sql")),
    (2, include_str!("../../migrations-postgres/002_players.sql")),
    (3, include_str!("../../migrations-postgres/003_notes.sql")),
    (4, include_str!("../../migrations-postgres/004_insights.sql")),
    (5, include_str!("../../migrations-postgres/005_seat_revisions.sql")),
    (6, include_str!("../../migrations-postgres/006_promises_and_player_ids.sql")),
];

/// Which of its numbered advisory locks a migration takes, so that servers starting together migrate once.
const MIGRATION_LOCK: i64 = 0x0061_6c6d_616e_6163;

/// One connection to a PostgreSQL database (`RefCell`: the client needs `&mut` even to read, and a
/// connection is used by one thread at a time).
pub struct Postgres {
    client: RefCell<Client>,
    prepared: Prepared,
}

/// The server's own words for an error, with its SQLSTATE code (`[23505]` is a unique violation).
fn sql(e: postgres::Error) -> StoreError {
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

impl Postgres {
    /// Connects and brings the schema up to date.
    pub fn connect(url: &str) -> Result<Postgres> {
        let mut client = Client::connect(url, NoTls)?;
        migrate(&mut client)?;
        Ok(Postgres { client: RefCell::new(client), prepared: Prepared::default() })
    }

    /// Another connection to a database already up to date (a pool's reader).
    pub fn connect_reader(url: &str) -> Result<Postgres> {
        Ok(Postgres { client: RefCell::new(Client::connect(url, NoTls)?), prepared: Prepared::default() })
    }

    pub fn schema_version(&self) -> Result<u32> {
        let v: i32 =
            self.client.borrow_mut().query_one("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", &[])?.get(0);
        Ok(v as u32)
    }

    pub fn insert_game_as(&mut self, id: &str, new: &NewGame, ownership: Ownership) -> Result<Inserted> {
        let NewGame { game, header_line, event_lines, content_hash, facts, insights, .. } = *new;
        let mut client = self.client.borrow_mut();
        let attempt = (|| -> Result<Inserted> {
            let mut tx = client.transaction()?;
            if let Some(existing) = existing_game(&mut tx, content_hash, ownership)? {
                tx.commit()?;
                return existing;
            }
            let env = game.envelope();
            tx.execute(
                "INSERT INTO games (id, content_hash, ruleset, ruleset_version, header, title, played_on, club, location,
                                    event_count, turn_count, owner, published)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, 0, $10, $11)",
                &[
                    &id,
                    &content_hash,
                    &game.ruleset(),
                    &(game.ruleset_version() as i32),
                    &header_line,
                    &env.title,
                    &env.date,
                    &env.club,
                    &env.location,
                    &ownership.club,
                    &(ownership.published || ownership.club.is_none()),
                ],
            )?;
            let seats: Vec<i32> = (0..env.players.len() as i32).collect();
            let names: Vec<&str> = env.players.iter().map(|p| p.name.as_str()).collect();
            let colors: Vec<Option<&str>> = env.players.iter().map(|p| p.color.as_deref()).collect();
            let club = ownership.club.unwrap_or(0);
            let keys: Vec<String> = names.iter().map(|n| player_key(n)).collect();
            tx.execute(
                "INSERT INTO players (club, name, key) SELECT $1, name, key FROM unnest($2::text[], $3::text[]) AS p(name, key)
                 ON CONFLICT (club, key) DO NOTHING",
                &[&club, &names, &keys],
            )?;
            tx.execute(
                "INSERT INTO game_players (game_id, seat, name, color, player_id)
                 SELECT $1, p.seat, p.name, p.color, pl.id
                 FROM unnest($2::int[], $3::text[], $4::text[], $5::text[]) AS p(seat, name, color, key)
                 JOIN players pl ON pl.club = $6 AND pl.key = p.key",
                &[&id, &seats, &names, &colors, &keys, &club],
            )?;
            write_events(&mut tx, &self.prepared, id, game, 0, event_lines, facts)?;
            refresh_summary(&mut tx, &self.prepared, id, game)?;
            write_insights(&mut tx, &self.prepared, id, insights)?;
            tx.commit()?;
            Ok(Inserted::New(id.to_string()))
        })();
        match attempt {
            // Another server stored the same log between our look and our insert: it is that game.
            Err(StoreError::Postgres(ref m)) if m.ends_with(UNIQUE_VIOLATION) => {
                let mut tx = client.transaction()?;
                let found = existing_game(&mut tx, content_hash, ownership)?;
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

    pub fn append_events(
        &mut self,
        club: ClubId,
        id: &str,
        expected_seq: u64,
        game: &dyn Game,
        new_lines: &[String],
        insights: &Insights,
    ) -> Result<u64> {
        let mut client = self.client.borrow_mut();
        let mut tx = client.transaction()?;
        // The game's row, locked: a second writer waits here and then sees the new count.
        let row = tx
            .query_opt("SELECT event_count, owner FROM games WHERE id = $1 AND deleted_at IS NULL FOR UPDATE", &[&id])?
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
        let lines: Vec<&str> = new_lines.iter().map(String::as_str).collect();
        write_events(&mut tx, &self.prepared, id, game, first, &lines, &game.fact_rows(first))?;
        refresh_summary(&mut tx, &self.prepared, id, game)?;
        write_insights(&mut tx, &self.prepared, id, insights)?;
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
            args.push(Box::new(p.trim().to_lowercase()));
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
                    g.event_count, g.turn_count, g.winner, c.name, g.published, g.edition
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
                players: Vec::new(),
            })
            .collect();
        if games.is_empty() {
            return Ok(games);
        }
        let ids: Vec<&str> = games.iter().map(|g| g.id.as_str()).collect();
        let rows = client.query(
            "SELECT q.game_id, q.seat, q.name, q.color, q.vp, q.vp_public, COALESCE(pl.merged_into, pl.id)
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
                });
            }
        }
        Ok(games)
    }

    pub fn log(&self, id: &str) -> Result<(String, Vec<String>)> {
        let mut client = self.client.borrow_mut();
        let header: String = client
            .query_opt("SELECT header FROM games WHERE id = $1", &[&id])?
            .ok_or_else(|| StoreError::NotFound(id.to_string()))?
            .get(0);
        let events = client.query("SELECT body FROM events WHERE game_id = $1 ORDER BY seq", &[&id])?;
        Ok((header, events.iter().map(|r| r.get(0)).collect()))
    }

    pub fn events(&self, id: &str, from: u64, to: u64) -> Result<Vec<(u64, u32, String)>> {
        self.game(id)?;
        let (from, to) = (from.min(i64::MAX as u64) as i64, to.min(i64::MAX as u64) as i64);
        let rows = self.client.borrow_mut().query(
            "SELECT seq, turn, body FROM events WHERE game_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq",
            &[&id, &from, &to],
        )?;
        Ok(rows.iter().map(|r| (r.get::<_, i64>(0) as u64, r.get::<_, i32>(1) as u32, r.get(2))).collect())
    }

    pub fn facts(&self, id: &str) -> Result<Vec<FactRow>> {
        self.game(id)?;
        let rows = self.client.borrow_mut().query(
            "SELECT seq, turn, kind, player, item, count, cause, other, total, public, detail
             FROM facts WHERE game_id = $1 ORDER BY seq, n",
            &[&id],
        )?;
        rows.iter().map(fact_row).collect()
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
        Ok(self.client.borrow_mut().query_one("SELECT COUNT(*) FROM facts", &[])?.get::<_, i64>(0) as u64)
    }

    pub fn log_bytes(&self) -> Result<u64> {
        let bytes: i64 = self
            .client
            .borrow_mut()
            .query_one(
                "SELECT ((SELECT COALESCE(SUM(octet_length(header) + 1), 0) FROM games)
                       + (SELECT COALESCE(SUM(octet_length(body) + 1), 0) FROM events))::bigint",
                &[],
            )?
            .get(0);
        Ok(bytes as u64)
    }

    pub fn games_to_reproject(&self, ruleset: Option<&str>, current: Option<u32>) -> Result<Vec<(String, String)>> {
        let current = current.map(|c| c as i32);
        let rows = self.client.borrow_mut().query(
            "SELECT id, ruleset FROM games
             WHERE ($1::text IS NULL OR ruleset = $1)
               AND ($2::int IS NULL OR ruleset_version <> $2 OR insights_version <> $3)
             ORDER BY stored_at, n",
            &[&ruleset, &current, &(almanac_core::insights::VERSION as i32)],
        )?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
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
        tx.execute("DELETE FROM facts WHERE game_id = $1", &[&id])?;
        write_facts(&mut tx, &self.prepared, id, facts)?;
        tx.execute("UPDATE games SET ruleset_version = $2 WHERE id = $1", &[&id, &(game.ruleset_version() as i32)])?;
        refresh_summary(&mut tx, &self.prepared, id, game)?;
        write_insights(&mut tx, &self.prepared, id, insights)?;
        tx.commit()?;
        Ok(())
    }

    pub fn insert_club(&mut self, name: &str) -> Result<Club> {
        let id: i64 =
            self.client.borrow_mut().query_one("INSERT INTO clubs (name) VALUES ($1) RETURNING id", &[&name])?.get(0);
        Ok(Club { id, name: name.to_string() })
    }

    pub fn club_by_name(&self, name: &str) -> Result<Club> {
        let row = self.client.borrow_mut().query_opt("SELECT id, name FROM clubs WHERE name = $1", &[&name])?;
        row.map(|r| Club { id: r.get(0), name: r.get(1) }).ok_or_else(|| StoreError::NotFound(format!("club {name}")))
    }

    pub fn clubs(&self) -> Result<Vec<ClubRow>> {
        let rows = self.client.borrow_mut().query(
            "SELECT c.id, c.name, c.created_at,
                    (SELECT COUNT(*) FROM games g WHERE g.owner = c.id AND g.deleted_at IS NULL),
                    (SELECT COUNT(*) FROM tokens t WHERE t.club_id = c.id AND t.revoked_at IS NULL)
             FROM clubs c ORDER BY c.name",
            &[],
        )?;
        Ok(rows
            .iter()
            .map(|r| ClubRow {
                id: r.get(0),
                name: r.get(1),
                created_at: r.get(2),
                games: r.get::<_, i64>(3) as u64,
                tokens: r.get::<_, i64>(4) as u64,
            })
            .collect())
    }

    pub fn add_token(&mut self, club: ClubId, hash: &str, label: &str) -> Result<i64> {
        let row = self.client.borrow_mut().query_one(
            "INSERT INTO tokens (club_id, hash, label) VALUES ($1, $2, $3) RETURNING id",
            &[&club, &hash, &label],
        )?;
        Ok(row.get(0))
    }

    pub fn tokens(&self, club: Option<ClubId>) -> Result<Vec<TokenRow>> {
        let rows = self.client.borrow_mut().query(
            "SELECT t.id, c.name, t.label, t.created_at, t.revoked_at FROM tokens t JOIN clubs c ON c.id = t.club_id
             WHERE $1::bigint IS NULL OR t.club_id = $1 ORDER BY t.id",
            &[&club],
        )?;
        Ok(rows
            .iter()
            .map(|r| TokenRow {
                id: r.get(0),
                club: r.get(1),
                label: r.get(2),
                created_at: r.get(3),
                revoked_at: r.get(4),
            })
            .collect())
    }

    pub fn revoke_token(&mut self, id: i64) -> Result<()> {
        let found = self.client.borrow_mut().execute(
            "UPDATE tokens SET revoked_at = COALESCE(revoked_at, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))
             WHERE id = $1",
            &[&id],
        )?;
        if found == 0 {
            return Err(StoreError::NotFound(format!("token {id}")));
        }
        Ok(())
    }

    pub fn revoke_tokens_labelled(&mut self, club: ClubId, label: &str) -> Result<usize> {
        let n = self.client.borrow_mut().execute(
            "UPDATE tokens SET revoked_at = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')
             WHERE club_id = $1 AND label = $2 AND revoked_at IS NULL",
            &[&club, &label],
        )?;
        Ok(n as usize)
    }

    pub fn club_of_token(&self, hash: &str) -> Result<Option<Club>> {
        let row = self.client.borrow_mut().query_opt(
            "SELECT c.id, c.name FROM tokens t JOIN clubs c ON c.id = t.club_id WHERE t.hash = $1 AND t.revoked_at IS NULL",
            &[&hash],
        )?;
        Ok(row.map(|r| Club { id: r.get(0), name: r.get(1) }))
    }

    pub fn access_of(&self, id: &str) -> Result<Access> {
        let row = self.client.borrow_mut().query_opt(
            "SELECT id, owner, published, deleted_at IS NOT NULL, event_count FROM games WHERE id = $1",
            &[&id],
        )?;
        row.map(|r| Access {
            id: r.get(0),
            owner: r.get(1),
            published: r.get(2),
            deleted: r.get(3),
            events: r.get::<_, i64>(4) as u64,
            sealed: crate::ownership::Sealed,
        })
        .ok_or_else(|| StoreError::NotFound(id.to_string()))
    }

    pub fn set_published(&mut self, id: &str, published: bool) -> Result<()> {
        self.client.borrow_mut().execute("UPDATE games SET published = $2 WHERE id = $1", &[&id, &published])?;
        Ok(())
    }

    pub fn hide(&mut self, id: &str) -> Result<()> {
        self.client.borrow_mut().execute(
            "UPDATE games SET deleted_at = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')
             WHERE id = $1 AND deleted_at IS NULL",
            &[&id],
        )?;
        Ok(())
    }
}

/// The game already stored with this content hash, as `insert_game` answers for it (`Repeat`).
fn existing_game(tx: &mut Transaction, content_hash: &str, ownership: Ownership) -> Result<Option<Result<Inserted>>> {
    let Some(r) = tx.query_opt(
        "SELECT id, owner, published, deleted_at IS NOT NULL FROM games WHERE content_hash = $1 FOR UPDATE",
        &[&content_hash],
    )?
    else {
        return Ok(None);
    };
    let (existing, owner, published, deleted): (String, Option<ClubId>, bool, bool) =
        (r.get(0), r.get(1), r.get(2), r.get(3));
    match Repeat::of(owner, published, deleted, ownership) {
        Repeat::Unhide => {
            tx.execute("UPDATE games SET deleted_at = NULL WHERE id = $1", &[&existing])?;
        }
        Repeat::Same => {}
        Repeat::TakenElsewhere => return Ok(Some(Err(StoreError::TakenElsewhere(existing)))),
    }
    Ok(Some(Ok(Inserted::Existing(existing))))
}

/// Events `first..` of `game` as rows, with their facts: one statement for each table.
/// Statements prepared once per connection, by their text: a statement sent as text is parsed and planned
/// at every call, a round trip more each time (an append runs a dozen).
#[derive(Default)]
struct Prepared(RefCell<HashMap<&'static str, Statement>>);

impl Prepared {
    fn statement(&self, tx: &mut Transaction, sql: &'static str) -> Result<Statement> {
        if let Some(statement) = self.0.borrow().get(sql) {
            return Ok(statement.clone());
        }
        let statement = tx.prepare(sql)?;
        self.0.borrow_mut().insert(sql, statement.clone());
        Ok(statement)
    }
}

/// Runs `sql`, prepared once, in `tx`: the rows it changed.
fn run(tx: &mut Transaction, p: &Prepared, sql: &'static str, params: &[&(dyn ToSql + Sync)]) -> Result<u64> {
    let statement = p.statement(tx, sql)?;
    Ok(tx.execute(&statement, params)?)
}

/// Queries `sql`, prepared once, in `tx`.
fn rows(tx: &mut Transaction, p: &Prepared, sql: &'static str, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<Row>> {
    let statement = p.statement(tx, sql)?;
    Ok(tx.query(&statement, params)?)
}

fn write_events(
    tx: &mut Transaction,
    p: &Prepared,
    id: &str,
    game: &dyn Game,
    first: usize,
    lines: &[&str],
    facts: &[FactRow],
) -> Result<()> {
    let seqs: Vec<i64> = (0..lines.len()).map(|k| (first + k) as i64 + 1).collect();
    let turns: Vec<i32> = (0..lines.len()).map(|k| game.event_turn(first + k) as i32).collect();
    run(
        tx,
        p,
        "INSERT INTO events (game_id, seq, turn, body)
         SELECT $1, seq, turn, body FROM unnest($2::bigint[], $3::int[], $4::text[]) AS e(seq, turn, body) ORDER BY seq",
        &[&id, &seqs, &turns, &lines],
    )?;
    write_facts(tx, p, id, facts)
}

/// The facts of events `first..` of `game`, in one statement.
fn write_facts(tx: &mut Transaction, p: &Prepared, id: &str, facts: &[FactRow]) -> Result<()> {
    // Each fact's place in its event, counted along the rows.
    let mut rows: Vec<(&FactRow, i32)> = Vec::with_capacity(facts.len());
    for (k, f) in facts.iter().enumerate() {
        let n = match k.checked_sub(1).map(|p| &facts[p]) {
            Some(prev) if prev.seq == f.seq => rows[k - 1].1 + 1,
            _ => 0,
        };
        rows.push((f, n));
    }
    let column = |f: &dyn Fn(&FactRow) -> Option<i64>| -> Vec<Option<i64>> { rows.iter().map(|(r, _)| f(r)).collect() };
    let text =
        |f: &dyn Fn(&FactRow) -> Option<String>| -> Vec<Option<String>> { rows.iter().map(|(r, _)| f(r)).collect() };
    let seq = column(&|r| Some(r.seq as i64));
    let n: Vec<i32> = rows.iter().map(|(_, n)| *n).collect();
    let turn: Vec<i32> = rows.iter().map(|(r, _)| r.turn as i32).collect();
    let kind: Vec<&str> = rows.iter().map(|(r, _)| r.kind.as_str()).collect();
    let player = column(&|r| r.player.map(i64::from));
    let item = text(&|r| r.item.clone());
    let count = column(&|r| r.count);
    let cause = text(&|r| r.cause.clone());
    let other = column(&|r| r.other.map(i64::from));
    let total = column(&|r| r.total);
    let public = column(&|r| r.public);
    let detail = text(&|r| r.detail.clone());
    run(
        tx,
        p,
        "INSERT INTO facts (game_id, seq, n, turn, kind, player, item, count, cause, other, total, public, detail)
         SELECT $1, * FROM unnest($2::bigint[], $3::int[], $4::int[], $5::text[], $6::bigint[], $7::text[], $8::bigint[],
                                  $9::text[], $10::bigint[], $11::bigint[], $12::bigint[], $13::text[])",
        &[&id, &seq, &n, &turn, &kind, &player, &item, &count, &cause, &other, &total, &public, &detail],
    )?;
    Ok(())
}

/// Refreshes the derived columns of a game (counts, winner, edition, final scores) from its final state.
fn refresh_summary(tx: &mut Transaction, p: &Prepared, id: &str, game: &dyn Game) -> Result<()> {
    let view = game.view_after(usize::MAX);
    run(
        tx,
        p,
        "UPDATE games SET event_count = $2, turn_count = $3, winner = $4, edition = $5 WHERE id = $1",
        &[&id, &(game.event_count() as i64), &(game.current_turn() as i32), &view.winner, &game.edition()],
    )?;
    let seats: Vec<i32> = (0..view.players.len() as i32).collect();
    let vp: Vec<i64> = view.players.iter().map(|p| p.vp as i64).collect();
    let public: Vec<i64> = view.players.iter().map(|p| p.vp_public as i64).collect();
    run(
        tx,
        p,
        "UPDATE game_players p SET vp = u.vp, vp_public = u.vp_public
         FROM unnest($2::int[], $3::bigint[], $4::bigint[]) AS u(seat, vp, vp_public)
         WHERE p.game_id = $1 AND p.seat = u.seat",
        &[&id, &seats, &vp, &public],
    )?;
    Ok(())
}

/// Replaces game `id`'s read model for questions by `insights`: its seats (made once, from the game's row and
/// players) and their numbers, one statement per table.
fn write_insights(tx: &mut Transaction, p: &Prepared, id: &str, insights: &Insights) -> Result<()> {
    run(tx, p, questions::INSERT_SEATS, &[&id])?;
    // Only the numbers that changed are rewritten: an append changes a few of a game's hundreds, and each
    // row written or removed also moves the field's sums (the triggers above).
    let stored: HashMap<(i32, String, String), f64> = rows(
        tx,
        p,
        "SELECT s.seat, m.metric, m.arg, m.value FROM seat_metrics m JOIN seats s ON s.key = m.seat_key
             WHERE s.game_id = $1",
        &[&id],
    )?
    .iter()
    .map(|r| ((r.get(0), r.get(1), r.get(2)), r.get(3)))
    .collect();
    let new: HashMap<(i32, &str, &str), f64> =
        insights.metrics.iter().map(|m| ((m.seat as i32, m.metric, m.arg.as_str()), m.value)).collect();
    let (mut gone_seat, mut gone_metric, mut gone_arg) = (Vec::new(), Vec::new(), Vec::new());
    for ((seat, metric, arg), value) in &stored {
        if new.get(&(*seat, metric.as_str(), arg.as_str())) != Some(value) {
            gone_seat.push(*seat);
            gone_metric.push(metric.as_str());
            gone_arg.push(arg.as_str());
        }
    }
    run(
        tx,
        p,
        "DELETE FROM seat_metrics m USING seats s, unnest($2::int[], $3::text[], $4::text[]) AS g(seat, metric, arg)
         WHERE s.game_id = $1 AND s.seat = g.seat AND m.seat_key = s.key AND m.metric = g.metric AND m.arg = g.arg",
        &[&id, &gone_seat, &gone_metric, &gone_arg],
    )?;
    let changed: Vec<_> = insights
        .metrics
        .iter()
        .filter(|m| stored.get(&(m.seat as i32, m.metric.to_string(), m.arg.clone())) != Some(&m.value))
        .collect();
    let metric: Vec<&str> = changed.iter().map(|m| m.metric).collect();
    let arg: Vec<&str> = changed.iter().map(|m| m.arg.as_str()).collect();
    let seat: Vec<i32> = changed.iter().map(|m| m.seat as i32).collect();
    let value: Vec<f64> = changed.iter().map(|m| m.value).collect();
    run(
        tx,
        p,
        "INSERT INTO seat_metrics (metric, arg, seat_key, value)
         SELECT m.metric, m.arg, s.key, m.value
         FROM unnest($2::text[], $3::text[], $4::int[], $5::float8[]) AS m(metric, arg, seat, value)
         JOIN seats s ON s.game_id = $1 AND s.seat = m.seat
         ORDER BY m.metric, m.arg",
        &[&id, &metric, &arg, &seat, &value],
    )?;
    // Every seat is written (its opening, or none), which also revises it: what was kept from the game's
    // seats, ratings among it, is known to be stale.
    let seats: Vec<i32> = (0..insights.openings.len() as i32).collect();
    run(
        tx,
        p,
        "UPDATE seats s SET opening = u.opening
         FROM (SELECT s2.seat, o.opening FROM seats s2
               LEFT JOIN unnest($2::int[], $3::text[]) AS o(seat, opening) ON o.seat = s2.seat
               WHERE s2.game_id = $1) AS u
         WHERE s.game_id = $1 AND s.seat = u.seat",
        &[&id, &seats, &insights.openings],
    )?;
    run(
        tx,
        p,
        "UPDATE games SET insights_version = $2 WHERE id = $1",
        &[&id, &(almanac_core::insights::VERSION as i32)],
    )?;
    Ok(())
}

fn fact_row(r: &Row) -> Result<FactRow> {
    let kind: &str = r.get(2);
    let kind = FactKind::named(kind)
        .ok_or_else(|| StoreError::Invalid(format!("a stored fact of no known kind, `{kind}`")))?;
    Ok(FactRow {
        seq: r.get::<_, i64>(0) as u64,
        turn: r.get::<_, i32>(1) as u32,
        kind,
        player: r.get::<_, Option<i64>>(3).map(|p| p as u32),
        item: r.get(4),
        count: r.get(5),
        cause: r.get(6),
        other: r.get::<_, Option<i64>>(7).map(|o| o as u32),
        total: r.get(8),
        public: r.get(9),
        detail: r.get(10),
    })
}

/// Players across games: the same questions as the SQLite file's.
impl Postgres {
    pub fn player_root(&self, id: PlayerId) -> Result<Option<(PlayerId, ClubId)>> {
        let row = self.client.borrow_mut().query_opt(
            "SELECT r.id, r.club FROM players p JOIN players r ON r.id = COALESCE(p.merged_into, p.id) WHERE p.id = $1",
            &[&id],
        )?;
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }

    pub fn player_seen_by(&self, root: PlayerId, viewer: Viewer) -> Result<bool> {
        let (visible, club, all) = visible_to(viewer, 2);
        let sql = format!(
            "SELECT 1 FROM players p JOIN game_players q ON q.player_id = p.id JOIN games g ON g.id = q.game_id
             WHERE (p.id = $1 OR p.merged_into = $1) AND {visible} LIMIT 1"
        );
        Ok(self.client.borrow_mut().query_opt(&sql, &[&root, &club, &all])?.is_some())
    }

    /// The spellings of `root` that `viewer` may see, the identity's own first (as on SQLite).
    pub fn spellings_seen(&self, root: PlayerId, viewer: Viewer, limit: u32) -> Result<Vec<String>> {
        let (visible, club, all) = visible_to(viewer, 2);
        let sql = format!(
            "SELECT p.name FROM players p
             WHERE (p.id = $1 OR p.merged_into = $1)
               AND EXISTS (SELECT 1 FROM game_players q JOIN games g ON g.id = q.game_id
                           WHERE q.player_id = p.id AND {visible})
             ORDER BY p.id <> $1, fold(p.name), p.name LIMIT $4"
        );
        let rows = self.client.borrow_mut().query(&sql, &[&root, &club, &all, &i64::from(limit)])?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub fn identity(&self, player: &VisiblePlayer) -> Result<Identity> {
        let spellings = self.spellings_seen(player.id(), player.viewer(), u32::MAX)?;
        let name = spellings.first().cloned().ok_or(StoreError::NoPlayer(player.id()))?;
        let club = match player.club() {
            None => None,
            Some(c) => {
                self.client.borrow_mut().query_opt("SELECT name FROM clubs WHERE id = $1", &[&c])?.map(|r| r.get(0))
            }
        };
        Ok(Identity { id: player.id(), club, name, spellings })
    }

    pub fn player_named(&self, club: ClubId, name: &str) -> Result<Option<PlayerId>> {
        let row = self.client.borrow_mut().query_opt(
            "SELECT COALESCE(merged_into, id) FROM players WHERE club = $1 AND key = $2",
            &[&club, &player_key(name)],
        )?;
        Ok(row.map(|r| r.get(0)))
    }

    pub fn sittings(&self, root: PlayerId) -> Result<Vec<Sitting>> {
        self.sittings_where(
            // The player's spellings first, then their seats by index (not every seat's spelling).
            "g.id IN (SELECT p.game_id FROM game_players p
                      WHERE p.player_id IN (SELECT id FROM players WHERE id = $1 OR merged_into = $1))",
            &root,
        )
    }

    fn sittings_where(&self, condition: &str, arg: &(dyn ToSql + Sync)) -> Result<Vec<Sitting>> {
        let rows = self.client.borrow_mut().query(
            &format!(
                "SELECT g.id, g.ruleset, g.title, g.played_on, g.winner, q.seat, COALESCE(pl.merged_into, pl.id), q.name, q.vp
                 FROM games g
                 JOIN game_players q ON q.game_id = g.id
                 JOIN players pl ON pl.id = q.player_id
                 WHERE g.published AND g.deleted_at IS NULL AND {condition}
                 ORDER BY g.played_on IS NULL, g.played_on, g.stored_at, g.n, q.seat"
            ),
            &[arg],
        )?;
        let mut out: Vec<Sitting> = Vec::new();
        for r in rows {
            let game: String = r.get(0);
            let seat = SeatOf { seat: r.get::<_, i32>(5) as u32, player: r.get(6), name: r.get(7), vp: r.get(8) };
            match out.last_mut() {
                Some(last) if last.game == game => last.seats.push(seat),
                _ => out.push(Sitting {
                    game,
                    ruleset: r.get(1),
                    title: r.get(2),
                    played_on: r.get(3),
                    winner: r.get(4),
                    seats: vec![seat],
                }),
            }
        }
        Ok(out)
    }

    pub fn shared_game(&self, a: PlayerId, b: PlayerId) -> Result<Option<String>> {
        let row = self.client.borrow_mut().query_opt(
            "SELECT p.game_id FROM game_players p JOIN players x ON x.id = p.player_id
             JOIN game_players q ON q.game_id = p.game_id JOIN players y ON y.id = q.player_id
             WHERE COALESCE(x.merged_into, x.id) = $1 AND COALESCE(y.merged_into, y.id) = $2 LIMIT 1",
            &[&a, &b],
        )?;
        Ok(row.map(|r| r.get(0)))
    }

    pub fn merge_players(&mut self, into: PlayerId, from: PlayerId) -> Result<()> {
        self.client
            .borrow_mut()
            .execute("UPDATE players SET merged_into = $1 WHERE id = $2 OR merged_into = $2", &[&into, &from])?;
        Ok(())
    }

    pub fn player_merges(&self) -> Result<Vec<(Option<String>, String, String)>> {
        let rows = self.client.borrow_mut().query(
            "SELECT c.name, r.name, p.name FROM players p JOIN players r ON r.id = p.merged_into
             LEFT JOIN clubs c ON c.id = p.club ORDER BY p.id",
            &[],
        )?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect())
    }
}

/// Notes on games: the same questions as the SQLite file's.
impl Postgres {
    pub fn add_note(&mut self, game: &str, seq: u64, club: ClubId, text: &str) -> Result<i64> {
        let row = self.client.borrow_mut().query_one(
            "INSERT INTO notes (game_id, seq, club, text) VALUES ($1, $2, $3, $4) RETURNING id",
            &[&game, &(seq as i64), &club, &text],
        )?;
        Ok(row.get(0))
    }

    pub fn notes(&self, game: &str) -> Result<Vec<Note>> {
        let rows = self.client.borrow_mut().query(
            "SELECT n.id, n.seq, c.name, n.text, n.created_at FROM notes n JOIN clubs c ON c.id = n.club
             WHERE n.game_id = $1 ORDER BY n.seq, n.id",
            &[&game],
        )?;
        Ok(rows
            .iter()
            .map(|r| Note {
                id: r.get(0),
                seq: r.get::<_, i64>(1) as u64,
                club: r.get(2),
                text: r.get(3),
                created_at: r.get(4),
            })
            .collect())
    }
}

/// Questions across games.
impl Postgres {
    /// The latest revision of any seat.
    pub fn seat_revision(&self) -> Result<i64> {
        Ok(self.client.borrow_mut().query_one("SELECT last FROM seat_revision", &[])?.get(0))
    }

    /// Hands every seat revised after `revision` to `each`.
    pub(crate) fn seats_since(&self, revision: i64, each: &mut dyn FnMut(SeatRow)) -> Result<()> {
        let rows = self.client.borrow_mut().query(
            "SELECT key, game_id, seat, ruleset, player, players, played_on, owner, published, deleted, opening,
                    revision
             FROM seats WHERE revision > $1",
            &[&revision],
        )?;
        for r in rows {
            each(SeatRow {
                key: r.get(0),
                game: r.get(1),
                seat: r.get::<_, i32>(2) as i64,
                ruleset: r.get(3),
                player: r.get(4),
                players: r.get::<_, i32>(5) as i64,
                played_on: r.get(6),
                owner: r.get(7),
                published: r.get(8),
                deleted: r.get(9),
                opening: r.get(10),
                revision: r.get(11),
            });
        }
        Ok(())
    }

    /// A question's numbers tallied, in one pass (PostgreSQL plans its own parallel scans).
    pub(crate) fn question_tally(&self, q: &Question, seats: &Seats, sieve: &Sieve) -> Result<Tally> {
        let mut t = Tally::default();
        let rows = self
            .client
            .borrow_mut()
            .query("SELECT seat_key, value FROM seat_metrics WHERE metric = $1 AND arg = $2", &[&q.metric, &q.arg])?;
        for r in rows {
            t.add(seats, sieve, r.get(0), r.get(1));
        }
        Ok(t)
    }

    /// Hands the question's metric of the seats keyed `keys` (those that have it) to `each`.
    pub(crate) fn metric_values_of(&self, q: &Question, keys: &[i64], each: &mut dyn FnMut(i64, f64)) -> Result<()> {
        let rows = self.client.borrow_mut().query(
            "SELECT seat_key, value FROM seat_metrics WHERE metric = $1 AND arg = $2 AND seat_key = ANY($3)",
            &[&q.metric, &q.arg, &keys],
        )?;
        for r in rows {
            each(r.get(0), r.get(1));
        }
        Ok(())
    }

    pub fn briefs(&self, ids: &[String]) -> Result<Vec<CountedGame>> {
        let rows = self
            .client
            .borrow_mut()
            .query("SELECT id, ruleset, title, played_on FROM games WHERE id = ANY($1)", &[&ids])?;
        let mut found: std::collections::HashMap<String, CountedGame> = rows
            .iter()
            .map(|r| (r.get(0), CountedGame { id: r.get(0), ruleset: r.get(1), title: r.get(2), played_on: r.get(3) }))
            .collect();
        Ok(ids.iter().filter_map(|id| found.remove(id)).collect())
    }
}

/// A player's numbers, trade partners and openings.
impl Postgres {
    pub fn read_model_version(&self) -> Result<i64> {
        // `last_value` is 1 before the first `nextval` too: `is_called` tells the two apart.
        let row = self.client.borrow_mut().query_one("SELECT last_value, is_called FROM read_model_version", &[])?;
        Ok(if row.get::<_, bool>(1) { row.get(0) } else { 0 })
    }

    pub fn bump_read_model(&mut self) -> Result<()> {
        self.client.borrow_mut().execute("SELECT nextval('read_model_version')", &[])?;
        Ok(())
    }

    /// Hands every number of the seats keyed `keys` (of the metrics `only`, every one when empty) to `each`:
    /// seat key, metric, argument, value.
    pub(crate) fn seat_numbers(
        &self,
        keys: &[i64],
        only: &[&str],
        each: &mut dyn FnMut(i64, &str, &str, f64),
    ) -> Result<()> {
        let rows = self.client.borrow_mut().query(
            "SELECT seat_key, metric, arg, value FROM seat_metrics
             WHERE seat_key = ANY($1) AND (cardinality($2::text[]) = 0 OR metric = ANY($2))",
            &[&keys, &only],
        )?;
        for r in rows {
            each(r.get(0), r.get(1), r.get(2), r.get(3));
        }
        Ok(())
    }

    pub fn field(&self, ruleset: &str) -> Result<Vec<(String, String, f64)>> {
        let rows = self.client.borrow_mut().query(questions::FIELD, &[&ruleset])?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect())
    }

    pub fn rated_games(&self, ruleset: &str) -> Result<Vec<crate::rows::RatedGame>> {
        let stored = "(SELECT g.stored_at FROM games g WHERE g.id = s.game_id), (SELECT g.n FROM games g WHERE g.id = s.game_id)";
        let rows = self.client.borrow_mut().query(&questions::rated_games(PUBLIC, stored), &[&ruleset])?;
        Ok(questions::gather_rated(
            rows.iter().map(|r| (r.get::<_, String>(0), r.get::<_, i64>(1), r.get::<_, Option<i64>>(2))),
        ))
    }
}

const PUBLIC: &str = "s.published AND NOT s.deleted";

/// Applies the migrations not yet applied, each in a transaction, under an advisory lock.
fn migrate(client: &mut Client) -> Result<()> {
    client
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (
             version    INTEGER PRIMARY KEY,
             applied_at TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))",
        )
        .or_else(|e| if e.code() == Some(&SqlState::UNIQUE_VIOLATION) { Ok(()) } else { Err(e) })?;
    let known = MIGRATIONS.last().map(|m| m.0).unwrap_or(0);
    for &(version, sql) in MIGRATIONS {
        let mut tx = client.transaction()?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
        let have: i32 = tx.query_one("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", &[])?.get(0);
        if have as u32 > known {
            return Err(StoreError::TooNew { found: have as u32, known });
        }
        if (have as u32) < version {
            tx.batch_execute(sql)?;
            tx.execute("INSERT INTO schema_migrations (version) VALUES ($1)", &[&(version as i32)])?;
        }
        tx.commit()?;
    }
    Ok(())
}
