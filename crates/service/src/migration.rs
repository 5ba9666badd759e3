//! A whole store copied into another (SQLite to PostgreSQL and back), every game checked on the way.

use crate::chances;
use crate::error::{Result, ServiceError};
use crate::reading::read_stored;
use crate::uploads::insights_from;
use almanac_engine::GAMES;
use almanac_store::Ownership;
use almanac_store::StoredGame;
use almanac_store::{NewGame, Store};

/// What `migrate` copied, and what it found when it compared the two databases.
#[derive(Debug, Default)]
pub struct Migrated {
    pub clubs: usize,
    pub tokens: usize,
    /// Games copied now (a game already in the target is left as it is).
    pub games: usize,
    /// Win-chance models copied (each ruleset's newest).
    pub models: usize,
    /// Games in both databases (copied now or before), of the source's `of` games; their events.
    pub total: usize,
    pub of: usize,
    pub events: u64,
    /// Games whose copy differs (content hash, events, owner, published, deleted), with why.
    pub mismatches: Vec<String>,
    /// Games the target would not take, and why: the others are copied all the same, and a migration run
    /// again tries these again.
    pub failed: Vec<(String, ServiceError)>,
}

/// Copies a database into another (a club's SQLite file into the federation's PostgreSQL): clubs, tokens
/// (as hashes), and every game by its stored log — read and validated again, stored under its own id, with
/// its owner, publication and deletion — then compares the two, game by game (content hash and events).
/// Games already in `to` are not copied again, so a migration interrupted may be run again.
pub fn migrate(from: &Store, to: &mut Store, mut progress: impl FnMut(&str)) -> Result<Migrated, ServiceError> {
    let mut report = Migrated::default();
    for club in from.clubs()? {
        if to.club_by_name(&club.name).is_err() {
            to.create_club(&club.name)?;
            report.clubs += 1;
        }
    }
    let have: std::collections::HashSet<String> = to.token_records()?.into_iter().map(|t| t.hash).collect();
    for token in from.token_records()?.into_iter().filter(|t| !have.contains(&t.hash)) {
        let club = to.club_by_name(&token.club)?;
        let id = to.add_token(club.id, &token.hash, &token.label)?;
        if token.revoked {
            to.revoke_token(id)?;
        }
        report.tokens += 1;
    }
    // Each ruleset's win-chance model, the newest, unless the copy holds the same one already.
    for kind in GAMES.iter() {
        if let Some(model) = from.model(kind.id())? {
            if to.model(kind.id())?.is_none_or(|m| m.body != model.body) {
                to.save_model(&model)?;
                report.models += 1;
            }
        }
    }
    let copied: std::collections::HashSet<String> = to.stored_games()?.into_iter().map(|g| g.id).collect();
    let games = from.stored_games()?;
    for g in games.iter().filter(|g| !copied.contains(&g.id)) {
        match copy_game(from, to, g) {
            Ok(()) => report.games += 1,
            Err(e) => report.failed.push((g.id.clone(), e)),
        }
        progress(&g.id);
    }
    // The coaches' notes, by club name (the copy's are stamped when copied), on the games copied.
    for g in &games {
        let Ok(copy) = to.stored(&g.id) else { continue };
        let have: Vec<(u64, String, String)> = to.notes(&copy)?.into_iter().map(|n| (n.seq, n.club, n.text)).collect();
        for n in from.notes(&from.stored(&g.id)?)? {
            if !have.contains(&(n.seq, n.club.clone(), n.text.clone())) {
                let club = to.club_by_name(&n.club)?.id;
                if let Err(e) = to.add_note(&copy, n.seq, club, &n.text) {
                    report.failed.push((format!("{}: a note of {}", g.id, n.club), e.into()));
                }
            }
        }
    }
    // The merges of spellings, by club and name: the copy's players are the same people.
    let merged: std::collections::HashSet<_> = to.player_merges()?.into_iter().collect();
    for m in from.player_merges()?.into_iter().filter(|m| !merged.contains(m)) {
        let (club, into, from_name) = &m;
        let club = match club {
            Some(name) => Some(to.club_by_name(name)?.id),
            None => None,
        };
        if let (Some(a), Some(b)) = (to.player_named(club, into)?, to.player_named(club, from_name)?) {
            if a != b {
                to.merge_players(None, a, b)?;
            }
        }
    }
    let sorted = |mut v: Vec<(Option<String>, String, String)>| {
        v.sort();
        v
    };
    if sorted(to.player_merges()?) != sorted(from.player_merges()?) {
        report.mismatches.push("the merges of players' spellings differ".into());
    }
    let copies: std::collections::HashMap<String, almanac_store::StoredGame> =
        to.stored_games()?.into_iter().map(|g| (g.id.clone(), g)).collect();
    for g in &games {
        match copies.get(&g.id) {
            Some(copy) if copy == g => {}
            Some(copy) => report.mismatches.push(format!("{}: {copy:?} against {g:?}", g.id)),
            None if report.failed.iter().any(|(id, _)| id == &g.id) => continue,
            None => {
                report.mismatches.push(format!("{}: not copied", g.id));
                continue;
            }
        }
        report.total += 1;
        report.events += g.events;
    }
    report.of = games.len();
    Ok(report)
}

/// Copies one stored game into another database: its log read and validated again, stored under its id,
/// with its owner, publication and deletion.
pub(crate) fn copy_game(from: &Store, to: &mut Store, g: &StoredGame) -> Result<(), ServiceError> {
    let (header, events) = from.log(&from.stored(&g.id)?)?;
    let game = read_stored(&g.id, header.clone(), events.clone())?;
    let owner = match &g.owner {
        Some(name) => Some(to.club_by_name(name)?.id),
        None => None,
    };
    let lines: Vec<&str> = events.iter().map(String::as_str).collect();
    let ownership = Ownership { club: owner, published: g.published };
    let facts = game.fact_rows(0);
    let mut insights = insights_from(game.as_ref(), &facts);
    // The copy's own model (copied before the games): the numbers name it, so the copy's games are current.
    chances::Models::of(to, game.ruleset())?.add_to(&mut insights, game.as_ref());
    let new = NewGame {
        game: game.as_ref(),
        header_line: &header,
        event_lines: &lines,
        content_hash: &g.content_hash,
        facts: &facts,
        insights: &insights,
        ahead: None,
    };
    to.insert_game_as(&g.id, &new, ownership)?;
    if g.deleted {
        if let Some(club) = owner {
            to.delete_game(club, &g.id)?;
        }
    }
    Ok(())
}
