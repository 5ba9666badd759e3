//! A trade between two players, as the Catan family has it (the base game, the card game, Cities & Knights
//! with its commodities): both give something, every card is named, no kind is on both sides, each gives
//! only what they hold. Generic over what a hand holds, so every game of the family trades by these rules.

use crate::resources::{Bundle, Hand, Pile, Resource, Tally};
use almanac_core::{Fact, Partner, Seat};
use std::fmt;

/// Cards named in a trade.
pub trait Offer: fmt::Display {
    fn is_empty(&self) -> bool;
    /// Some cards are of a kind nobody saw.
    fn has_unknown(&self) -> bool;
    /// A kind on both sides, by name.
    fn shared_kind(&self, other: &Self) -> Option<&'static str>;
    /// The cards by name: the words of facts.
    fn items(&self) -> Vec<(&'static str, u32)>;
}

/// A hand that offers are paid from and into.
pub trait Holding<O: Offer>: fmt::Display {
    fn can_give(&self, cards: &O) -> bool;
    fn give(&mut self, cards: &O);
    fn receive(&mut self, cards: &O);
}

impl Offer for Bundle {
    fn is_empty(&self) -> bool {
        Bundle::is_empty(self)
    }
    fn has_unknown(&self) -> bool {
        self.unknown > 0
    }
    fn shared_kind(&self, other: &Bundle) -> Option<&'static str> {
        Resource::ALL.into_iter().find(|&r| self.known[r] > 0 && other.known[r] > 0).map(Resource::name)
    }
    fn items(&self) -> Vec<(&'static str, u32)> {
        Bundle::items(self)
    }
}

impl Holding<Bundle> for Hand {
    fn can_give(&self, cards: &Bundle) -> bool {
        self.can_pay_all(&cards.known)
    }
    fn give(&mut self, cards: &Bundle) {
        self.take_all(&cards.known);
    }
    fn receive(&mut self, cards: &Bundle) {
        self.add_all(&cards.known);
    }
}

/// Any game's cards: a hand gives from and takes into its own kind of pile.
impl<T: Tally> Offer for Pile<T> {
    fn is_empty(&self) -> bool {
        Pile::is_empty(self)
    }
    fn has_unknown(&self) -> bool {
        self.unknown > 0
    }
    fn shared_kind(&self, other: &Pile<T>) -> Option<&'static str> {
        T::kinds().iter().find(|&&k| self.known.count(k) > 0 && other.known.count(k) > 0).map(|&k| T::name(k))
    }
    fn items(&self) -> Vec<(&'static str, u32)> {
        Pile::items(self)
    }
}

impl<T: Tally> Holding<Pile<T>> for Pile<T> {
    fn can_give(&self, cards: &Pile<T>) -> bool {
        Pile::can_give(self, cards)
    }
    fn give(&mut self, cards: &Pile<T>) {
        Pile::give(self, cards)
    }
    fn receive(&mut self, cards: &Pile<T>) {
        Pile::receive(self, cards)
    }
}

/// One side of a trade: who, and the hand the cards leave.
pub struct Party<'a, H> {
    pub seat: Seat,
    pub name: &'a str,
    pub hand: &'a mut H,
}

/// Why two players cannot trade so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TradeRefused {
    Gift { a: String, b: String },
    Unnamed,
    LikeForLike(&'static str),
    CannotGive { who: String, cards: String, hand: String },
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
pub fn exchange<O: Offer, H: Holding<O>>(
    a: Party<H>,
    b: Party<H>,
    give: &O,
    get: &O,
    facts: &mut Vec<Fact>,
) -> Result<(), TradeRefused> {
    if give.is_empty() || get.is_empty() {
        return Err(TradeRefused::Gift { a: a.name.to_string(), b: b.name.to_string() });
    }
    if give.has_unknown() || get.has_unknown() {
        return Err(TradeRefused::Unnamed);
    }
    if let Some(kind) = give.shared_kind(get) {
        return Err(TradeRefused::LikeForLike(kind));
    }
    for (party, cards) in [(&a, give), (&b, get)] {
        if !party.hand.can_give(cards) {
            return Err(TradeRefused::CannotGive {
                who: party.name.to_string(),
                cards: cards.to_string(),
                hand: party.hand.to_string(),
            });
        }
    }
    a.hand.give(give);
    b.hand.give(get);
    a.hand.receive(get);
    b.hand.receive(give);
    facts.push(Fact::Traded { player: a.seat, partner: Partner::Player(b.seat), gave: give.items(), got: get.items() });
    facts.push(Fact::Traded { player: b.seat, partner: Partner::Player(a.seat), gave: get.items(), got: give.items() });
    Ok(())
}
