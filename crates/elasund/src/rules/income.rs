//! Step 1: the roll. The ship goes to the row of the dice (two rows on when that is its own row; any other
//! row, as the pirate, on a 7), and every building at least partly in that row pays its owner: a gold
//! card or an influence card. The pirate pays nothing: everyone discards a card per VP marker of theirs
//! in its row, and the roller takes back one of them per tower of theirs.

use crate::board::{Square, ROWS};
use crate::buildings::Income;
use crate::cards::{Cards, Influence, GOLD};
use crate::event::Drawn;
use crate::state::{Phase, State};
use crate::vocabulary::{PIRATE, RETURNED};
use almanac_core::ruleset::{fail, Result};
use almanac_core::Seated;
use almanac_core::{cause, Dice, Fact, Seat};

/// What a roll's record says besides the dice.
pub struct Recorded<'a> {
    pub ship: Option<u8>,
    pub influence: &'a [(Seat, Vec<Drawn>)],
    pub discards: &'a [(Seat, Cards)],
    pub took: &'a Cards,
    pub reshuffle: &'a [(Seat, Cards)],
}

pub fn roll(s: &mut State, p: Seat, dice: [u8; 2], r: Recorded, facts: &mut Vec<Fact>) -> Result {
    if s.phase != Phase::Roll {
        return fail(format!("{} has rolled this turn already", s.name(p)));
    }
    facts.push(Fact::Rolled { player: p, dice: Dice::new(&dice) });
    let sum = dice[0] + dice[1];
    let row = ship_row(s, sum, r.ship)?;
    s.ship = Some(row);
    s.pirate = sum == 7;
    if s.pirate {
        facts.push(Fact::Moment { moment: PIRATE, player: Some(p) });
        if !r.influence.is_empty() || !r.reshuffle.is_empty() {
            return fail("the pirate's row pays nothing: no income on a 7");
        }
        pirate(s, p, row, r.discards, r.took, facts)?;
    } else {
        if !r.discards.is_empty() || !r.took.is_empty() {
            return fail(format!("only the pirate takes cards, on a 7; the dice show {sum}"));
        }
        income(s, p, row, r.influence, r.reshuffle, facts)?;
    }
    s.phase = Phase::Build { built: 0 };
    Ok(())
}

/// Where the ship goes for a roll of `sum`.
fn ship_row(s: &State, sum: u8, chosen: Option<u8>) -> Result<u8> {
    let label = |r: u8| ROWS[r as usize];
    if sum == 7 {
        return match chosen {
            None => fail("a 7: the roller sends the pirate to a row of their choice (`ship`)"),
            Some(r) if Some(r) == s.ship => {
                fail(format!("the pirate must leave row {}: it is there already", label(r)))
            }
            Some(r) => Ok(r),
        };
    }
    let target = crate::board::row_index(sum).expect("every sum but 7 names a row");
    let options: Vec<u8> = if s.ship == Some(target) {
        // The ship always moves: two rows up or down from its own row.
        [target.checked_sub(2), Some(target + 2).filter(|&r| (r as usize) < ROWS.len())].into_iter().flatten().collect()
    } else {
        vec![target]
    };
    let names = || options.iter().map(|&r| label(r).to_string()).collect::<Vec<_>>().join(" or ");
    match chosen {
        Some(r) if options.contains(&r) => Ok(r),
        Some(r) => fail(format!("the ship goes to row {}, not {}", names(), label(r))),
        None if options.len() == 1 => Ok(options[0]),
        None => fail(format!("the ship is on row {sum} already: it moves two rows, to {} (`ship`)", names())),
    }
}

/// Income of the buildings in `row`. A kind of card the bank or the deck cannot pay to everyone is paid
/// to nobody, and everyone gives back half of theirs (the rule source's deck rule).
fn income(
    s: &mut State,
    roller: Seat,
    row: u8,
    drawn: &[(Seat, Vec<Drawn>)],
    reshuffle: &[(Seat, Cards)],
    facts: &mut Vec<Fact>,
) -> Result {
    let n = s.players.len();
    let (mut gold, mut influence) = (vec![0u8; n], vec![0u8; n]);
    for b in s.buildings.iter().flatten().filter(|b| b.covers_row(row)) {
        match b.kind.income() {
            Some(Income::Gold) => gold[b.owner as usize] += 1,
            Some(Income::Influence) => influence[b.owner as usize] += 1,
            None => {}
        }
    }
    let gold_short = gold.iter().map(|&g| g as u32).sum::<u32>() > s.gold as u32;
    let owed_influence: u32 = influence.iter().map(|&g| g as u32).sum();
    if owed_influence > s.deck as u32 {
        // The discard pile is shuffled into the deck when the deck runs out.
        s.deck += std::mem::take(&mut s.discards);
    }
    let influence_short = owed_influence > s.deck as u32;
    if gold_short {
        gold.iter_mut().for_each(|g| *g = 0);
    }
    if influence_short {
        influence.iter_mut().for_each(|g| *g = 0);
    }
    for q in s.clockwise_from(roller) {
        let g = gold[q as usize];
        if g > 0 {
            s.gold -= g;
            s.players[q as usize].hand.gold += g;
            facts.push(Fact::Gained { player: q, item: GOLD, count: g as u32, cause: cause::PRODUCTION, from: None });
        }
    }
    // The influence cards drawn, against what is owed.
    for q in s.seats() {
        let owed = influence[q as usize] as usize;
        let named = drawn.iter().find(|(x, _)| *x == q).map_or(&[][..], |(_, d)| d.as_slice());
        if named.len() != owed {
            return fail(format!(
                "{} draws {owed} influence card(s) from the buildings in row {}; the roll names {}",
                s.name(q),
                ROWS[row as usize],
                named.len()
            ));
        }
        for &d in named {
            draw(s, q, d, cause::PRODUCTION, facts);
        }
    }
    give_back_half(s, gold_short, influence_short, reshuffle, facts)
}

/// One influence card from the deck to `q`.
pub fn draw(s: &mut State, q: Seat, d: Drawn, why: &'static str, facts: &mut Vec<Fact>) {
    s.deck -= 1;
    let hand = &mut s.players[q as usize].hand;
    let item = match d {
        Some(c) => {
            hand.influence[c as usize] += 1;
            c.item()
        }
        None => {
            hand.unknown += 1;
            crate::cards::UNKNOWN
        }
    };
    facts.push(Fact::Gained { player: q, item, count: 1, cause: why, from: None });
}

/// When a kind of card ran short: every player gives back half of theirs (rounded down), which become
/// the bank's gold or the new influence deck.
pub(crate) fn give_back_half(
    s: &mut State,
    gold: bool,
    influence: bool,
    named: &[(Seat, Cards)],
    facts: &mut Vec<Fact>,
) -> Result {
    let mut due = Vec::new();
    for q in s.seats() {
        let h = s.player(q).hand;
        let owed = Cards {
            gold: if gold { h.gold / 2 } else { 0 },
            influence: [0; 3],
            unknown: if influence { (h.influence_total() / 2) as u8 } else { 0 },
        };
        if !owed.is_empty() {
            due.push((q, owed));
        }
    }
    let who = |v: &[(Seat, Cards)]| v.iter().map(|(q, _)| *q).collect::<Vec<_>>();
    if who(&due) != who(named) {
        return fail(format!(
            "a deck ran short: {} give back half their cards of that kind (`reshuffle`)",
            if due.is_empty() {
                "nobody needs to".to_string()
            } else {
                due.iter().map(|(q, _)| s.name(*q)).collect::<Vec<_>>().join(", ")
            }
        ));
    }
    for ((q, owed), (_, cards)) in due.iter().zip(named) {
        if cards.gold != owed.gold || cards.influence_total() != owed.influence_total() {
            return fail(format!("{} gives back {owed} (half, rounded down), not {cards}", s.name(*q)));
        }
        give_up(s, *q, cards, RETURNED, facts)?;
    }
    if influence {
        s.deck += std::mem::take(&mut s.discards);
    }
    Ok(())
}

/// `q` gives `cards` up: gold to the bank, influence to the discard pile.
fn give_up(s: &mut State, q: Seat, cards: &Cards, why: &'static str, facts: &mut Vec<Fact>) -> Result {
    crate::rules::markers::from_hand(s, q, cards, || format!("give up {cards}"))?;
    for (item, count) in cards.items() {
        facts.push(Fact::Lost { player: q, item, count, cause: why, to: None });
    }
    Ok(())
}

/// VP markers of `q` in `row`: on the buildings and church tiles there.
pub fn markers_in_row(s: &State, q: Seat, row: u8) -> u8 {
    let on_buildings: u8 =
        s.buildings.iter().flatten().filter(|b| b.owner == q && b.covers_row(row)).map(|b| b.markers).sum();
    let on_church = (1..=crate::board::COLUMNS)
        .filter(|&col| s.cell(Square::new(col, row)).church.is_some_and(|(_, owner)| owner == Some(q)))
        .count() as u8;
    on_buildings + on_church
}

fn pirate(
    s: &mut State,
    roller: Seat,
    row: u8,
    discards: &[(Seat, Cards)],
    took: &Cards,
    facts: &mut Vec<Fact>,
) -> Result {
    let due: Vec<(Seat, u32)> = s
        .seats()
        .map(|q| (q, (markers_in_row(s, q, row) as u32).min(s.player(q).hand.total())))
        .filter(|&(_, n)| n > 0)
        .collect();
    let who = |v: &[Seat]| v.iter().map(|&q| s.name(q).to_string()).collect::<Vec<_>>().join(", ");
    let named: Vec<Seat> = discards.iter().map(|(q, _)| *q).collect();
    let owed: Vec<Seat> = due.iter().map(|(q, _)| *q).collect();
    if named != owed {
        return fail(format!(
            "the pirate in row {} takes cards from {}; the roll names {}",
            ROWS[row as usize],
            if owed.is_empty() { "nobody".into() } else { who(&owed) },
            if named.is_empty() { "nobody".into() } else { who(&named) }
        ));
    }
    let mut pool = Cards::default();
    for ((q, n), (_, cards)) in due.iter().zip(discards) {
        if cards.total() != *n {
            return fail(format!(
                "{} discards {n} card(s) to the pirate (one per VP marker in the row), not {}",
                s.name(*q),
                cards.total()
            ));
        }
        give_up(s, *q, cards, PIRATE, facts)?;
        pool.gold += cards.gold;
        for i in 0..3 {
            pool.influence[i] += cards.influence[i];
        }
        pool.unknown += cards.unknown;
    }
    let towers = s.player(roller).towers as u32;
    let takes = towers.min(pool.total());
    if took.total() != takes {
        return fail(format!(
            "{} takes {takes} of the discarded cards (one per tower), not {}",
            s.name(roller),
            took.total()
        ));
    }
    let fits = took.gold <= pool.gold
        && Influence::ALL.iter().all(|&c| took.influence[c as usize] <= pool.influence[c as usize] + pool.unknown);
    if !fits {
        return fail(format!("{} takes {took}, which is not among the discarded {pool}", s.name(roller)));
    }
    s.gold -= took.gold;
    s.discards -= took.influence_total() as u8;
    s.players[roller as usize].hand.receive(took);
    for (item, count) in took.items() {
        facts.push(Fact::Gained { player: roller, item, count, cause: PIRATE, from: None });
    }
    Ok(())
}
