//! A trade between two players, as the Catan family has it (the base game and the card game alike): both
//! give something, every card is named, no resource is on both sides, each gives only what they hold.

use crate::resources::{Bundle, Hand, Resource};
use almanac_core::{Fact, Partner, Seat};
use std::fmt;

/// One side of a trade: who, and the hand the cards leave.
pub struct Party<'a> {
    pub seat: Seat,
    pub name: &'a str,
    pub hand: &'a mut Hand,
}

/// Why two players cannot trade so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TradeRefused {
    Gift { a: String, b: String },
    Unnamed,
    LikeForLike(Resource),
    CannotGive { who: String, cards: Bundle, hand: Hand },
}

impl fmt::Display for TradeRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TradeRefused::Gift { a, b } => {
                write!(f, "{a} and {b}: a trade gives something for something; gifts are not allowed")
            }
            TradeRefused::Unnamed => write!(f, "a trade must name its cards"),
            TradeRefused::LikeForLike(r) => write!(f, "a trade cannot swap like for like ({r} on both sides)"),
            TradeRefused::CannotGive { who, cards, hand } => write!(f, "{who} cannot give {cards}: the hand is {hand}"),
        }
    }
}

/// `a` gives `give` to `b` for `get`: the hands change and each side's `Traded` fact is pushed, or nothing
/// changes.
pub fn exchange(a: Party, b: Party, give: &Bundle, get: &Bundle, facts: &mut Vec<Fact>) -> Result<(), TradeRefused> {
    if give.is_empty() || get.is_empty() {
        return Err(TradeRefused::Gift { a: a.name.to_string(), b: b.name.to_string() });
    }
    if give.unknown > 0 || get.unknown > 0 {
        return Err(TradeRefused::Unnamed);
    }
    if let Some(r) = Resource::ALL.into_iter().find(|&r| give.known[r] > 0 && get.known[r] > 0) {
        return Err(TradeRefused::LikeForLike(r));
    }
    for (party, cards) in [(&a, give), (&b, get)] {
        if !party.hand.can_pay_all(&cards.known) {
            return Err(TradeRefused::CannotGive { who: party.name.to_string(), cards: *cards, hand: *party.hand });
        }
    }
    a.hand.take_all(&give.known);
    b.hand.take_all(&get.known);
    a.hand.add_all(&get.known);
    b.hand.add_all(&give.known);
    facts.push(Fact::Traded { player: a.seat, partner: Partner::Player(b.seat), gave: give.items(), got: get.items() });
    facts.push(Fact::Traded { player: b.seat, partner: Partner::Player(a.seat), gave: get.items(), got: give.items() });
    Ok(())
}
