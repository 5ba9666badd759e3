//! What an event derived, in words: the points it scored, what it produced, the moments it was. Read from
//! its facts and the game's vocabulary, so the server's event list and the browser's own game (the table
//! recorder while offline) say the same.

use crate::{Fact, Game};

/// Event `i`'s consequences in words, each part empty when it had none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Derived {
    /// The score changes: who, how many points, and what for ("Kerem +2 for city").
    pub scores: Vec<String>,
    /// What each player received by production, in seat order: the name, then how many of each item.
    pub production: Vec<String>,
    /// The moments the game declares, and awards changing hands ("Ayşe takes the Longest Road").
    pub moments: Vec<String>,
}

/// What event `i` (0-based) of `game` derived.
pub fn derived(game: &dyn Game, i: usize) -> Derived {
    let players = &game.envelope().players;
    let name = |p: u8| players.get(p as usize).map_or("?", |p| p.name.as_str());
    let vocabulary = game.vocabulary();
    let facts = game.event_facts(i);
    let mut out = Derived::default();
    // Production per seat, each item once in the order it came.
    let mut produced: Vec<(u8, Vec<(&'static str, u32)>)> = Vec::new();
    for fact in facts {
        match fact {
            Fact::Score { player, reason, delta, .. } if *delta != 0 => {
                let why =
                    vocabulary.score_reason(reason).map_or_else(|| reason.replace('_', " "), |t| t.label.to_string());
                out.scores.push(format!("{} {delta:+} for {why}", name(*player)));
            }
            Fact::Gained { player, item, count, cause, .. } if *cause == crate::cause::PRODUCTION && *count > 0 => {
                let seat = match produced.iter().position(|(p, _)| p == player) {
                    Some(k) => k,
                    None => {
                        produced.push((*player, Vec::new()));
                        produced.len() - 1
                    }
                };
                let items = &mut produced[seat].1;
                match items.iter_mut().find(|(it, _)| it == item) {
                    Some((_, n)) => *n += count,
                    None => items.push((item, *count)),
                }
            }
            Fact::Moment { moment, player } => {
                let label = vocabulary.moments.iter().find(|t| t.id == *moment).map_or(*moment, |t| t.label);
                out.moments.push(match player {
                    Some(p) => format!("{label} ({})", name(*p)),
                    None => label.to_string(),
                });
            }
            Fact::Award { award, to: Some(to), .. } => {
                let label = vocabulary.awards.iter().find(|t| t.id == *award).map_or(*award, |t| t.label);
                out.moments.push(format!("{} takes the {label}", name(*to)));
            }
            _ => {}
        }
    }
    produced.sort_by_key(|(p, _)| *p);
    out.production = produced
        .into_iter()
        .map(|(p, items)| {
            let items: Vec<String> = items
                .into_iter()
                .map(|(item, n)| format!("{n} {}", vocabulary.item(item).map_or(item, |t| t.label)))
                .collect();
            format!("{} {}", name(p), items.join(", "))
        })
        .collect();
    out
}
