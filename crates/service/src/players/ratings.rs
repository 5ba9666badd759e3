//! Ratings: every ruleset's, rated again only when its published games changed, and its leaderboard.

use super::seats::{place_among, visible};
use crate::ServiceError;
use almanac_analysis::ratings::{rate, Placing, Ratings};
use almanac_store::{ClubId, PlayerId, Store, StoreError, Viewer};
use serde::Serialize;
use std::collections::BTreeMap;

/// A player's rating in one game, and how it went.
#[derive(Debug, Clone, Serialize)]
pub struct RatingLine {
    pub ruleset: String,
    pub name: String,
    /// The rating shown: `mu − 3·sigma`.
    pub rating: f64,
    pub mu: f64,
    pub sigma: f64,
    /// The place among the established players of this ruleset (1 = highest), as the leaderboard ranks them;
    /// none while the rating is provisional.
    pub rank: Option<u32>,
    /// How many players are rated in this ruleset (established or not).
    pub rated: u32,
    /// The games still to play before the rating is established (0 once it is).
    pub games_needed: u32,
    /// The rating after each of the player's games, `[game number, rating]`.
    pub history: Vec<[f64; 2]>,
    /// The day each of those games was played (`None`: undated).
    pub dates: Vec<Option<String>>,
}

/// One line of a leaderboard.
#[derive(Debug, Clone, Serialize)]
pub struct Leader {
    pub player: PlayerId,
    pub name: String,
    /// mu − 3·sigma: what the player has shown at least.
    pub rating: f64,
    /// How uncertain the rating still is (it narrows as games are played).
    pub sigma: f64,
    pub games: u32,
    /// Every seat of the player was a program's.
    pub bot: bool,
    /// Rated over fewer than `PROVISIONAL_GAMES` games: listed after every established player.
    pub provisional: bool,
    /// The games still to play before the rating is established (0 once it is).
    pub games_needed: u32,
}

/// Fewer games than this and a rating is provisional: shown, greyed, not trusted.
pub const PROVISIONAL_GAMES: u32 = 5;

/// Every ruleset's ratings, computed once for each state of its published games and shared by every request:
/// a page asks the store for the ruleset's revision (which moves whenever a seat of its games is made or
/// changed) and rates the games again only when it moved. Rating is in game order, so a game stored late can move
/// every rating after it: computing them all again is the simple way to stay right.
#[derive(Default)]
pub struct RatingsMemo {
    /// By ruleset and club (`None`: the public's games): the revision rated, and the ratings.
    by_ruleset: std::sync::Mutex<BTreeMap<RatedIn, (i64, std::sync::Arc<Ratings>)>>,
}

/// A ruleset, and the club whose own records are rated (`None`: the public's games).
type RatedIn = (String, Option<ClubId>);

impl RatingsMemo {
    /// Every player's rating in a ruleset, over the games that count for the public.
    pub fn ratings(&self, store: &Store, ruleset: &str) -> Result<std::sync::Arc<Ratings>, ServiceError> {
        self.ratings_in(store, ruleset, None)
    }

    /// The ratings over the public's games, or over one club's own records of them (`club`): each game it
    /// recorded or uploaded, once, whether or not its record is the one that counts for the public.
    pub fn ratings_in(
        &self,
        store: &Store,
        ruleset: &str,
        club: Option<ClubId>,
    ) -> Result<std::sync::Arc<Ratings>, ServiceError> {
        let print = store.ruleset_revision(ruleset)?;
        let key = (ruleset.to_string(), club);
        let known = self.by_ruleset.lock().expect("no panic while held").get(&key).cloned();
        if let Some((_, ratings)) = known.filter(|(seen, _)| *seen == print) {
            return Ok(ratings);
        }
        let games = match club {
            None => store.rated_games(ruleset)?,
            Some(c) => store.rated_games_of_club(ruleset, c)?,
        };
        let ratings = std::sync::Arc::new(ratings_of(&games));
        self.by_ruleset.lock().expect("no panic while held").insert(key, (print, ratings.clone()));
        Ok(ratings)
    }
}

/// Every player's rating over `games`, in the order they were played.
fn ratings_of(games: &[almanac_store::RatedGame]) -> Ratings {
    let placings: Vec<Placing> = games
        .iter()
        .map(|g| {
            let scores: Vec<Option<i64>> = g.seats.iter().map(|(_, vp)| *vp).collect();
            Placing { players: (0..g.seats.len()).map(|i| (g.seats[i].0, place_among(&scores, i))).collect() }
        })
        .collect();
    rate(&placings)
}

/// The players of a ruleset by rating, highest first: all of them, or those of one club's games.
pub fn leaderboard(
    store: &Store,
    viewer: Viewer,
    ruleset: &str,
    club: Option<&str>,
    bots: bool,
    memo: &RatingsMemo,
) -> Result<Vec<Leader>, ServiceError> {
    // A club's players are rated over its own records, so that a game it recorded counts for them even where
    // another club's record of it counts for the public.
    let club_id = match club.map(|c| store.club_by_name(c)) {
        Some(Ok(c)) => Some(c.id),
        // No such club: no players of its games.
        Some(Err(StoreError::NotFound(_))) => return Ok(Vec::new()),
        Some(Err(e)) => return Err(e.into()),
        None => None,
    };
    let all = memo.ratings_in(store, ruleset, club_id)?;
    let mut out = Vec::new();
    for (&player, r) in &all.current {
        let who = match visible(store, viewer, player) {
            Ok((_, who)) => who,
            Err(ServiceError::Store(StoreError::NoPlayer(_))) => continue,
            Err(e) => return Err(e),
        };
        if club.is_some_and(|c| who.club.as_deref() != Some(c)) || (who.bot && !bots) {
            continue;
        }
        let games = all.games[&player];
        out.push(Leader {
            player,
            name: who.name,
            rating: r.shown(),
            sigma: r.sigma,
            games,
            bot: who.bot,
            provisional: games < PROVISIONAL_GAMES,
            games_needed: PROVISIONAL_GAMES.saturating_sub(games),
        });
    }
    // Established players first, by the conservative rating; the provisional after them, whose few games
    // could put them anywhere.
    out.sort_by(|a, b| a.provisional.cmp(&b.provisional).then(b.rating.total_cmp(&a.rating)).then(a.name.cmp(&b.name)));
    Ok(out)
}
