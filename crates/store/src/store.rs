//! The store's face: [`Store`], which is one of the backends — SQLite (a file, the default) or PostgreSQL
//! (`postgres://…`) — with the same methods and the same promises.
//!
//! Long because it is the whole face: every method a caller of the store uses is here, each a few lines that
//! hand the call to the backend, and a split would only spread one list over several files.

use crate::error::{Result, StoreError};
use crate::ownership::{Access, Club, ClubId, ClubRow, Ownership, TokenRow, Viewer, Visible, VisiblePlayer};
use crate::postgres::Postgres;
use crate::rows::{
    game_id, AnswerRow, Appended, Asked, Derivation, DueGame, GameFilter, GameRow, Identity, Inserted, NewGame, Note,
    OpeningRecord, PartnerTotal, PlayerId, PlayerNumber, PlayerProfile, Question, Sitting, StoredGame, TokenRecord,
    WinModel,
};
use crate::seats::{Seats, SharedSeats, Tally};
use crate::sqlite::Sqlite;
use almanac_core::FactRow;
use std::path::Path;

/// What can be made of a new game on any thread, before the store's one writer stores it: its log, facts and
/// checkpoints compressed, as either backend keeps them (compressing took a quarter of the writer's time).
/// Opaque: only the store reads it.
pub struct Ahead {
    pub(crate) packed: crate::packed::Packed,
}

impl Ahead {
    pub fn of(new: &NewGame) -> Ahead {
        Ahead { packed: crate::packed::Packed::of(new) }
    }
}

/// The store: an open connection to one of the backends, with the same methods and promises for both.
pub struct Store {
    backend: Backend,
    /// Every game's seats, held in memory for questions; shared by a [`crate::Pool`]'s connections.
    seats: SharedSeats,
}

enum Backend {
    Sqlite(Sqlite),
    Postgres(Postgres),
}

/// Runs the same call on whichever backend the store is.
macro_rules! on_backend {
    ($self:ident, $b:ident => $call:expr) => {
        match &$self.backend {
            Backend::Sqlite($b) => $call,
            Backend::Postgres($b) => $call,
        }
    };
    (mut $self:ident, $b:ident => $call:expr) => {
        match &mut $self.backend {
            Backend::Sqlite($b) => $call,
            Backend::Postgres($b) => $call,
        }
    };
}

/// Whether `db` names a PostgreSQL database (`postgres://…` or `postgresql://…`) rather than a SQLite file.
pub fn is_postgres(db: &Path) -> bool {
    let text = db.to_string_lossy();
    text.starts_with("postgres://") || text.starts_with("postgresql://")
}

impl Store {
    /// Opens the database `db` — a SQLite file (created if needed) or a `postgres://` URL — and brings its
    /// schema up to date.
    pub fn open(db: &Path) -> Result<Store> {
        let backend = if is_postgres(db) {
            Backend::Postgres(Postgres::connect(&db.to_string_lossy())?)
        } else {
            Backend::Sqlite(Sqlite::open(db)?)
        };
        Ok(Store { backend, seats: SharedSeats::default() })
    }

    /// Whether servers sharing the database at `db` hear each other's appends (PostgreSQL: they do, by
    /// `listen_for_appends`; a SQLite file has one server).
    pub fn announces_appends(db: &Path) -> bool {
        is_postgres(db)
    }

    /// Calls `heard` with each append any server commits to the PostgreSQL database at `db` (the game's id
    /// and its events now), and each change of who may see a game (its id and `None`); returns only when the
    /// connection fails.
    pub fn listen_for_appends(db: &Path, heard: impl FnMut(&str, Option<u64>)) -> Result<()> {
        Postgres::listen_for_appends(&db.to_string_lossy(), heard)
    }

    /// A SQLite database in memory (for tests and benchmarks).
    pub fn open_in_memory() -> Result<Store> {
        Ok(Store { backend: Backend::Sqlite(Sqlite::open_in_memory()?), seats: SharedSeats::default() })
    }

    /// Another connection to a database that exists and is up to date, for reading (a [`crate::Pool`]'s
    /// readers): read-only on SQLite.
    pub fn open_reader(db: &Path) -> Result<Store> {
        let backend = if is_postgres(db) {
            Backend::Postgres(Postgres::connect_reader(&db.to_string_lossy())?)
        } else {
            Backend::Sqlite(Sqlite::open_reader(db)?)
        };
        Ok(Store { backend, seats: SharedSeats::default() })
    }

    /// A writer's connection again, to a database that exists and is up to date (a pool's writer whose
    /// connection was lost, after a restart or a failover of the primary).
    pub(crate) fn open_writer_again(db: &Path) -> Result<Store> {
        let backend = if is_postgres(db) {
            Backend::Postgres(Postgres::connect_writer(&db.to_string_lossy())?)
        } else {
            Backend::Sqlite(Sqlite::open(db)?)
        };
        Ok(Store { backend, seats: SharedSeats::default() })
    }

    /// Whether the connection is known to be closed (a SQLite file never is).
    pub(crate) fn is_closed(&self) -> bool {
        match &self.backend {
            Backend::Sqlite(_) => false,
            Backend::Postgres(b) => b.is_closed(),
        }
    }

    /// The SQLite connection, for tests of the store's own promises (the triggers); `None` on PostgreSQL.
    pub fn sqlite(&self) -> Option<&rusqlite::Connection> {
        match &self.backend {
            Backend::Sqlite(s) => Some(&s.conn),
            Backend::Postgres(_) => None,
        }
    }

    /// The SQLite connection of a store known to be one (tests of the SQLite file's promises).
    pub fn connection(&self) -> &rusqlite::Connection {
        self.sqlite().expect("a SQLite store")
    }

    /// Which backend this is, in a word (`sqlite`, `postgres`).
    pub fn backend_name(&self) -> &'static str {
        match &self.backend {
            Backend::Sqlite(_) => "sqlite",
            Backend::Postgres(_) => "postgres",
        }
    }

    /// The schema version (the number of the last migration applied).
    pub fn schema_version(&self) -> Result<u32> {
        on_backend!(self, b => b.schema_version())
    }

    /// Where a PostgreSQL primary's WAL is now, in bytes from its start (`None` on SQLite): a replica that has
    /// replayed this far holds every write committed before.
    pub fn wal_position(&self) -> Result<Option<u64>> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(None),
            Backend::Postgres(b) => b.wal_position().map(Some),
        }
    }

    /// How far a PostgreSQL streaming replica has replayed its primary's WAL (`None` on a primary or SQLite).
    pub fn replayed_position(&self) -> Result<Option<u64>> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(None),
            Backend::Postgres(b) => b.replayed_position(),
        }
    }

    /// Stores a validated game with its events, facts and read model for questions (`insights`, derived from its
    /// facts) in one transaction, owned as `ownership` says, under its key (`stored_key`). The same key stored
    /// before gives `Existing` (its owner's upload shows a deleted game again); a club's unseen game under the
    /// operator's key (stored before keys named clubs) is `TakenElsewhere` to the operator.
    pub fn insert_game(&mut self, new: &NewGame, ownership: Ownership) -> Result<Inserted> {
        let key = self.stored_key(new.content_hash, ownership)?;
        let new = NewGame { content_hash: &key, ..*new };
        let id = game_id(new.content_hash);
        let inserted = on_backend!(mut self, b => b.insert_game_as(&id, &new, ownership))?;
        self.changed()?;
        Ok(inserted)
    }

    /// The key a log is stored under for its uploader (its `content_hash` column, its id's first 16 digits):
    /// the log's content hash for the operator; for a club, the hash of the content hash and the club, so that
    /// each club's upload of a log is that club's own record (a copy counted once with the others by its
    /// fingerprint), and no club hears from an upload that another holds the same log. A club's game stored
    /// under the plain hash (before keys named clubs) keeps it, so that the club's upload of it again finds it.
    fn stored_key(&self, content_hash: &str, ownership: Ownership) -> Result<String> {
        let Some(club) = ownership.club else { return Ok(content_hash.to_string()) };
        match self.access_of(&game_id(content_hash)) {
            Ok(stored) if stored.owner == Some(club) => return Ok(content_hash.to_string()),
            Ok(_) | Err(StoreError::NotFound(_)) => {}
            Err(e) => return Err(e),
        }
        Ok(almanac_core::hash::sha256_hex(&format!("{content_hash}\nstored by club {club}")))
    }

    /// Stores games as `insert_game` does, each owned as its ownership says, each whole or not at all, in the
    /// order given; a bulk import's way, and the server's for uploads that wait together: they share one
    /// transaction (on PostgreSQL when all are new and no two share a log or a fingerprint, with a statement
    /// per table for all of them); should one fail, they are stored one by one. Each game's outcome, in order;
    /// an error only if none could be stored.
    pub fn insert_games(&mut self, games: &[(NewGame, Ownership)]) -> Result<Vec<Result<Inserted>>> {
        let keys: Vec<String> =
            games.iter().map(|(g, o)| self.stored_key(g.content_hash, *o)).collect::<Result<_>>()?;
        let keyed: Vec<(NewGame, Ownership)> =
            games.iter().zip(&keys).map(|((g, o), key)| (NewGame { content_hash: key, ..*g }, *o)).collect();
        let ids: Vec<String> = keys.iter().map(|key| game_id(key)).collect();
        let named: Vec<(&str, &NewGame, Ownership)> =
            ids.iter().zip(&keyed).map(|(id, (g, o))| (id.as_str(), g, *o)).collect();
        let out = on_backend!(mut self, b => b.insert_games_as(&named))?;
        self.changed()?;
        Ok(out)
    }

    /// `insert_game` under a given id: a copy of another database keeps the ids it had (a game stored before
    /// the canonical hash keeps an id that is not its hash's).
    pub fn insert_game_as(&mut self, id: &str, new: &NewGame, ownership: Ownership) -> Result<Inserted> {
        let inserted = on_backend!(mut self, b => b.insert_game_as(id, new, ownership))?;
        self.changed()?;
        Ok(inserted)
    }

    /// Every game, deleted ones too, oldest first, with what a copy of the database must keep.
    pub fn stored_games(&self) -> Result<Vec<StoredGame>> {
        on_backend!(self, b => b.stored_games())
    }

    /// Every token as stored (its hash, never the token), for a copy of the database.
    pub fn token_records(&self) -> Result<Vec<TokenRecord>> {
        on_backend!(self, b => b.token_records())
    }

    /// Appends the events `appended` names to game `id` of `club`, if the stored log still ends at
    /// `expected_seq`; a stale writer gets `Conflict`.
    pub fn append_events(&mut self, club: ClubId, id: &str, expected_seq: u64, appended: Appended) -> Result<u64> {
        let seq = on_backend!(mut self, b => b.append_events(club, id, expected_seq, appended))?;
        self.changed()?;
        Ok(seq)
    }

    /// The game with this id or unique prefix, as `viewer` may see it: every read of one game takes what
    /// this returns. A game the viewer may not see is not found, exactly like one that does not exist.
    pub fn visible(&self, viewer: Viewer, id_or_prefix: &str) -> Result<Visible> {
        // A whole id is looked up by its key alone; a prefix is resolved among the games the viewer may see.
        let whole = id_or_prefix.len() == 16 && id_or_prefix.bytes().all(|b| b.is_ascii_hexdigit());
        let id = if whole { id_or_prefix.to_string() } else { self.resolve(viewer, id_or_prefix)? };
        let access = self.access_of(&id).map_err(|e| match e {
            StoreError::NotFound(_) => StoreError::NotFound(id_or_prefix.to_string()),
            other => other,
        })?;
        Visible::of(&access, viewer).ok_or_else(|| StoreError::NotFound(id_or_prefix.to_string()))
    }

    /// Any stored game by its full id, deleted ones too: for the operator copying the whole database
    /// (`migrate`), which keeps deleted games as they are.
    pub fn stored(&self, id: &str) -> Result<Visible> {
        Ok(Visible::stored(self.access_of(id)?))
    }

    /// A stored game's row.
    pub fn game(&self, game: &Visible) -> Result<GameRow> {
        on_backend!(self, b => b.game(game.id()))
    }

    /// The players (after merges) whose every seat a program played: no people, so no one's rank.
    pub fn bot_players(&self) -> Result<std::collections::HashSet<PlayerId>> {
        Ok(self.seats_now()?.bots())
    }

    /// The ruleset with the most games that count (published, with a winner, each once); none without any.
    pub fn most_played(&self) -> Result<Option<String>> {
        Ok(self.seats_now()?.most_played().map(str::to_string))
    }

    /// The other records of the same game (its fingerprint) that the game's viewer may see, the first stored
    /// first; and whether this record counts for the public.
    pub fn recordings(&self, game: &Visible) -> Result<(bool, Vec<crate::rows::Recording>)> {
        on_backend!(self, b => b.recordings(game.id(), game.viewer()))
    }

    /// The game's decisions judged by its ruleset's win-chance model, as its read model keeps them (the
    /// game's order), and when that model was trained (none: no model judged them).
    pub fn judged_decisions(&self, game: &Visible) -> Result<(Option<String>, Vec<almanac_core::JudgedDecision>)> {
        on_backend!(self, b => b.judged_decisions(game.id()))
    }

    /// The games the filter's viewer may see, in the filter's order.
    pub fn list_games(&self, filter: &GameFilter) -> Result<Vec<GameRow>> {
        on_backend!(self, b => b.list_games(filter))
    }

    /// The stored log: the header line and the event lines in order.
    pub fn log(&self, game: &Visible) -> Result<(String, Vec<String>)> {
        on_backend!(self, b => b.log(game.id()))
    }

    /// What the state after `events` events (none: all of them) is rebuilt from without a whole replay: the
    /// header, the nearest checkpoint written by the current version of the game's ruleset (`version_of`
    /// says it), and the event lines after it.
    pub fn resume_point(
        &self,
        game: &Visible,
        events: Option<u64>,
        version_of: &dyn Fn(&str) -> Option<u32>,
    ) -> Result<crate::ResumePoint> {
        let mut point = on_backend!(self, b => b.resume_point(game.id(), events, version_of))?;
        // A withdrawal after the checkpoint of an entry at or before it: the game is then as it was before
        // that entry, so the point starts from a checkpoint before it, with every line since.
        loop {
            let done = point.checkpoint.as_ref().map_or(0, |c| c.events);
            let Some(seq) =
                point.lines.iter().filter_map(|l| almanac_core::withdrawal::target(l)).filter(|&s| s <= done).min()
            else {
                return Ok(point);
            };
            let mut earlier = on_backend!(self, b => b.resume_point(game.id(), Some(seq - 1), version_of))?;
            let lines = on_backend!(self, b => b.events(game.id(), seq, point.events))?;
            earlier.lines.extend(lines.into_iter().map(|(_, _, line)| line));
            earlier.events = point.events;
            point = earlier;
        }
    }

    /// The bytes of every stored checkpoint, to weigh them against the logs.
    pub fn checkpoint_bytes(&self) -> Result<u64> {
        on_backend!(self, b => b.checkpoint_bytes())
    }

    /// Stored events with their seq and turn, `from..=to` by seq.
    pub fn events(&self, game: &Visible, from: u64, to: u64) -> Result<Vec<(u64, u32, String)>> {
        on_backend!(self, b => b.events(game.id(), from, to))
    }

    /// The projected facts of a game, in event order.
    pub fn facts(&self, game: &Visible) -> Result<Vec<FactRow>> {
        on_backend!(self, b => b.facts(game.id()))
    }

    /// Finds a game by id or by a unique prefix of it, among the games `viewer` may see.
    pub fn resolve(&self, viewer: Viewer, id_or_prefix: &str) -> Result<String> {
        on_backend!(self, b => b.resolve(viewer, id_or_prefix))
    }

    /// The bytes of every stored log's text: header lines and event lines, a newline after each.
    pub fn log_bytes(&self) -> Result<u64> {
        on_backend!(self, b => b.log_bytes())
    }

    /// How many facts are stored, over all games.
    pub fn fact_count(&self) -> Result<u64> {
        on_backend!(self, b => b.fact_count())
    }

    /// The games of `ruleset` (all when `None`) stored by another version than `current` (all when `None`),
    /// whose read model for questions another version derived, or that have events and no checkpoints, oldest
    /// first; each says which of these it is (`DueGame::numbers_older`).
    pub fn games_to_reproject(&self, ruleset: Option<&str>, current: Option<u32>) -> Result<Vec<DueGame>> {
        on_backend!(self, b => b.games_to_reproject(ruleset, current))
    }

    /// Replaces the facts and derived columns of game `d.id` by those of `d.game` (its stored log read again);
    /// one transaction; the events are not touched.
    pub fn reproject(&mut self, d: &Derivation) -> Result<()> {
        on_backend!(mut self, b => b.reproject(d))?;
        self.changed()
    }

    /// Derives games again as `reproject` does, each whole or not at all; on SQLite in one transaction (a
    /// commit per game rewrote the read model's pages for every game). Each game's outcome, in order; an error
    /// only if none could be derived.
    pub fn reproject_games(&mut self, games: &[Derivation]) -> Result<Vec<Result<()>>> {
        let out = match &mut self.backend {
            Backend::Sqlite(b) => b.reproject_games(games)?,
            Backend::Postgres(b) => games.iter().map(|d| b.reproject(d)).collect(),
        };
        self.changed()?;
        Ok(out)
    }

    /// A number that grows after every change to the read model, committed first: an answer computed after
    /// reading it is at least as new as it.
    pub fn read_model_version(&self) -> Result<i64> {
        on_backend!(self, b => b.read_model_version())
    }

    /// Says that the read model changed (after the change committed). SQLite's writes say so in their own
    /// transactions; PostgreSQL's version is a sequence, which no transaction holds back.
    fn changed(&mut self) -> Result<()> {
        match &mut self.backend {
            Backend::Sqlite(_) => Ok(()),
            Backend::Postgres(b) => b.bump_read_model(),
        }
    }

    /// This store sharing `seats` (a pool's connections hold one copy).
    pub(crate) fn sharing(self, seats: SharedSeats) -> Store {
        Store { seats, ..self }
    }

    pub(crate) fn shared_seats(&self) -> SharedSeats {
        self.seats.clone()
    }

    /// Brings the seats held in memory up to date now: a server does it as it starts, so that its first
    /// question does not read every seat.
    pub fn read_seats(&self) -> Result<()> {
        self.seats_now().map(drop)
    }

    /// The seats held in memory, first brought up to the latest revision this connection sees. Read after
    /// it, a question's numbers may be newer than the seats (a game stored meanwhile): numbers of seats not
    /// yet known are left out, so an answer is the one of the moment the seats were read.
    fn seats_now(&self) -> Result<std::sync::RwLockReadGuard<'_, Seats>> {
        let latest = on_backend!(self, b => b.seat_revision())?;
        let read = || self.seats.read().unwrap_or_else(|e| e.into_inner());
        if read().revision() < latest {
            let mut seats = self.seats.write().unwrap_or_else(|e| e.into_inner());
            let known = seats.revision();
            if known < latest {
                on_backend!(self, b => b.seats_since(known, &mut |row| seats.take(row)))?;
            }
        }
        Ok(read())
    }

    /// A question's answer: each group's seats, games and mean (the viewer's games only), in no order; how many
    /// games were counted, and the latest `limit` of them. One pass over the metric's numbers (over the
    /// player's seats only, when the question names a player).
    pub fn ask(&self, question: &Question, limit: u32) -> Result<Asked> {
        // A club no one has is a filter nothing passes.
        let club = match &question.club {
            Some(name) => match self.club_by_name(name) {
                Ok(c) => Some(c.id),
                Err(StoreError::NotFound(_)) => None,
                Err(e) => return Err(e),
            },
            None => None,
        };
        let seats = self.seats_now()?;
        let sieve = seats.sieve(question, club);
        let tally = match question.player {
            Some(player) => {
                let mut t = Tally::default();
                let keys = seats.keys_of(player);
                on_backend!(self, b => b.metric_values_of(question, &keys, &mut |k, v| t.add(&seats, &sieve, k, v)))?;
                t
            }
            None => on_backend!(self, b => b.question_tally(question, &seats, &sieve))?,
        };
        let mut tally = tally;
        tally.keep_groups_of(question.min_seats);
        let crate::seats::Tallied { groups, counted, latest } =
            tally.finish_by(&seats, question.by, question.then, limit as usize);
        drop(seats);
        let ids: Vec<PlayerId> = groups.iter().filter_map(|g| g.player).collect();
        let players = self.player_names(&ids, question.viewer)?;
        let clubs =
            if question.by == crate::rows::Dimension::Club || question.then == Some(crate::rows::Dimension::Club) {
                self.clubs()?.into_iter().map(|c| (c.id, c.name)).collect()
            } else {
                std::collections::HashMap::new()
            };
        let rows = groups
            .into_iter()
            .map(|g| {
                let label = match (question.then, g.then_id, g.key.split_once('|')) {
                    (Some(then), Some(second), Some((a, b))) => format!(
                        "{} · {}",
                        question.by.group_label(g.id, a, &players, &clubs),
                        then.group_label(second, b, &players, &clubs)
                    ),
                    _ => question.by.group_label(g.id, &g.key, &players, &clubs),
                };
                AnswerRow { label, ..g }
            })
            .collect();
        let games = on_backend!(self, b => b.briefs(&latest))?;
        Ok(Asked { rows, counted, games })
    }

    /// A player's means of the numbers of `metrics` only, by ruleset, beside the field's (what a head-to-head
    /// sets side by side: a few of the hundred numbers a seat has).
    pub fn player_numbers_of(&self, player: &VisiblePlayer, metrics: &[&str]) -> Result<Vec<PlayerNumber>> {
        Ok(self.profile_of(player, &[], "", metrics)?.numbers)
    }

    /// A player's numbers beside the field's, totals per trade partner (the `partners` numbers) and openings
    /// with the mean of `won` — over their published games, read in one pass over their numbers.
    pub fn player_profile(&self, player: &VisiblePlayer, partners: &[&str], won: &str) -> Result<PlayerProfile> {
        self.profile_of(player, partners, won, &[])
    }

    /// `player_profile` over the numbers of `only` these metrics (all when empty): the player's published seats
    /// come from the seats held in memory, their numbers by seat key.
    fn profile_of(&self, player: &VisiblePlayer, partners: &[&str], won: &str, only: &[&str]) -> Result<PlayerProfile> {
        use std::collections::{BTreeMap, HashMap};
        let root = player.id();
        let seats = self.seats_now()?;
        let mine = seats.published_seats_of(root);
        let mut keys: Vec<i64> = mine.keys().copied().collect();
        keys.sort_unstable();
        // The kinds of games the player played (`LikeGames`), and each seat's.
        let mut likes: Vec<crate::seats::LikeGames> = mine.values().map(|s| s.like()).collect();
        likes.sort();
        likes.dedup();
        let like_of: HashMap<i64, usize> =
            mine.iter().map(|(&key, s)| (key, likes.binary_search(&s.like()).expect("listed above"))).collect();
        let like_words: Vec<String> = (0..likes.len()).map(|i| i.to_string()).collect();
        let mut numbers = crate::questions::Sums::default();
        // The player's seats per kind of game and number: the weights of the field's means.
        let mut weights = crate::questions::Sums::default();
        let mut with: BTreeMap<(String, String, Option<i64>, Option<String>), f64> = BTreeMap::new();
        let mut openings: BTreeMap<(String, Option<String>), (f64, u64)> = BTreeMap::new();
        on_backend!(self, b => b.seat_numbers(&keys, only, &mut |key, metric, arg, value| {
            let seat = &mine[&key];
            if partners.contains(&metric) {
                let (partner, market) = match almanac_core::insights::TradePartner::of(arg) {
                    almanac_core::insights::TradePartner::Seat(n) => (u16::try_from(n).ok().and_then(|n| seat.player_at(n)), None),
                    almanac_core::insights::TradePartner::Market(id) => (None, Some(id.to_string())),
                };
                *with.entry((seat.ruleset.to_string(), metric.to_string(), partner, market)).or_default() += value;
                return;
            }
            numbers.add_value([seat.ruleset, metric, arg], value, seat.players);
            weights.add([&like_words[like_of[&key]], metric, arg], 0.0, 1);
            if metric == won && arg.is_empty() {
                let o = openings.entry((seat.ruleset.to_string(), seat.opening.map(str::to_string))).or_default();
                o.0 += value;
                o.1 += 1;
            }
        }))?;
        // The field of peers at games like the player's: people beside a person, programs beside a program, at
        // the same ruleset, table size and edition. Over several kinds of games, the field's means are weighted
        // as the player's own seats are (what the field would show at the player's tables).
        let programs = seats.a_program(root);
        let mut field_sums: HashMap<String, Vec<crate::questions::FieldSum>> = HashMap::new();
        // Per kind of game, the field's mean of each number.
        let mut means: Vec<HashMap<(String, String), f64>> = Vec::with_capacity(likes.len());
        let mut fields: Vec<crate::rows::FieldOf> = Vec::new();
        for like in &likes {
            let ((peers, games), (others, _)) = (seats.peers(like, programs), seats.peers(like, !programs));
            let fewer = if peers.len() <= others.len() { &peers } else { &others };
            let mut sums = crate::questions::Sums::default();
            on_backend!(self, b => b.seat_numbers(fewer, only, &mut |_, metric, arg, value| {
                sums.add(["", metric, arg], value, 1);
            }))?;
            let of_fewer: HashMap<(&str, &str), (f64, u64)> =
                sums.iter().map(|([_, metric, arg], total, _, n, _)| ((metric, arg), (total, n as u64))).collect();
            let mut mean = HashMap::new();
            if peers.len() <= others.len() {
                for ((metric, arg), (total, n)) in &of_fewer {
                    mean.insert((metric.to_string(), arg.to_string()), total / *n as f64);
                }
            } else {
                if !field_sums.contains_key(&like.ruleset) {
                    let read = on_backend!(self, b => b.field_sums(&like.ruleset))?;
                    field_sums.insert(like.ruleset.clone(), read);
                }
                let alike =
                    |f: &&crate::questions::FieldSum| f.players == i64::from(like.players) && f.edition == like.edition;
                for f in field_sums[&like.ruleset].iter().filter(alike) {
                    let (less, fewer_n) =
                        of_fewer.get(&(f.metric.as_str(), f.arg.as_str())).copied().unwrap_or((0.0, 0));
                    let n = (f.seats.max(0) as u64).saturating_sub(fewer_n);
                    if n > 0 {
                        mean.insert((f.metric.clone(), f.arg.clone()), (f.total - less) / n as f64);
                    }
                }
            }
            means.push(mean);
            let mine_here = like_of.values().filter(|&&i| likes[i] == *like).count() as u64;
            let seen = crate::rows::LikeField {
                players: like.players,
                edition: like.edition.clone(),
                seats: peers.len() as u64,
                games,
                mine: mine_here,
            };
            match fields.iter_mut().find(|f| f.ruleset == like.ruleset) {
                Some(f) => {
                    f.seats += seen.seats;
                    f.games += seen.games;
                    f.like.push(seen);
                }
                None => fields.push(crate::rows::FieldOf {
                    ruleset: like.ruleset.clone(),
                    programs,
                    seats: seen.seats,
                    games: seen.games,
                    like: vec![seen],
                }),
            }
        }
        // Each number's field: the kinds' means weighted by the player's seats with that number in each (kinds
        // where the field has no such number left out).
        let mut weighted: HashMap<(String, String, String), (f64, f64)> = HashMap::new();
        for ([like, metric, arg], _, _, n, _) in weights.iter() {
            let i: usize = like.parse().expect("an index written above");
            if let Some(m) = means[i].get(&(metric.to_string(), arg.to_string())) {
                let w = weighted.entry((likes[i].ruleset.clone(), metric.to_string(), arg.to_string())).or_default();
                w.0 += m * n as f64;
                w.1 += n as f64;
            }
        }
        let field: HashMap<(String, String, String), f64> =
            weighted.into_iter().filter(|(_, (_, w))| *w > 0.0).map(|(k, (sum, w))| (k, sum / w)).collect();
        let mut numbers: Vec<PlayerNumber> = numbers
            .iter()
            .map(|([ruleset, metric, arg], sum, squares, seats, players)| {
                let key = (ruleset.to_string(), metric.to_string(), arg.to_string());
                let mean = sum / seats as f64;
                let square = squares / seats as f64;
                let field = field.get(&key).copied();
                let (ruleset, metric, arg) = key;
                PlayerNumber {
                    field,
                    ruleset,
                    metric,
                    arg,
                    mean,
                    variance: (square - mean * mean).max(0.0),
                    seats: seats as u64,
                    players: players / seats as f64,
                }
            })
            .collect();
        numbers.sort_by(|a, b| (&a.ruleset, &a.metric, &a.arg).cmp(&(&b.ruleset, &b.metric, &b.arg)));
        drop(mine);
        drop(seats);
        let ids: Vec<i64> = with.keys().filter_map(|k| k.2).collect();
        let names = self.player_names(&ids, player.viewer())?;
        Ok(PlayerProfile {
            numbers,
            fields,
            partners: with
                .into_iter()
                .map(|((ruleset, metric, player, market), total)| PartnerTotal {
                    name: player.and_then(|p| names.get(&p).cloned()),
                    ruleset,
                    metric,
                    player,
                    market,
                    total,
                })
                .collect(),
            openings: openings
                .into_iter()
                .map(|((ruleset, opening), (sum, seats))| OpeningRecord {
                    ruleset,
                    opening,
                    seats,
                    mean: sum / seats as f64,
                })
                .collect(),
        })
    }

    /// The names of identities (after merges) as `viewer` may see them (`identity`'s name): never a spelling
    /// of games it may not see; an identity it may not see at all has none.
    fn player_names(&self, ids: &[i64], viewer: Viewer) -> Result<std::collections::HashMap<i64, String>> {
        let mut names = std::collections::HashMap::new();
        for &id in ids {
            if let Some(name) = on_backend!(self, b => b.spellings_seen(id, viewer, 1))?.pop() {
                names.insert(id, name);
            }
        }
        Ok(names)
    }

    /// A number that changes whenever a ruleset's ratings may: whenever a seat of one of its games is made or
    /// changed (a game stored, appended to, derived again, published, made private or deleted; a spelling of
    /// one of its players merged). Ratings are computed again only when it changed.
    pub fn ruleset_revision(&self, ruleset: &str) -> Result<i64> {
        Ok(self.seats_now()?.ruleset_revision(ruleset))
    }

    /// Creates a club: a name of 1 to 100 bytes, no other club's.
    pub fn create_club(&mut self, name: &str) -> Result<Club> {
        let name = name.trim();
        if name.is_empty() || name.len() > 100 {
            return Err(StoreError::Invalid("a club's name is 1 to 100 bytes".into()));
        }
        if self.club_by_name(name).is_ok() {
            return Err(StoreError::Invalid(format!("there is a club `{name}` already")));
        }
        on_backend!(mut self, b => b.insert_club(name))
    }

    pub fn club_by_name(&self, name: &str) -> Result<Club> {
        on_backend!(self, b => b.club_by_name(name))
    }

    pub fn clubs(&self) -> Result<Vec<ClubRow>> {
        on_backend!(self, b => b.clubs())
    }

    /// Records a token of `club` by its hash (the token itself is never stored); returns the token's id.
    pub fn add_token(&mut self, club: ClubId, hash: &str, label: &str) -> Result<i64> {
        on_backend!(mut self, b => b.add_token(club, hash, label))
    }

    /// The tokens of a club (every club's when `None`), revoked ones included.
    pub fn tokens(&self, club: Option<ClubId>) -> Result<Vec<TokenRow>> {
        on_backend!(self, b => b.tokens(club))
    }

    /// Revokes a token; revoking one already revoked changes nothing.
    pub fn revoke_token(&mut self, id: i64) -> Result<()> {
        on_backend!(mut self, b => b.revoke_token(id))
    }

    /// Revokes every live token of `club` with this label.
    pub fn revoke_tokens_labelled(&mut self, club: ClubId, label: &str) -> Result<usize> {
        on_backend!(mut self, b => b.revoke_tokens_labelled(club, label))
    }

    /// The club whose live token has this hash.
    pub fn club_of_token(&self, hash: &str) -> Result<Option<Club>> {
        on_backend!(self, b => b.club_of_token(hash))
    }

    /// Who owns the game `id`, whoever may see it.
    pub fn access_of(&self, id: &str) -> Result<Access> {
        on_backend!(self, b => b.access_of(id))
    }

    /// Publishes a club's game (or makes it private again).
    pub fn set_published(&mut self, club: ClubId, id_or_prefix: &str, published: bool) -> Result<String> {
        let id = self.owned(club, id_or_prefix)?.id().to_string();
        on_backend!(mut self, b => b.set_published(&id, published))?;
        self.changed()?;
        Ok(id)
    }

    /// Hides a club's game from every view; its events stay (they are append-only).
    pub fn delete_game(&mut self, club: ClubId, id_or_prefix: &str) -> Result<String> {
        let id = self.owned(club, id_or_prefix)?.id().to_string();
        on_backend!(mut self, b => b.hide(&id))?;
        self.changed()?;
        Ok(id)
    }

    /// Undoes `delete_game`: the club's deleted game `id` (a full id) is shown again, its notes with it. Any
    /// other id is not found, as for a game that does not exist.
    pub fn restore_game(&mut self, club: ClubId, id: &str) -> Result<String> {
        let access = self.access_of(id)?;
        if access.owner != Some(club) {
            return Err(StoreError::NotFound(id.to_string()));
        }
        on_backend!(mut self, b => b.unhide(&access.id))?;
        self.changed()?;
        Ok(access.id)
    }

    /// A club's deleted games, the latest deleted first (what `restore_game` can bring back).
    pub fn deleted_games(&self, club: ClubId) -> Result<Vec<GameRow>> {
        on_backend!(self, b => b.deleted_games(club))
    }

    /// A game `club` may change: not found when it may not see it, `NotYours` when it sees it but does not
    /// own it.
    pub fn owned(&self, club: ClubId, id_or_prefix: &str) -> Result<Visible> {
        let game = self.visible(Viewer::Club(club), id_or_prefix)?;
        if game.access().owner != Some(club) {
            return Err(StoreError::NotYours(game.id().to_string()));
        }
        Ok(game)
    }

    /// The player `id` (any spelling of one) as `viewer` may see them: an identity with a seat in a game
    /// the viewer may see. Any other id is `NoPlayer`, whether it was never used or names only players of
    /// games the viewer may not see. Every read of a player takes what this returns.
    pub fn visible_player(&self, viewer: Viewer, id: PlayerId) -> Result<VisiblePlayer> {
        let (root, club) = on_backend!(self, b => b.player_root(id))?.ok_or(StoreError::NoPlayer(id))?;
        if !on_backend!(self, b => b.player_seen_by(root, viewer))? {
            return Err(StoreError::NoPlayer(id));
        }
        Ok(VisiblePlayer::new(root, club, viewer))
    }

    /// A player across games, after merges, named by the spellings the viewer may see.
    pub fn identity(&self, player: &VisiblePlayer) -> Result<Identity> {
        on_backend!(self, b => b.identity(player))
    }

    /// The players `viewer` may see one of whose spellings is `name` (any case, any spelling: as names fold),
    /// after merges, in any club's games.
    pub fn players_named(&self, viewer: Viewer, name: &str) -> Result<Vec<VisiblePlayer>> {
        let mut found = Vec::new();
        for id in on_backend!(self, b => b.players_named(name))? {
            match self.visible_player(viewer, id) {
                Ok(p) => found.push(p),
                Err(StoreError::NoPlayer(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(found)
    }

    /// The identity of `name` among the games of `club` (`None`: the games no club owns), after merges.
    pub fn player_named(&self, club: Option<ClubId>, name: &str) -> Result<Option<PlayerId>> {
        on_backend!(self, b => b.player_named(club.unwrap_or(0), name))
    }

    /// Every published game the player (after merges) sat in, oldest first, with every seat. Private and
    /// deleted games never count.
    pub fn sittings(&self, player: &VisiblePlayer) -> Result<Vec<Sitting>> {
        on_backend!(self, b => b.sittings(player.id()))
    }

    /// Every published game of a ruleset as ratings read it (each seat's player and final score), in the
    /// order played, then stored.
    pub fn rated_games(&self, ruleset: &str) -> Result<Vec<crate::rows::RatedGame>> {
        on_backend!(self, b => b.rated_games(ruleset))
    }

    /// `rated_games` over one club's own records: each published game of the ruleset it recorded or uploaded
    /// that counts for the public, once, by the club's own record of it, whether or not that record is the one
    /// counted (another club's copy may be). How a club's players are rated: its leaderboard and their pages
    /// hold the games it recorded.
    pub fn rated_games_of_club(&self, ruleset: &str, club: ClubId) -> Result<Vec<crate::rows::RatedGame>> {
        let ids = self.seats_now()?.club_record_ids(ruleset, club);
        let owned = on_backend!(self, b => b.rated_games_owned(ruleset, club))?;
        Ok(owned.into_iter().filter(|g| ids.contains(g.game.as_str())).collect())
    }

    /// Merges the spelling `from` into the player `into`: both of the games of `club` (`None`: the
    /// operator, who may merge within any one club's players). A player the club may not see is no player.
    pub fn merge_players(&mut self, club: Option<ClubId>, into: PlayerId, from: PlayerId) -> Result<PlayerId> {
        let viewer = club.map_or(Viewer::Operator, Viewer::Club);
        let (into_player, from_player) = (self.visible_player(viewer, into)?, self.visible_player(viewer, from)?);
        let (into_root, into_club) = (into_player.id(), into_player.club().unwrap_or(0));
        let (from_root, from_club) = (from_player.id(), from_player.club().unwrap_or(0));
        for (id, owner) in [(into, into_club), (from, from_club)] {
            if club.is_some_and(|c| c != owner) {
                return Err(StoreError::PlayerNotYours(id));
            }
        }
        if into_club != from_club {
            return Err(StoreError::Invalid(format!(
                "players {into} and {from} are named in different clubs' games: only one club's spellings merge"
            )));
        }
        if into_root == from_root {
            return Err(StoreError::Invalid(format!("players {into} and {from} are one player already")));
        }
        if let Some(game) = on_backend!(self, b => b.shared_game(into_root, from_root))? {
            return Err(StoreError::Invalid(format!(
                "players {into} and {from} sat at one table (game {game}): two people, not two spellings"
            )));
        }
        on_backend!(mut self, b => b.merge_players(into_root, from_root))?;
        self.changed()?;
        Ok(into_root)
    }

    /// Every merge as (the club's name, the spelling merged into, the spelling merged), for a copy.
    pub fn player_merges(&self) -> Result<Vec<(Option<String>, String, String)>> {
        on_backend!(self, b => b.player_merges())
    }

    /// A club's note on a game it may see (or the operator's copy of one), after event `seq`.
    pub fn add_note(&mut self, game: &Visible, seq: u64, club: ClubId, text: &str) -> Result<i64> {
        if ![Viewer::Club(club), Viewer::Operator].contains(&game.viewer()) {
            return Err(StoreError::NotFound(game.id().to_string()));
        }
        on_backend!(mut self, b => b.add_note(game.id(), seq, club, text))
    }

    /// The notes on a game, in the order of the game.
    pub fn notes(&self, game: &Visible) -> Result<Vec<Note>> {
        on_backend!(self, b => b.notes(game.id()))
    }

    /// Keeps a newly trained win-chance model; it is its ruleset's model from now on (older ones stay).
    pub fn save_model(&mut self, model: &WinModel) -> Result<()> {
        on_backend!(mut self, b => b.save_model(model))
    }

    /// A ruleset's newest win-chance model, if it has one.
    pub fn model(&self, ruleset: &str) -> Result<Option<WinModel>> {
        on_backend!(self, b => b.model(ruleset))
    }

    /// Each ruleset's newest model's id (by ruleset): it changes when a model is trained, on any server.
    pub fn newest_models(&self) -> Result<Vec<(String, i64)>> {
        on_backend!(self, b => b.newest_models())
    }
}
