//! New games stored with a statement per table for all of them: a game alone, or several in one transaction
//! (a bulk import's way, and the server's for uploads that wait together). A game takes thirteen statements
//! (`BEGIN` and `COMMIT` among them), each a round trip, and moves the field's sums once; so does a batch of 32.

use super::events::{rows, run};
use super::*;

/// A new game, with what its rows are made of.
pub(super) struct GameToStore<'a> {
    id: &'a str,
    new: &'a NewGame<'a>,
    ownership: Ownership,
    packed: &'a Packed,
    /// Its final view and fingerprint, made once: its row and its players' rows carry them.
    end: almanac_core::AnyView,
    pub(super) fingerprint: String,
}

impl<'a> GameToStore<'a> {
    /// Game `new`, stored as `id`, owned as `ownership` says; its packed forms made ahead, or `made` here.
    pub(super) fn new(
        id: &'a str,
        new: &'a NewGame<'a>,
        ownership: Ownership,
        made: &'a Option<Packed>,
    ) -> GameToStore<'a> {
        let packed = new.ahead.map(|a| &a.packed).or(made.as_ref()).expect("a game packed ahead or here");
        let (end, fingerprint) = (new.game.view_after(usize::MAX), new.game.fingerprint());
        GameToStore { id, new, ownership, packed, end, fingerprint }
    }
}

impl Postgres {
    /// `insert_game_as` of each game, in the order given, each whole or not at all: in one transaction when
    /// all of them are new and none shares its log or its fingerprint with another (else, or should the
    /// transaction fail, one by one, so that each outcome is its own).
    pub fn insert_games_as(&mut self, games: &[(&str, &NewGame, Ownership)]) -> Result<Vec<Result<Inserted>>> {
        if games.len() > 1 && self.insert_new_together(games).unwrap_or(false) {
            return Ok(games.iter().map(|(id, _, _)| Ok(Inserted::New(id.to_string()))).collect());
        }
        Ok(games.iter().map(|(id, new, ownership)| self.insert_game_as(id, new, *ownership)).collect())
    }

    /// Stores `games` together if every one is new and apart from the others; whether it did.
    fn insert_new_together(&mut self, games: &[(&str, &NewGame, Ownership)]) -> Result<bool> {
        let made: Vec<Option<Packed>> =
            games.iter().map(|(_, new, _)| new.ahead.is_none().then(|| Packed::of(new))).collect();
        let batch: Vec<GameToStore> = games
            .iter()
            .zip(&made)
            .map(|((id, new, ownership), made)| GameToStore::new(id, new, *ownership, made))
            .collect();
        let hashes: Vec<&str> = batch.iter().map(|g| g.new.content_hash).collect();
        let fingerprints: Vec<&str> = batch.iter().map(|g| g.fingerprint.as_str()).collect();
        let apart = |items: &[&str]| items.iter().collect::<std::collections::HashSet<_>>().len() == items.len();
        if !apart(&hashes) || !apart(&fingerprints) {
            return Ok(false);
        }
        let p = &self.prepared;
        let mut client = self.client.borrow_mut();
        let mut tx = client.transaction()?;
        // A log stored before is answered by `insert_game_as` (`Existing`, `TakenElsewhere`); another server
        // storing one of these meanwhile makes the inserts below fail, and the games go one by one.
        // Nor a record of a game stored before: which of its records counts is decided again, one by one.
        if !rows(
            &mut tx,
            p,
            "SELECT 1 FROM games WHERE content_hash = ANY($1) OR fingerprint = ANY($2) LIMIT 1",
            &[&hashes, &fingerprints],
        )?
        .is_empty()
        {
            return Ok(false);
        }
        insert_rows(&mut tx, p, &batch)?;
        tx.commit()?;
        Ok(true)
    }
}

/// The rows of the new games `batch` (one, or several apart from each other: see `insert_new_together`), a
/// statement per table. Their row and players' rows carry their summary from the start (an append or a
/// reproject refreshes it).
pub(super) fn insert_rows(tx: &mut Transaction, p: &Prepared, batch: &[GameToStore]) -> Result<()> {
    let ids: Vec<&str> = batch.iter().map(|g| g.id).collect();
    // The games' rows, with their summary.
    let mut g = GameColumns::default();
    for game in batch {
        g.push(game);
    }
    run(
        tx,
        p,
        "INSERT INTO games (id, content_hash, ruleset, ruleset_version, header, title, played_on, club, location,
                            event_count, turn_count, winner, edition, fingerprint, insights_version, owner, published,
                            unseen)
         SELECT g.id, g.hash, g.ruleset, g.version, g.header, g.title, g.played_on, g.club, g.location, g.events,
                g.turns, g.winner, g.edition, g.fingerprint, $16, g.owner, g.published, g.unseen
         FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[],
                     $9::text[], $10::bigint[], $11::int[], $12::text[], $13::text[], $14::text[], $15::bigint[],
                     $17::bool[], $18::bigint[])
              WITH ORDINALITY AS g(id, hash, ruleset, version, header, title, played_on, club, location, events,
                                   turns, winner, edition, fingerprint, owner, published, unseen, k)
         ORDER BY g.k",
        &[
            &ids,
            &g.hash,
            &g.ruleset,
            &g.version,
            &g.header,
            &g.title,
            &g.played_on,
            &g.club,
            &g.location,
            &g.events,
            &g.turns,
            &g.winner,
            &g.edition,
            &g.fingerprint,
            &g.owner,
            &(almanac_core::insights::VERSION as i32),
            &g.published,
            &g.unseen,
        ],
    )?;
    // Their players: the identities first (one per name and club), then the seats' rows.
    let mut seats = SeatColumns::default();
    for g in batch {
        seats.push(g);
    }
    let SeatColumns { game, seat, name, color, key, club, bot, vp, public } = &seats;
    run(
        tx,
        p,
        "INSERT INTO players (club, name, key)
         SELECT DISTINCT ON (club, key) club, name, key FROM unnest($1::bigint[], $2::text[], $3::text[]) AS p(club, name, key)
         ORDER BY club, key
         ON CONFLICT (club, key) DO NOTHING",
        &[club, name, key],
    )?;
    run(
        tx,
        p,
        "INSERT INTO game_players (game_id, seat, name, color, player_id, bot, vp, vp_public)
         SELECT p.game_id, p.seat, p.name, p.color, pl.id, p.bot, p.vp, p.vp_public
         FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bool[], $8::bigint[],
                     $9::bigint[]) AS p(game_id, seat, name, color, key, club, bot, vp, vp_public)
         JOIN players pl ON pl.club = p.club AND pl.key = p.key",
        &[game, seat, name, color, key, club, bot, vp, public],
    )?;
    // The log's chunks, the facts' batches and the checkpoints, as packed ahead.
    let logged: Vec<&GameToStore> = batch.iter().filter(|g| g.packed.events.events > 0).collect();
    run(
        tx,
        p,
        "INSERT INTO event_chunks (game_id, first_seq, last_seq, turns, lines, text_bytes)
         SELECT game_id, 1, events, turns, lines, text_bytes
         FROM unnest($1::text[], $2::bigint[], $3::bytea[], $4::bytea[], $5::bigint[])
              AS c(game_id, events, turns, lines, text_bytes)",
        &[
            &logged.iter().map(|g| g.id).collect::<Vec<_>>(),
            &logged.iter().map(|g| g.packed.events.events as i64).collect::<Vec<_>>(),
            &logged.iter().map(|g| g.packed.events.turns.as_slice()).collect::<Vec<_>>(),
            &logged.iter().map(|g| g.packed.events.lines.as_slice()).collect::<Vec<_>>(),
            &logged.iter().map(|g| g.packed.events.text_bytes as i64).collect::<Vec<_>>(),
        ],
    )?;
    let with_facts: Vec<&GameToStore> = batch.iter().filter(|g| g.packed.facts.facts > 0).collect();
    run(
        tx,
        p,
        "INSERT INTO fact_batches (game_id, first_seq, facts, packed)
         SELECT game_id, 1, facts, packed FROM unnest($1::text[], $2::bigint[], $3::bytea[]) AS b(game_id, facts, packed)",
        &[
            &with_facts.iter().map(|g| g.id).collect::<Vec<_>>(),
            &with_facts.iter().map(|g| g.packed.facts.facts as i64).collect::<Vec<_>>(),
            &with_facts.iter().map(|g| g.packed.facts.packed.as_slice()).collect::<Vec<_>>(),
        ],
    )?;
    let checkpoints: Vec<(&GameToStore, &(usize, Vec<u8>))> =
        batch.iter().flat_map(|g| g.packed.checkpoints.iter().map(move |c| (g, c))).collect();
    run(
        tx,
        p,
        "INSERT INTO checkpoints (game_id, events, version, state)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::bytea[])",
        &[
            &checkpoints.iter().map(|(g, _)| g.id).collect::<Vec<_>>(),
            &checkpoints.iter().map(|(_, c)| c.0 as i64).collect::<Vec<_>>(),
            &checkpoints.iter().map(|(g, _)| g.new.game.ruleset_version() as i32).collect::<Vec<_>>(),
            &checkpoints.iter().map(|(_, c)| c.1.as_slice()).collect::<Vec<_>>(),
        ],
    )?;
    // The read model: the seats with their openings, then their numbers under the seats' and metrics' keys
    // (the field's sums moved once, by trigger).
    let openings: Vec<(&str, i32, &str)> = batch
        .iter()
        .flat_map(|g| {
            let openings = g.new.insights.openings.iter().enumerate();
            openings.filter_map(move |(seat, o)| Some((g.id, seat as i32, o.as_deref()?)))
        })
        .collect();
    let seat_keys: HashMap<(String, i32), i64> = rows(
        tx,
        p,
        questions::INSERT_SEATS_OF_GAMES,
        &[
            &ids,
            &openings.iter().map(|o| o.0).collect::<Vec<_>>(),
            &openings.iter().map(|o| o.1).collect::<Vec<_>>(),
            &openings.iter().map(|o| o.2).collect::<Vec<_>>(),
        ],
    )?
    .iter()
    .map(|r| ((r.get(1), r.get(2)), r.get(0)))
    .collect();
    // A seat the game does not have has no numbers (as on SQLite).
    let numbers: Vec<(i64, &almanac_core::SeatMetric)> = batch
        .iter()
        .flat_map(|g| g.new.insights.metrics.iter().map(move |m| (g.id, m)))
        .filter_map(|(id, m)| Some((*seat_keys.get(&(id.to_string(), m.seat as i32))?, m)))
        .collect();
    super::insights::insert_numbers(tx, p, &numbers)?;
    let decisions: Vec<(&str, &almanac_core::JudgedDecision)> =
        batch.iter().flat_map(|g| g.new.insights.decisions.iter().map(move |d| (g.id, d))).collect();
    super::insights::insert_decisions(tx, p, &decisions)?;
    // The model their chance numbers were read with, where there was one.
    let (with_model, models): (Vec<&str>, Vec<i64>) =
        batch.iter().filter_map(|g| Some((g.id, g.new.insights.chances_model?))).unzip();
    if !with_model.is_empty() {
        run(
            tx,
            p,
            "UPDATE games SET chances_model = u.model FROM unnest($1::text[], $2::bigint[]) AS u(id, model)
             WHERE games.id = u.id",
            &[&with_model, &models],
        )?;
    }
    Ok(())
}

/// The games' rows as columns, one entry per game (the id aside).
#[derive(Default)]
struct GameColumns<'a> {
    hash: Vec<&'a str>,
    ruleset: Vec<&'a str>,
    version: Vec<i32>,
    header: Vec<&'a str>,
    title: Vec<Option<String>>,
    played_on: Vec<Option<String>>,
    club: Vec<Option<String>>,
    location: Vec<Option<String>>,
    events: Vec<i64>,
    turns: Vec<i32>,
    winner: Vec<Option<String>>,
    edition: Vec<String>,
    fingerprint: Vec<String>,
    owner: Vec<Option<ClubId>>,
    published: Vec<bool>,
    unseen: Vec<i64>,
}

impl<'a> GameColumns<'a> {
    fn push(&mut self, g: &'a GameToStore) {
        let game = g.new.game;
        let env = game.envelope();
        self.hash.push(g.new.content_hash);
        self.ruleset.push(game.ruleset());
        self.version.push(game.ruleset_version() as i32);
        self.header.push(g.new.header_line);
        self.title.push(env.title.clone());
        self.played_on.push(env.date.clone());
        self.club.push(env.club.clone());
        self.location.push(env.location.clone());
        self.events.push(game.event_count() as i64);
        self.turns.push(game.current_turn() as i32);
        self.winner.push(g.end.winner.clone());
        self.edition.push(game.edition());
        self.fingerprint.push(g.fingerprint.clone());
        self.owner.push(g.ownership.club);
        self.published.push(g.ownership.published || g.ownership.club.is_none());
        self.unseen.push(game.unseen() as i64);
    }
}

/// The games' players as columns, one entry per seat.
#[derive(Default)]
struct SeatColumns<'a> {
    game: Vec<&'a str>,
    seat: Vec<i32>,
    name: Vec<String>,
    color: Vec<Option<String>>,
    key: Vec<String>,
    club: Vec<ClubId>,
    bot: Vec<bool>,
    vp: Vec<Option<i64>>,
    public: Vec<Option<i64>>,
}

impl<'a> SeatColumns<'a> {
    fn push(&mut self, g: &'a GameToStore) {
        let game = g.new.game;
        let bots = game.bots();
        for (seat, player) in game.envelope().players.iter().enumerate() {
            self.game.push(g.id);
            self.seat.push(seat as i32);
            // Stored as people read it: one spelling for names typed alike (`almanac_core::normalise_name`).
            self.name.push(almanac_core::normalise_name(&player.name));
            self.color.push(player.color.clone());
            self.key.push(player_key(&player.name));
            self.club.push(g.ownership.club.unwrap_or(0));
            self.bot.push(bots.get(seat).copied().unwrap_or(false));
            self.vp.push(g.end.players.get(seat).map(|p| p.vp as i64));
            self.public.push(g.end.players.get(seat).map(|p| p.vp_public as i64));
        }
    }
}
