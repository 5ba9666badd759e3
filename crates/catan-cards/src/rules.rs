//! The rules of the Catan card game, as one `apply` per event: harvest, trade, build, discard, end of turn.
//! A rejected event may leave the state half-changed: the timeline that called `apply` throws it away.

use crate::cards::{road_trade_rate, Card, LARGEST_ARMY_KNIGHTS, LONGEST_ROAD_ROADS, VP_TO_WIN};
use crate::event::{Event, EventCard, RoadTrade, ROBBER};
use crate::state::{Phase, State};
use crate::vocabulary::{EVENT, LARGEST_ARMY, LONGEST_ROAD, TRADE_BONUS};
use almanac_catan::exchange::{exchange, Party};
use almanac_catan::resources::{Bundle, ResourceCard, Resources};
use almanac_catan::seven;
use almanac_core::Seated;
use almanac_core::{cause, CheckpointError, Fact, Rules, Seat};

use almanac_core::ruleset::{fail, Result};

impl Rules for State {
    type Header = crate::setup::Header;
    type Event = Event;

    const VERSION: u32 = 1;

    fn apply(&mut self, ev: &Event, facts: &mut Vec<Fact>) -> Result {
        if let Some(w) = self.winner {
            return fail(format!(
                "the game is over: {} won with {} VP in turn {}",
                self.name(w),
                self.vp(w),
                self.turn
            ));
        }
        let p = ev.player();
        match (self.phase, ev) {
            (Phase::Harvest, Event::Harvest { draws, .. }) => {
                need_active(self, p, "harvest")?;
                harvest(self, draws, facts)?
            }
            (Phase::Harvest, _) => {
                return fail(format!(
                    "{}'s turn begins with the harvest (everyone draws a resource), not with {}",
                    self.name(self.active),
                    ev.kind()
                ))
            }
            (Phase::Discard, Event::Discard { cards, .. }) => discard(self, p, cards, facts)?,
            (Phase::Discard, _) => {
                return seven::wait_for_discards(self, &self.must_discard, p, ev.kind(), "the Robber")
            }
            (Phase::Play, Event::Harvest { .. }) => {
                return fail(format!("{} already harvested: the harvest opens each turn once", self.name(self.active)))
            }
            (Phase::Play, Event::Trade { with, give, get, bonus, .. }) => {
                need_active(self, p, "trade")?;
                trade(self, *with, give, get, *bonus, facts)?
            }
            (Phase::Play, Event::Build { card, road_trade, refill, event, .. }) => {
                need_active(self, p, "build")?;
                build(self, *card, *road_trade, *refill, event.as_ref(), facts)?
            }
            (Phase::Play, Event::Discard { .. }) => {
                return fail(format!("{} discards, but no Robber is waiting for discards", self.name(p)))
            }
            (Phase::Play, Event::EndTurn { .. }) => {
                need_active(self, p, "end the turn")?;
                end_turn(self, facts)
            }
            (Phase::Over, _) => return fail("the game is over"),
        }
        // The player whose turn it is wins on reaching the target; nobody reaches it in another's turn.
        if self.winner.is_none() && self.vp(self.active) >= VP_TO_WIN {
            self.winner = Some(self.active);
            self.phase = Phase::Over;
            facts.push(Fact::GameOver { winner: Some(self.active) });
        }
        Ok(())
    }

    /// What the header gives: each player's dealt cards and the starting settlement's point.
    fn opening_facts(&self, facts: &mut Vec<Fact>) {
        for seat in self.seats() {
            let hand = self.players[seat as usize].hand;
            for (item, n) in (Bundle { known: hand.known, unknown: hand.unknown }).items() {
                facts.push(Fact::Gained { player: seat, item, count: n, cause: cause::SETUP, from: None });
            }
            score(self, seat, Card::Settlement.name(), 1, facts);
        }
    }
    fn fixed_from(&mut self, initial: &State) -> std::result::Result<(), CheckpointError> {
        if self.players.len() != initial.players.len() {
            return Err(CheckpointError("the checkpoint is of another table".into()));
        }
        self.table = initial.table.clone();
        self.decks = initial.decks.clone();
        Ok(())
    }
}

fn need_active(s: &State, p: Seat, what: &str) -> Result {
    if p != s.active {
        return fail(format!("{} cannot {what} now: it is {}'s turn", s.name(p), s.name(s.active)));
    }
    Ok(())
}

fn check_deck(s: &State) -> Result {
    match s.too_many_resources() {
        Some(problem) => fail(format!("no card comes from nowhere: {problem}")),
        None => Ok(()),
    }
}

/// Gives `who` the cards of `b` from the deck, with their facts.
fn draw(s: &mut State, who: Seat, b: &Bundle, why: &'static str, facts: &mut Vec<Fact>) {
    let hand = &mut s.players[who as usize].hand;
    hand.add_all(&b.known);
    hand.unknown += b.unknown;
    for (item, n) in b.items() {
        facts.push(Fact::Gained { player: who, item, count: n, cause: why, from: None });
    }
}

/// What each player draws at the harvest when only `left` cards remain: one each, starting with the player
/// whose turn it is, then that player's extra cards, until the cards run out.
fn short_harvest(s: &State, left: u32) -> Vec<u32> {
    let n = s.players.len() as Seat;
    let mut got = vec![0; n as usize];
    let mut left = left;
    for k in 0..n {
        let seat = (s.active + k) % n;
        if left > 0 {
            got[seat as usize] = 1;
            left -= 1;
        }
    }
    got[s.active as usize] += left.min(s.harvest(s.active).saturating_sub(1));
    got
}

fn harvest(s: &mut State, draws: &[Bundle], facts: &mut Vec<Fact>) -> Result {
    let full: Vec<u32> = s.seats().map(|seat| s.harvest(seat)).collect();
    let short = s.cards_left().filter(|&left| left < full.iter().sum());
    let dues = match short {
        Some(left) => short_harvest(s, left),
        None => full,
    };
    for seat in s.seats() {
        let (due, got) = (dues[seat as usize], draws[seat as usize].total());
        if got == due {
            continue;
        }
        if let Some(left) = short {
            return fail(format!(
                "only {left} resource cards are left in the deck and its discard pile, drawn one each from {} on, \
                 then {}'s extra cards: {} draws {due}, not {got}",
                s.name(s.active),
                s.name(s.active),
                s.name(seat)
            ));
        }
        if seat != s.active && got == 0 {
            return fail(format!(
                "everyone draws 1 resource at the harvest, not only the player whose turn it is: {} drew nothing",
                s.name(seat)
            ));
        }
        let p = &s.players[seat as usize];
        let rule = if seat == s.active {
            format!(
                "1, +1 for each of {} cities, +2 for each of {} A-side metropolises",
                p.cities,
                if s.side == crate::state::Side::A { p.metropolises } else { 0 }
            )
        } else {
            "everyone but the player whose turn it is draws 1".to_string()
        };
        return fail(format!(
            "{} draws {due} at the harvest of {}'s turn ({rule}), not {got}",
            s.name(seat),
            s.name(s.active)
        ));
    }
    // Starting with the player whose turn it is, as the cards are drawn.
    let n = s.players.len() as Seat;
    for k in 0..n {
        let seat = (s.active + k) % n;
        draw(s, seat, &draws[seat as usize], cause::PRODUCTION, facts);
    }
    check_deck(s)?;
    s.phase = Phase::Play;
    Ok(())
}

fn trade(
    s: &mut State,
    with: Seat,
    give: &Bundle,
    get: &Bundle,
    bonus: Option<ResourceCard>,
    facts: &mut Vec<Fact>,
) -> Result {
    let a = s.active;
    if s.traded {
        return fail(format!("{} already traded this turn (one trade a turn, with one player)", s.name(a)));
    }
    if with == a {
        return fail(format!("{} cannot trade with themselves", s.name(a)));
    }
    let [pa, pb] = s.players.get_disjoint_mut([a as usize, with as usize]).expect("two players, checked above");
    let party = |seat: Seat, hand| Party { seat, name: s.table.name(seat), hand };
    exchange(party(a, &mut pa.hand), party(with, &mut pb.hand), give, get, facts).or_else(|e| fail(e.to_string()))?;
    // The partner draws one card for free, unless none is left to draw.
    let free = match bonus {
        Some(ResourceCard::Known(r)) => Bundle::known(Resources::of(r, 1)),
        Some(ResourceCard::Unknown) => Bundle { known: Resources::NONE, unknown: 1 },
        None if s.cards_left() == Some(0) => Bundle::default(),
        None => {
            return fail(format!(
                "{} draws 1 free resource for trading: name it in `bonus` (`unknown` if unseen)",
                s.name(with)
            ))
        }
    };
    draw(s, with, &free, TRADE_BONUS, facts);
    check_deck(s)?;
    s.traded = true;
    Ok(())
}

/// What a card costs the player, with a road trade if one is used.
fn price(s: &State, card: Card, road_trade: Option<RoadTrade>) -> Result<Resources> {
    let mut cost = card.cost();
    let Some(t) = road_trade else { return Ok(cost) };
    let p = s.active;
    let player = &s.players[p as usize];
    if s.road_traded {
        return fail(format!("{} already used the road trade this turn (once a turn)", s.name(p)));
    }
    if cost[t.instead_of] == 0 {
        return fail(format!(
            "a road trade replaces a resource the {} costs, and {} is not one",
            card.name(),
            t.instead_of
        ));
    }
    if t.give == t.instead_of {
        return fail(format!("a road trade gives another resource than the one it replaces ({})", t.give));
    }
    if player.hand.known[t.instead_of] >= cost[t.instead_of] {
        return fail(format!(
            "a road trade replaces a missing resource, and {} holds the {} the {} costs",
            s.name(p),
            t.instead_of,
            card.name()
        ));
    }
    cost[t.instead_of] -= 1;
    cost[t.give] += road_trade_rate(player.roads);
    Ok(cost)
}

fn build(
    s: &mut State,
    card: Card,
    road_trade: Option<RoadTrade>,
    refill: Option<Card>,
    event: Option<&EventCard>,
    facts: &mut Vec<Fact>,
) -> Result {
    let p = s.active;
    let name = s.name(p).to_string();
    // Where the card comes from, and where it goes.
    if card == Card::Metropolis {
        if s.metropolises_left == 0 {
            return fail("all four Metropolis cards are built");
        }
        if refill.is_some() {
            return fail("a Metropolis comes from its own stack: nothing refills the row");
        }
    } else if !s.row.contains(&card) {
        let row: Vec<&str> = s.row.iter().map(|c| c.name()).collect();
        return fail(format!("no {} card lies in the open row (the row: {})", card.name(), row.join(", ")));
    }
    if let Some(under) = card.covers() {
        if s.players[p as usize].count(under) == 0 {
            return fail(format!(
                "a {} is laid on one of your {}, and {name} has none uncovered",
                card.name(),
                under.plural()
            ));
        }
    }
    match (card, event) {
        (Card::Settlement, None) => return fail("a settlement reveals an event card at once: name it in `event`"),
        (Card::Settlement, Some(_)) | (_, None) => {}
        (_, Some(_)) => return fail("event cards are revealed only when someone builds a settlement"),
    }
    // Payment.
    let cost = price(s, card, road_trade)?;
    let hand = s.players[p as usize].hand;
    if !hand.can_pay_all(&cost) {
        return fail(format!("{name} cannot pay for a {} ({}): the hand is {hand}", card.name(), Bundle::known(cost)));
    }
    s.players[p as usize].hand.take_all(&cost);
    for (r, n) in cost.present() {
        facts.push(Fact::Spent { player: p, item: r.name(), count: n as u32, cause: cause::PURCHASE });
    }
    s.road_traded |= road_trade.is_some();
    // The card joins the tableau, covering the one it is laid on.
    if card == Card::Metropolis {
        s.metropolises_left -= 1;
    } else {
        let at = s.row.iter().position(|&c| c == card).expect("checked above");
        s.row.remove(at);
        refill_row(s, refill)?;
    }
    *s.players[p as usize].count_mut(card) += 1;
    facts.push(Fact::Built { player: p, piece: card.name() });
    if card.points() > 0 {
        score(s, p, card.name(), card.points(), facts);
    }
    if let Some(under) = card.covers() {
        *s.players[p as usize].count_mut(under) -= 1;
        score(s, p, under.name(), -under.points(), facts);
    }
    match card {
        Card::Road => update_special(s, Special::LongestRoad, facts),
        Card::Knight => update_special(s, Special::LargestArmy, facts),
        _ => {}
    }
    if let Some(e) = event {
        reveal(s, e, facts)?;
    }
    Ok(())
}

/// After a purchase from the row: the card that took its place.
fn refill_row(s: &mut State, refill: Option<Card>) -> Result {
    let deck_left = s.decks.buildings.as_ref().map(|declared| {
        declared
            .iter()
            .map(|(c, &n)| n.saturating_sub(s.buildings_out.get(c).copied().unwrap_or(0)) as u32)
            .sum::<u32>()
    });
    let Some(card) = refill else {
        if deck_left.is_some_and(|left| left > 0) {
            return fail(
                "the row is refilled to 5 after each purchase while the building deck lasts: name the `refill` card",
            );
        }
        return Ok(());
    };
    if card == Card::Metropolis {
        return fail("a Metropolis card never lies in the row");
    }
    if let Some(declared) = &s.decks.buildings {
        let (out, held) = (s.buildings_out.get(&card).copied().unwrap_or(0), declared.get(&card).copied().unwrap_or(0));
        if out >= held {
            return fail(format!("the building deck holds {held} {} cards, and all are out", card.name()));
        }
    }
    *s.buildings_out.entry(card).or_insert(0) += 1;
    s.row.push(card);
    Ok(())
}

/// An event card revealed by a settlement.
fn reveal(s: &mut State, e: &EventCard, facts: &mut Vec<Fact>) -> Result {
    if let Some(declared) = s.decks.events.clone() {
        let total: u32 = declared.values().map(|&n| n as u32).sum();
        if s.events_out.values().map(|&n| n as u32).sum::<u32>() >= total {
            // Every event card is out: the deck is shuffled again.
            s.events_out.clear();
        }
        let (out, held) =
            (s.events_out.get(&e.name).copied().unwrap_or(0), declared.get(&e.name).copied().unwrap_or(0));
        if out >= held {
            let names: Vec<String> = declared.iter().map(|(n, c)| format!("{c} {n}")).collect();
            return fail(format!(
                "the event deck holds {held} `{}` card(s), and {out} are out (the deck: {})",
                e.name,
                names.join(", ")
            ));
        }
        *s.events_out.entry(e.name.clone()).or_insert(0) += 1;
    }
    if e.name == ROBBER {
        if !e.effect.is_empty() {
            return fail("the Robber's effect is the discards that follow, each a `discard` event");
        }
        let due: Vec<u8> = s
            .players
            .iter()
            .map(|p| if p.hand.total() > p.robber_limit() { (p.hand.total() / 2) as u8 } else { 0 })
            .collect();
        if due.iter().any(|&d| d > 0) {
            s.must_discard = due;
            s.phase = Phase::Discard;
        }
        return Ok(());
    }
    // Any other event: what the log says it did, checked card by card.
    for (who, _, lose) in &e.effect {
        let hand = s.players[*who as usize].hand;
        if !hand.can_pay_all(lose) {
            return fail(format!(
                "the event `{}` takes {} from {}, whose hand is {hand}",
                e.name,
                Bundle::known(*lose),
                s.name(*who)
            ));
        }
    }
    for (who, gain, lose) in &e.effect {
        s.players[*who as usize].hand.take_all(lose);
        for (r, n) in lose.present() {
            facts.push(Fact::Lost { player: *who, item: r.name(), count: n as u32, cause: EVENT, to: None });
        }
        draw(s, *who, gain, EVENT, facts);
    }
    check_deck(s)
}

fn discard(s: &mut State, p: Seat, cards: &Bundle, facts: &mut Vec<Fact>) -> Result {
    let due = s.must_discard[p as usize];
    let hand = s.players[p as usize].hand;
    if due == 0 {
        return seven::owes_no_discard(s, &s.must_discard, p, hand.total(), s.players[p as usize].robber_limit());
    }
    if cards.total() != due as u32 {
        return fail(format!(
            "{} holds {} cards and must discard {due} (half, rounded down), not {}",
            s.name(p),
            hand.total(),
            cards.total()
        ));
    }
    if cards.unknown > 0 {
        return fail(format!("{}'s discard must name its cards", s.name(p)));
    }
    if !hand.can_pay_all(&cards.known) {
        return fail(format!("{} cannot discard {cards}: the hand is {hand}", s.name(p)));
    }
    s.players[p as usize].hand.take_all(&cards.known);
    for (r, n) in cards.known.present() {
        facts.push(Fact::Lost { player: p, item: r.name(), count: n as u32, cause: cause::DISCARD, to: None });
    }
    s.must_discard[p as usize] = 0;
    if s.must_discard.iter().all(|&d| d == 0) {
        s.phase = Phase::Play;
    }
    Ok(())
}

fn end_turn(s: &mut State, facts: &mut Vec<Fact>) {
    s.active = (s.active + 1) % s.players.len() as Seat;
    s.turn += 1;
    s.phase = Phase::Harvest;
    s.traded = false;
    s.road_traded = false;
    facts.push(Fact::TurnStarted { turn: s.turn, player: s.active });
}

fn score(s: &State, p: Seat, reason: &'static str, delta: i32, facts: &mut Vec<Fact>) {
    let total = s.vp(p);
    facts.push(Fact::Score { player: p, reason, delta, delta_public: delta, total, public: total });
}

#[derive(Clone, Copy)]
enum Special {
    LongestRoad,
    LargestArmy,
}

/// Moves a special card if the counts say so: to the first to reach its minimum, later only to a player
/// with strictly more than the holder.
fn update_special(s: &mut State, which: Special, facts: &mut Vec<Fact>) {
    let (counts, minimum, current, name) = match which {
        Special::LongestRoad => (s.road_counts(), LONGEST_ROAD_ROADS, s.longest_road, LONGEST_ROAD),
        Special::LargestArmy => (s.knight_counts(), LARGEST_ARMY_KNIGHTS, s.largest_army, LARGEST_ARMY),
    };
    let holder = s.special_holder(current, &counts, minimum);
    if holder == current {
        return;
    }
    match which {
        Special::LongestRoad => s.longest_road = holder,
        Special::LargestArmy => s.largest_army = holder,
    }
    facts.push(Fact::Award { award: name, from: current, to: holder });
    if let Some(f) = current {
        score(s, f, name, -2, facts);
    }
    if let Some(t) = holder {
        score(s, t, name, 2, facts);
    }
}
