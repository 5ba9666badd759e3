//! The roll of three dice, in the seed's order: the event die (the barbarian ship, or a city gate whose
//! colour lets players draw progress cards by the red die), then production by both dice; a 7 makes full
//! hands discard and, once the barbarians have attacked, moves the robber.

use crate::cards::{Bundle, Card, Commodity};
use crate::event::Draw;
use crate::progress::{draws, HeldCard, Track};
use crate::rules::build::{from_bank, pillage};
use crate::rules::checks::{fail, Result};
use crate::rules::points::score;
use crate::state::{EventDie, Phase, State, BARBARIAN_SPACES, MAX_PROGRESS};
use crate::vocabulary::{AQUEDUCT, BATTLE_LOST, BATTLE_WON, DEFENDER, PROGRESS_CARD, PROGRESS_POINT};
use almanac_catan::board::{HexId, VertexId};
use almanac_catan::resources::Resource;
use almanac_core::Seated;
use almanac_core::{cause, Dice, Fact, Seat};

/// What a roll's record says besides the dice: the cards drawn, the cities the barbarians took, the
/// Aqueduct's resources.
pub struct Recorded<'a> {
    pub drawn: &'a [Draw],
    pub pillaged: &'a [(Seat, VertexId)],
    pub aqueduct: &'a [(Seat, Resource)],
}

/// The roll, with what it brings.
pub fn roll(
    s: &mut State,
    p: Seat,
    event: EventDie,
    dice: [u8; 2],
    recorded: Recorded,
    facts: &mut Vec<Fact>,
) -> Result {
    let Recorded { drawn, pillaged, aqueduct } = recorded;
    if s.phase != Phase::BeforeRoll {
        return fail(format!("{} has rolled this turn already", s.name(p)));
    }
    if let Some(fixed) = s.alchemist {
        if fixed != dice {
            return fail(format!(
                "the Alchemist set the dice to red {} and white {}; the roll says red {} and white {}",
                fixed[0], fixed[1], dice[0], dice[1]
            ));
        }
    }
    promise(s, facts);
    facts.push(Fact::Rolled { player: p, dice: Dice::new(&dice) });
    let [red, white] = dice;
    // Who draws which colour, in order: the gate's players clockwise from the roller, or the tied
    // defenders (colour of their choice) after an attack.
    let mut owed: Vec<(Seat, Option<Track>)> = Vec::new();
    let mut attack_losers: Vec<Seat> = Vec::new();
    match event {
        EventDie::Ship => {
            s.barbarians += 1;
            if s.barbarians >= BARBARIAN_SPACES {
                attack(s, p, &mut owed, &mut attack_losers, facts);
            }
        }
        EventDie::Gate(t) => {
            for q in s.clockwise_from(p) {
                if draws(s.player(q).level(t), red) {
                    owed.push((q, Some(t)));
                }
            }
        }
    }
    apply_pillage(s, &attack_losers, pillaged, facts)?;
    apply_draws(s, &owed, drawn, facts)?;
    let sum = red + white;
    if sum == 7 {
        if !aqueduct.is_empty() {
            return fail("the Aqueduct gives nothing on a 7");
        }
        for q in s.seats() {
            let held = s.player(q).hand.total();
            s.must_discard[q as usize] = if held > s.discard_limit(q) { (held / 2) as u8 } else { 0 };
        }
        s.phase = if s.must_discard.iter().any(|&n| n > 0) { Phase::Discard } else { after_discards(s) };
    } else {
        let gained = produce(s, sum, facts);
        aqueduct_choices(s, &gained, aqueduct, facts)?;
        s.phase = Phase::Main;
    }
    Ok(())
}

/// The barbarians land: cities against active knights, ties to Catan.
fn attack(
    s: &mut State,
    roller: Seat,
    owed: &mut Vec<(Seat, Option<Track>)>,
    losers: &mut Vec<Seat>,
    facts: &mut Vec<Fact>,
) {
    let barbarians = s.cities_on_board();
    let strength: Vec<u32> = s.seats().map(|q| s.active_strength(q)).collect();
    let defence: u32 = strength.iter().sum();
    facts.push(Fact::Moment { moment: if barbarians > defence { BATTLE_LOST } else { BATTLE_WON }, player: None });
    if barbarians > defence {
        // The lowest contributors among those with a city the barbarians can take.
        let exposed: Vec<Seat> = s.seats().filter(|&q| !s.plain_cities(q).is_empty()).collect();
        if let Some(low) = exposed.iter().map(|&q| strength[q as usize]).min() {
            losers.extend(exposed.into_iter().filter(|&q| strength[q as usize] == low));
        }
    } else {
        let high = strength.iter().copied().max().unwrap_or(0);
        let top: Vec<Seat> = s.seats().filter(|&q| high > 0 && strength[q as usize] == high).collect();
        if let [defender] = top[..] {
            s.players[defender as usize].defenders += 1;
            score(s, defender, DEFENDER, 1, facts);
        } else {
            owed.extend(s.clockwise_from(roller).filter(|q| top.contains(q)).map(|q| (q, None)));
        }
    }
    for k in s.knights.iter_mut().flatten() {
        k.active = false;
    }
    s.barbarians = 0;
    s.attacks += 1;
}

fn apply_pillage(s: &mut State, losers: &[Seat], pillaged: &[(Seat, VertexId)], facts: &mut Vec<Fact>) -> Result {
    let named: Vec<Seat> = pillaged.iter().map(|&(q, _)| q).collect();
    if named != losers {
        let names = |v: &[Seat]| v.iter().map(|&q| s.name(q).to_string()).collect::<Vec<_>>().join(", ");
        return fail(format!(
            "the barbarians take a city from {}, but the roll names {}",
            if losers.is_empty() { "nobody".into() } else { names(losers) },
            if named.is_empty() { "nobody".into() } else { names(&named) }
        ));
    }
    for &(q, v) in pillaged {
        if !s.plain_cities(q).contains(&v) {
            return fail(format!(
                "the barbarians take one of {}'s cities without a metropolis, and {} is not one",
                s.name(q),
                s.board.vertex_label(v)
            ));
        }
        pillage(s, q, v, facts);
    }
    Ok(())
}

/// The recorded draws against the owed ones, in order.
fn apply_draws(s: &mut State, owed: &[(Seat, Option<Track>)], drawn: &[Draw], facts: &mut Vec<Fact>) -> Result {
    let mut i = 0;
    for &(q, colour) in owed {
        let track = match colour {
            Some(t) => t,
            None => match drawn.get(i) {
                Some(d) if d.player == q => d.card.track,
                _ => {
                    return fail(format!(
                        "{} draws a progress card of their choice of colour; the roll does not say which",
                        s.name(q)
                    ))
                }
            },
        };
        if s.decks[track as usize] == 0 {
            continue;
        }
        let Some(d) = drawn.get(i) else {
            return fail(format!("{} draws a {} progress card; the roll does not say it", s.name(q), track.colour()));
        };
        if d.player != q || d.card.track != track {
            return fail(format!(
                "the next progress card goes to {} ({}), not to {} ({})",
                s.name(q),
                track.colour(),
                s.name(d.player),
                d.card.track.colour()
            ));
        }
        draw_card(s, q, d.card, d.returned, facts)?;
        i += 1;
    }
    if let Some(d) = drawn.get(i) {
        return fail(format!("{} draws no progress card on this roll", s.name(d.player)));
    }
    Ok(())
}

/// `q` draws `card` from its colour's deck; a victory point card is shown at once; a fifth card drawn
/// outside `q`'s turn goes back under its deck (`returned`).
pub fn draw_card(s: &mut State, q: Seat, card: HeldCard, returned: Option<HeldCard>, facts: &mut Vec<Fact>) -> Result {
    let t = card.track;
    if s.decks[t as usize] == 0 {
        return fail(format!("the {} progress deck is empty", t.colour()));
    }
    if let Some(c) = card.card {
        if s.known_copies(c) >= c.count() as usize {
            return fail(format!("all {} {c} cards are already in players' hands", c.count()));
        }
    }
    s.decks[t as usize] -= 1;
    facts.push(Fact::Gained { player: q, item: PROGRESS_CARD[t as usize], count: 1, cause: cause::CARD, from: None });
    match card.card {
        Some(c) if c.is_victory_point() => {
            s.players[q as usize].shown.push(c);
            score(s, q, PROGRESS_POINT, 1, facts);
        }
        _ => s.players[q as usize].progress.cards.push(card),
    }
    let over = s.player(q).progress.len() > MAX_PROGRESS;
    match returned {
        None if over && q != s.active => {
            fail(format!("{} holds five progress cards outside their turn: one goes back (`returned`)", s.name(q)))
        }
        None => Ok(()),
        Some(_) if !over => fail(format!("{} holds no more than four progress cards: nothing goes back", s.name(q))),
        Some(r) => {
            if !s.players[q as usize].progress.remove_held(r) {
                return fail(format!("{} holds no {} to put back", s.name(q), held_words(r)));
            }
            s.decks[r.track as usize] += 1;
            Ok(())
        }
    }
}

pub fn held_name(h: HeldCard) -> String {
    match h.card {
        Some(c) => c.name().to_string(),
        None => format!("{} card", h.track.colour()),
    }
}

/// A held card in words, for a person: "trade monopoly", not the log's `trade_monopoly`.
pub fn held_words(h: HeldCard) -> String {
    held_name(h).replace('_', " ")
}

/// Says what a roll promises each player, where it changed since it was last said: the chance of every sum of
/// the red and white dice times the cards the board owes on it, the robber as it stands and the bank taken
/// as full (a 7 pays nothing; the event die and the Aqueduct are left out).
fn promise(s: &mut State, facts: &mut Vec<Fact>) {
    let dice = almanac_core::DiceSpec { count: 2, faces: 6 };
    let n = s.players.len();
    let mut expected = vec![0f64; n];
    for (sum, chance) in dice.chances().filter(|&(sum, _)| sum != 7) {
        for (hex, h) in s.board.hexes.iter().zip(0..) {
            if s.numbers[h as usize] != Some(sum as u8) || s.robber == h || hex.terrain.produces().is_none() {
                continue;
            }
            for &v in &hex.corners {
                if let Some(b) = s.building(v) {
                    expected[b.owner as usize] += chance * if b.city { 2.0 } else { 1.0 };
                }
            }
        }
    }
    for (i, e) in expected.iter().enumerate() {
        let thousandths = (e * 1000.0).round() as u32;
        if thousandths != s.players[i].promised {
            s.players[i].promised = thousandths;
            facts.push(Fact::Promised { player: i as Seat, thousandths });
        }
    }
}

/// What a roll of `sum` pays: a settlement one resource, a city two resources on hills and fields, one
/// resource and one commodity on forest, pasture and mountains. Returns the cards each player got.
fn produce(s: &mut State, sum: u8, facts: &mut Vec<Fact>) -> Vec<u32> {
    let n = s.players.len();
    // Owed cards by kind and player.
    let mut owed: Vec<(Card, Vec<u8>)> = Card::ALL.iter().map(|&c| (c, vec![0u8; n])).collect();
    for (h, hex) in s.board.hexes.iter().enumerate() {
        if s.numbers[h] != Some(sum) || s.robber == h as HexId {
            continue;
        }
        let Some(r) = hex.terrain.produces() else { continue };
        for &v in &hex.corners {
            let Some(b) = s.building(v) else { continue };
            let mut add =
                |c: Card, k: u8| owed.iter_mut().find(|(x, _)| *x == c).expect("every card").1[b.owner as usize] += k;
            match (b.city, Commodity::of_terrain(hex.terrain)) {
                (false, _) => add(Card::Resource(r), 1),
                (true, Some(c)) => {
                    add(Card::Resource(r), 1);
                    add(Card::Commodity(c), 1);
                }
                (true, None) => add(Card::Resource(r), 2),
            }
        }
    }
    let mut gained = vec![0u32; n];
    for (c, by_player) in owed {
        let total: u32 = by_player.iter().map(|&k| k as u32).sum();
        let claimants = by_player.iter().filter(|&&k| k > 0).count();
        // The bank short: nobody gets the kind, unless only one player is owed it (the base game's rule).
        if total > s.bank[c] as u32 && claimants > 1 {
            continue;
        }
        for (q, &k) in by_player.iter().enumerate() {
            if k > 0 {
                gained[q] += from_bank(s, q as Seat, c, k, cause::PRODUCTION, facts) as u32;
            }
        }
    }
    gained
}

/// After a roll other than 7, each owner of the Aqueduct (science level 3) who got nothing takes a
/// resource of their choice.
fn aqueduct_choices(s: &mut State, gained: &[u32], chosen: &[(Seat, Resource)], facts: &mut Vec<Fact>) -> Result {
    let due: Vec<Seat> =
        s.seats().filter(|&q| gained[q as usize] == 0 && s.player(q).level(Track::Science) >= 3).collect();
    let named: Vec<Seat> = chosen.iter().map(|&(q, _)| q).collect();
    for &q in &named {
        if !due.contains(&q) {
            return fail(format!(
                "{} takes no resource by the Aqueduct: it is for science level 3 when a roll gave nothing",
                s.name(q)
            ));
        }
    }
    if let Some(&q) = due.iter().find(|q| !named.contains(q)) {
        return fail(format!(
            "{} got nothing from this roll and owns the Aqueduct: the roll says which resource (`aqueduct`)",
            s.name(q)
        ));
    }
    for &(q, r) in chosen {
        if from_bank(s, q, Card::Resource(r), 1, AQUEDUCT, facts) == 0 {
            return fail(format!("the bank has no {r} for {}'s Aqueduct", s.name(q)));
        }
    }
    Ok(())
}

/// Where the turn goes once the 7's discards are done: the robber moves once the barbarians have attacked.
fn after_discards(s: &State) -> Phase {
    if s.attacks > 0 {
        Phase::MoveRobber
    } else {
        Phase::Main
    }
}

pub fn discard(s: &mut State, p: Seat, cards: &Bundle, facts: &mut Vec<Fact>) -> Result {
    let owed = s.must_discard[p as usize];
    if cards.total() != owed as u32 {
        return fail(format!("{} must discard {owed} cards, not {}", s.name(p), cards.total()));
    }
    let hand = s.player(p).hand;
    if !hand.can_give(cards) {
        return fail(format!("{} cannot discard {cards}: the hand is {hand}", s.name(p)));
    }
    lose(s, p, cards, cause::DISCARD, None, facts);
    s.must_discard[p as usize] = 0;
    if s.must_discard.iter().all(|&n| n == 0) {
        s.phase = after_discards(s);
    }
    Ok(())
}

/// Takes `cards` out of `p`'s hand: to the bank, or to player `to`.
pub fn lose(s: &mut State, p: Seat, cards: &Bundle, why: &'static str, to: Option<Seat>, facts: &mut Vec<Fact>) {
    s.players[p as usize].hand.give(cards);
    match to {
        Some(t) => s.players[t as usize].hand.receive(cards),
        None => s.bank.add(&cards.known),
    }
    for (item, count) in cards.items() {
        match to {
            Some(t) => facts.extend(Fact::passed(p, t, item, count, why)),
            None => facts.push(Fact::Lost { player: p, item, count, cause: why, to: None }),
        }
    }
}

/// Players other than `p` with a building on `hex` and cards in hand: whom the robber may rob there.
pub fn victims(s: &State, p: Seat, hex: HexId) -> Vec<Seat> {
    let mut out: Vec<Seat> = s.board.hexes[hex as usize]
        .corners
        .iter()
        .filter_map(|&v| s.building(v).map(|b| b.owner))
        .filter(|&q| q != p && s.player(q).hand.total() > 0)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// One card from `victim` to `p`: named, or unseen.
pub fn steal(s: &mut State, p: Seat, victim: Seat, card: Option<Card>, facts: &mut Vec<Fact>) -> Result {
    let hand = s.player(victim).hand;
    let stolen = match card {
        Some(c) if hand.can_pay(c, 1) => Bundle::known(crate::cards::Cards::of(c, 1)),
        Some(c) => return fail(format!("{} has no {c} to steal: the hand is {hand}", s.name(victim))),
        None => Bundle { known: crate::cards::Cards::NONE, unknown: 1 },
    };
    lose(s, victim, &stolen, cause::STEAL, Some(p), facts);
    Ok(())
}

pub fn move_robber(
    s: &mut State,
    p: Seat,
    hex: HexId,
    victim: Option<Seat>,
    stolen: Option<Option<Card>>,
    facts: &mut Vec<Fact>,
) -> Result {
    place_robber(s, hex)?;
    let can = victims(s, p, hex);
    match victim {
        None if can.is_empty() => {}
        None => {
            return fail(format!(
                "the robber on {} robs one of {}: the event names the victim",
                s.board.hex_label(hex),
                can.iter().map(|&q| s.name(q)).collect::<Vec<_>>().join(", ")
            ))
        }
        Some(q) if !can.contains(&q) => {
            return fail(format!("{} has no building with cards to rob on {}", s.name(q), s.board.hex_label(hex)))
        }
        Some(q) => steal(s, p, q, stolen.flatten(), facts)?,
    }
    s.phase = Phase::Main;
    Ok(())
}

/// The robber goes to another hex; it stays in the desert until the barbarians' first attack.
pub fn place_robber(s: &mut State, hex: HexId) -> Result {
    if s.attacks == 0 {
        return fail("the robber stays in the desert until the barbarians have attacked once");
    }
    if hex == s.robber {
        return fail(format!("the robber must move: it is on {} already", s.board.hex_label(hex)));
    }
    s.robber = hex;
    Ok(())
}
