//! Players' ratings across games: Weng-Lin, the Bayesian approximation behind OpenSkill, which rates a game
//! of any number of players from their finishing places in one closed-form step (TrueSkill needs an
//! iterative factor graph for the same, and was long patented). Each player is a team of one; players level
//! share a place. A rating is shown as `mu − 3·sigma`, low while little is known of a player.

use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;
use std::collections::BTreeMap;

/// One game: each player (an id) and their place (1 = first).
#[derive(Debug, Clone)]
pub struct Placing {
    pub players: Vec<(i64, u32)>,
}

/// What is known of a player's skill.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
}

impl Rating {
    /// The rating shown: sure to be below the skill with high probability.
    pub fn shown(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}

impl From<WengLinRating> for Rating {
    fn from(r: WengLinRating) -> Rating {
        Rating { mu: r.rating, sigma: r.uncertainty }
    }
}

/// Every player's rating after the games, and its history: the rating after each of the player's games
/// (with the game's index in the input).
#[derive(Debug, Clone, Default)]
pub struct Ratings {
    pub current: BTreeMap<i64, Rating>,
    pub history: BTreeMap<i64, Vec<(usize, Rating)>>,
    pub games: BTreeMap<i64, u32>,
}

/// Rates `games` in the order given (the order they were played).
pub fn rate(games: &[Placing]) -> Ratings {
    let config = WengLinConfig::new();
    let mut known: BTreeMap<i64, WengLinRating> = BTreeMap::new();
    let mut out = Ratings::default();
    for (i, g) in games.iter().enumerate() {
        if g.players.len() < 2 {
            continue;
        }
        let before: Vec<[WengLinRating; 1]> =
            g.players.iter().map(|(p, _)| [known.get(p).copied().unwrap_or_default()]).collect();
        let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = before
            .iter()
            .zip(&g.players)
            .map(|(r, &(_, place))| (&r[..], MultiTeamOutcome::new(place as usize)))
            .collect();
        let after = weng_lin_multi_team(&teams, &config);
        for ((p, _), team) in g.players.iter().zip(after) {
            let r = team[0];
            known.insert(*p, r);
            out.history.entry(*p).or_default().push((i, r.into()));
            *out.games.entry(*p).or_default() += 1;
        }
    }
    out.current = known.into_iter().map(|(p, r)| (p, r.into())).collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(places: &[(i64, u32)]) -> Placing {
        Placing { players: places.to_vec() }
    }

    #[test]
    fn a_player_who_keeps_winning_rises_above_one_who_keeps_losing() {
        let games: Vec<Placing> = (0..10).map(|_| game(&[(1, 1), (2, 2), (3, 3), (4, 4)])).collect();
        let r = rate(&games);
        let shown = |p| r.current[&p].shown();
        assert!(shown(1) > shown(2) && shown(2) > shown(3) && shown(3) > shown(4), "{:?}", r.current);
        assert!(r.current[&1].sigma < 25.0 / 3.0, "uncertainty falls as games are played");
        assert_eq!(r.history[&1].len(), 10);
        assert_eq!(r.games[&4], 10);
    }

    #[test]
    fn players_level_move_alike_and_a_one_player_game_rates_nobody() {
        let r = rate(&[game(&[(1, 1), (2, 1), (3, 3)]), game(&[(9, 1)])]);
        assert!((r.current[&1].mu - r.current[&2].mu).abs() < 1e-9);
        assert!(!r.current.contains_key(&9));
    }
}
