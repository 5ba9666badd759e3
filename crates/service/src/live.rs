//! Live games: events appended to a stored game while it is played, at a cost that does not grow with the
//! game's length. The game kept in memory is extended in place, and so is the tally of its numbers for
//! questions; neither is copied nor read again from the first event.

use crate::{load_visible, ServiceError};
use almanac_analysis::insights::Tally;
use almanac_core::Game;
use almanac_store::{Appended, ClubId, Store, StoreError, Visible};

/// A stored game kept in memory: its timeline, and once it has been appended to, the tally of its numbers
/// for questions.
pub struct LiveGame {
    game: Box<dyn Game>,
    tally: Option<Tally>,
}

impl LiveGame {
    /// A game as read: its tally is made by its first append (most games kept are only read).
    pub fn new(game: Box<dyn Game>) -> LiveGame {
        LiveGame { game, tally: None }
    }

    /// A game about to be appended to, its tally made now.
    pub fn counted(game: Box<dyn Game>) -> LiveGame {
        let tally = tally_of(game.as_ref());
        LiveGame { game, tally: Some(tally) }
    }

    pub fn game(&self) -> &dyn Game {
        self.game.as_ref()
    }

    /// About how many bytes it holds (the tally is a few per seat and metric).
    pub fn memory_estimate(&self) -> usize {
        self.game.memory_estimate()
    }
}

fn tally_of(game: &dyn Game) -> Tally {
    let mut tally = Tally::new(game.envelope().players.len(), *game.vocabulary());
    tally.add(&game.fact_rows(0));
    tally
}

/// Brings a game kept in memory up to the stored log (`visible`'s count of events) by the events it has not
/// seen, which another server appended: they are read from the store's chunks that hold them and applied, and
/// the tally grows by their facts, so a server that did not make the last append pays for the new events
/// only, however long the game. A game ahead of `visible`'s count (read from a replica behind this server's
/// own appends) is left as it is: it holds only committed events. Read again whole only when a stored event
/// does not apply to it, which a log that only grows never does.
pub fn catch_up(store: &Store, visible: &Visible, live: &mut LiveGame) -> Result<(), ServiceError> {
    let (have, stored) = (live.game.event_count() as u64, visible.access().events);
    if have >= stored {
        return Ok(());
    }
    let first = have as usize;
    let missing = store.events(visible, have + 1, stored)?;
    let whole = missing.len() as u64 == stored - have && missing.iter().zip(have + 1..).all(|(e, seq)| e.0 == seq);
    // Line numbers as if the events were in the file: the header, then the events.
    let applied =
        whole && missing.iter().enumerate().all(|(k, (_, _, line))| live.game.push_line(first + k + 2, line).is_ok());
    if !applied {
        *live = LiveGame::new(load_visible(store, visible)?);
        return Ok(());
    }
    if (first..live.game.event_count()).any(|i| live.game.withdrawal_of(i).is_some()) {
        // A withdrawal takes facts back: the tally is made again from the events in effect when next needed.
        live.tally = None;
    } else if let Some(tally) = &mut live.tally {
        tally.add(&live.game.fact_rows(first));
        tally.add_times(&crate::entry_times(live.game.as_ref(), first..live.game.event_count()));
    }
    Ok(())
}

/// The game `id` of `club`, if its stored log ends at `expected_seq`: checked before anything is replayed.
fn owned_at(store: &Store, club: ClubId, id: &str, expected_seq: u64) -> Result<Visible, ServiceError> {
    let visible = store.owned(club, id)?;
    // The count the access check read just now (the store checks it again, under the game's lock).
    let stored = visible.access().events;
    if stored != expected_seq {
        return Err(
            StoreError::Conflict { game: visible.id().to_string(), expected: expected_seq, actual: stored }.into()
        );
    }
    Ok(visible)
}

/// Appends event lines to a game of `club`, if its log still ends at `expected_seq`; returns the new number
/// of events. The owner and the sequence number are checked before anything is applied. `live` is the game
/// as a cache holds it, if it holds one: extended when it is the stored log, loaded otherwise; it is left as
/// the stored log is after the call, appended to or not.
pub fn append(
    store: &mut Store,
    club: ClubId,
    id: &str,
    expected_seq: u64,
    lines: &[String],
    live: &mut Option<LiveGame>,
) -> Result<u64, ServiceError> {
    let visible = owned_at(store, club, id, expected_seq)?;
    match live {
        Some(live) => extend(store, club, &visible, expected_seq, lines, live),
        None => {
            let loaded = live.insert(LiveGame::new(load_visible(store, &visible)?));
            extend(store, club, &visible, expected_seq, lines, loaded)
        }
    }
}

/// `append` to a game in memory (loaded again first when it is not the stored log: another server appended).
pub fn append_to(
    store: &mut Store,
    club: ClubId,
    id: &str,
    expected_seq: u64,
    lines: &[String],
    live: &mut LiveGame,
) -> Result<u64, ServiceError> {
    let visible = owned_at(store, club, id, expected_seq)?;
    extend(store, club, &visible, expected_seq, lines, live)
}

/// The append itself, once `visible` is known to be `club`'s game with `expected_seq` events stored.
fn extend(
    store: &mut Store,
    club: ClubId,
    visible: &Visible,
    expected_seq: u64,
    lines: &[String],
    live: &mut LiveGame,
) -> Result<u64, ServiceError> {
    let id = visible.id().to_string();
    catch_up(store, visible, live)?;
    // Another server may have appended since the count was read: then this writer is stale too.
    if live.game.event_count() as u64 != expected_seq {
        let actual = live.game.event_count() as u64;
        return Err(StoreError::Conflict { game: id, expected: expected_seq, actual }.into());
    }
    // Nothing to append: the log stands as it is, and neither store is written to.
    if lines.is_empty() {
        return Ok(expected_seq);
    }
    let first = expected_seq as usize;
    for (k, line) in lines.iter().enumerate() {
        // Line numbers as if the events were in the file: the header, the stored events, then these.
        if let Err(e) = live.game.push_line(first + k + 2, line) {
            live.game.truncate(first);
            return Err(ServiceError::Rejected(e));
        }
    }
    // A withdrawal takes facts back out of the stored numbers: the tally is made again from the events in
    // effect (a fold adds, it cannot subtract).
    if (first..live.game.event_count()).any(|i| live.game.withdrawal_of(i).is_some()) {
        live.tally = None;
    }
    let before = live.tally.get_or_insert_with(|| {
        // Made from the stored events only, then extended by the new ones below.
        let mut tally = Tally::new(live.game.envelope().players.len(), *live.game.vocabulary());
        let stored_rows: Vec<_> = live.game.fact_rows(0).into_iter().filter(|r| r.seq <= first as u64).collect();
        tally.add(&stored_rows);
        tally.add_times(&crate::entry_times(live.game.as_ref(), 0..first));
        tally
    });
    let mut tally = before.clone();
    tally.add(&live.game.fact_rows(first));
    tally.add_times(&crate::entry_times(live.game.as_ref(), first..live.game.event_count()));
    let mut insights = tally.insights();
    // The append that ends the game brings its chance numbers (once: nothing follows the end).
    if live.game.winner().is_some() {
        crate::chances::Models::of(store, live.game.ruleset())?.add_to(&mut insights, live.game.as_ref());
    }
    match store.append_events(
        club,
        &id,
        expected_seq,
        Appended { game: live.game.as_ref(), lines, insights: &insights },
    ) {
        Ok(seq) => {
            live.tally = Some(tally);
            Ok(seq)
        }
        Err(e) => {
            live.game.truncate(first);
            Err(e.into())
        }
    }
}
