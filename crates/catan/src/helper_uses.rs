//! The ways a player may use their helper now, for the table recorder: one form per use, whose picks are
//! the choices the helper leaves (a resource, a victim, a place, and what comes after: the card turned to
//! its B side or swapped for one on display) and whose counts are the cards it pays with. A pick lists only
//! the options the rules accept for some use (tried on a copy of the state with the rules' own `apply`),
//! so a helper is offered only when it can be used now; the rules judge the whole use when it is entered.

use crate::development::DevCard;
use crate::event::{Event, LoggedEvent};
use crate::helpers::{self, AfterUse, HelperAction, HelperUse, HELPERS};
use crate::resources::{Bundle, Resource, ResourceCard, Resources, DEV_CARD_COST};
use crate::rules::development::left_in_deck;
use crate::state::State;
use almanac_core::next::{Bound, Count, Form, Pick, PickOption};
use almanac_core::{Seat, Seated};
use serde_json::{json, Value};

/// The forms of the use of `p`'s helper (none when it cannot be used now).
pub fn forms(s: &State, p: Seat) -> Vec<Form<LoggedEvent>> {
    let Some(h) = &s.helpers else { return Vec::new() };
    let Some(card) = h.held.get(p as usize).copied().flatten() else { return Vec::new() };
    let helper = card.helper;
    // What comes after the use: an A side may be turned over; any helper may be swapped for one on display.
    let mut afters: Vec<(AfterUse, PickOption)> = Vec::new();
    if !card.b_side {
        afters.push((AfterUse::Flip, option(json!({"flip": true, "swap": null}), "then turns it to its B side")));
    }
    for &d in &h.display {
        let words = format!("then swaps it for {}", HELPERS[d]);
        afters.push((AfterUse::Swap(d), option(json!({"swap": HELPERS[d], "flip": null}), &words)));
    }
    let Some(&(after, _)) = afters.first() else { return Vec::new() };
    let use_of = |action: HelperAction| Event::UseHelper(Box::new(HelperUse { player: p, helper, action, after }));
    let accepted =
        |action: &HelperAction| crate::rules::apply(&mut s.clone(), &use_of(action.clone()), &mut Vec::new()).is_ok();
    let then = Pick { words: "Then".into(), options: afters.into_iter().map(|(_, o)| o).collect() };
    let others: Vec<Seat> = s.seats().filter(|&o| o != p).collect();
    let name = |o: Seat| s.name(o).to_string();
    let board = &s.board;
    let form = |action: HelperAction, counts: Vec<Count>, mut picks: Vec<Pick>| {
        picks.push(then.clone());
        vec![Form {
            event: LoggedEvent { event: use_of(action), stated: None },
            words: format!("uses {}", HELPERS[helper]),
            counts,
            picks,
        }]
    };
    let resources = |legal: &dyn Fn(Resource) -> bool| -> Pick {
        let options = Resource::ALL.into_iter().filter(|&r| legal(r));
        Pick {
            words: "The resource".into(),
            options: options.map(|r| option(json!({"resource": r.name()}), r.name())).collect(),
        }
    };
    match helper {
        helpers::JEAN | helpers::MARIANNE => {
            let make = |resource| {
                if helper == helpers::JEAN {
                    HelperAction::Jean { resource }
                } else {
                    HelperAction::Marianne { resource }
                }
            };
            let pick = resources(&|r| accepted(&make(r)));
            if pick.options.is_empty() {
                return Vec::new();
            }
            form(make(Resource::Lumber), Vec::new(), vec![pick])
        }
        helpers::SEAN => {
            let uses = std::iter::once(None).chain(Resource::ALL.map(Some));
            let options: Vec<PickOption> = uses
                .filter(|&resource| accepted(&HelperAction::Sean { resource }))
                .map(|resource| match resource {
                    None => option(json!({"resource": null}), "keeps every card instead of discarding"),
                    Some(r) => option(json!({"resource": r.name()}), &format!("takes a {r}")),
                })
                .collect();
            if options.is_empty() {
                return Vec::new();
            }
            form(HelperAction::Sean { resource: None }, Vec::new(), vec![Pick { words: "Sean".into(), options }])
        }
        helpers::LIN => {
            let deserts = std::iter::once(None).chain((0..board.hexes.len() as u8).map(Some));
            let legal: Vec<Option<u8>> = deserts.filter(|&hex| accepted(&HelperAction::Lin { hex })).collect();
            // The hex is named only where the rules need it (several deserts).
            match legal.as_slice() {
                [] => Vec::new(),
                [None, ..] | [_] => form(HelperAction::Lin { hex: legal[0] }, Vec::new(), Vec::new()),
                several => {
                    let options = several
                        .iter()
                        .flatten()
                        .map(|&h| option(json!({"hex": h}), &format!("to the desert at {}", board.hex_label(h))))
                        .collect();
                    form(HelperAction::Lin { hex: None }, Vec::new(), vec![Pick { words: "Where".into(), options }])
                }
            }
        }
        helpers::HILDE => {
            let cards = || std::iter::once(ResourceCard::Unknown).chain(Resource::ALL.map(ResourceCard::Known));
            let legal: Vec<(Seat, ResourceCard)> = others
                .iter()
                .flat_map(|&victim| cards().map(move |took| (victim, took)))
                .filter(|&(victim, took)| accepted(&HelperAction::Hilde { victim, took }))
                .collect();
            let Some(&(victim, took)) = legal.first() else { return Vec::new() };
            let victims = others
                .iter()
                .filter(|&&o| legal.iter().any(|l| l.0 == o))
                .map(|&o| option(json!({"victim": name(o)}), &format!("from {}", name(o))))
                .collect();
            let took_options = cards()
                .filter(|&c| legal.iter().any(|l| l.1 == c))
                .map(|c| option(json!({"took": c.name()}), &format!("takes {}", c.name())))
                .collect();
            form(
                HelperAction::Hilde { victim, took },
                Vec::new(),
                vec![
                    Pick { words: "Whom".into(), options: victims },
                    Pick { words: "The card".into(), options: took_options },
                ],
            )
        }
        helpers::NASSIR => nassir(s, &others, &accepted, form),
        helpers::LOUIS => {
            let ours: Vec<u16> = (0..board.edges.len() as u16).filter(|&e| s.roads[e as usize] == Some(p)).collect();
            let legal: Vec<(u16, u16)> = ours
                .iter()
                .flat_map(|&from| (0..board.edges.len() as u16).map(move |to| (from, to)))
                .filter(|&(from, to)| accepted(&HelperAction::Louis { from, to }))
                .collect();
            let Some(&(from, to)) = legal.first() else { return Vec::new() };
            let edges = |field: &str, which: fn(&(u16, u16)) -> u16, words: &str| {
                let mut at: Vec<u16> = legal.iter().map(which).collect();
                at.sort();
                at.dedup();
                let options = at
                    .into_iter()
                    .map(|e| {
                        option(
                            json!({field: board.edges[e as usize].name}),
                            &format!("{words} {}", board.edge_label(e)),
                        )
                    })
                    .collect();
                Pick { words: if field == "at" { "The road".into() } else { "To".into() }, options }
            };
            form(
                HelperAction::Louis { from, to },
                Vec::new(),
                vec![edges("at", |l| l.0, "the road at"), edges("to", |l| l.1, "to")],
            )
        }
        helpers::VINCENT => {
            let legal: Vec<(bool, u16)> = [false, true]
                .into_iter()
                .flat_map(|city| (0..board.vertices.len() as u16).map(move |at| (city, at)))
                .filter(|&(city, at)| accepted(&HelperAction::Vincent { city, at }))
                .collect();
            let Some(&(city, at)) = legal.first() else { return Vec::new() };
            let builds = [false, true]
                .into_iter()
                .filter(|&c| legal.iter().any(|l| l.0 == c))
                .map(|c| {
                    let what = if c { "city" } else { "settlement" };
                    option(json!({"build": what}), &format!("builds a {what}"))
                })
                .collect();
            let mut places: Vec<u16> = legal.iter().map(|l| l.1).collect();
            places.sort();
            places.dedup();
            let places = places
                .into_iter()
                .map(|v| {
                    option(json!({"at": board.vertices[v as usize].name}), &format!("at {}", board.vertex_label(v)))
                })
                .collect();
            form(
                HelperAction::Vincent { city, at },
                Vec::new(),
                vec![Pick { words: "Builds".into(), options: builds }, Pick { words: "Where".into(), options: places }],
            )
        }
        helpers::WILLIAM => {
            // A road's lumber or brick and one other card: each payment the hand may make.
            let pays: Vec<Bundle> = [Resource::Lumber, Resource::Brick]
                .into_iter()
                .flat_map(|kept| Resource::ALL.map(move |other| (kept, other)))
                .map(|(kept, other)| {
                    let mut pay = Resources::of(kept, 1);
                    pay[other] += 1;
                    Bundle::known(pay)
                })
                .collect();
            let legal: Vec<u16> = (0..board.edges.len() as u16)
                .filter(|&at| pays.iter().any(|pay| accepted(&HelperAction::William { at, pay: *pay })))
                .collect();
            let Some(&at) = legal.first() else { return Vec::new() };
            let places = legal
                .into_iter()
                .map(|e| {
                    option(json!({"at": board.edges[e as usize].name}), &format!("a road at {}", board.edge_label(e)))
                })
                .collect();
            let pay = paid(s, p, "pays", 2);
            form(
                HelperAction::William { at, pay: Bundle::default() },
                vec![pay],
                vec![Pick { words: "Where".into(), options: places }],
            )
        }
        _ => {
            // Candamir: a development card for three cards (wool, grain and ore, one of them replaced by any
            // other), kept from the top three of the deck.
            let left = left_in_deck(s);
            let drawn: Vec<DevCard> = DevCard::ALL
                .into_iter()
                .flat_map(|c| std::iter::repeat_n(c, left[c] as usize))
                .take(3.min(s.deck_left as usize))
                .collect();
            let Some(&kept) = drawn.first() else { return Vec::new() };
            let pays = Resource::ALL.into_iter().flat_map(|replaced| {
                Resource::ALL.map(move |instead| {
                    let mut pay = DEV_CARD_COST;
                    if pay[replaced] > 0 {
                        pay[replaced] -= 1;
                        pay[instead] += 1;
                    }
                    Bundle::known(pay)
                })
            });
            let usable =
                pays.into_iter().any(|pay| accepted(&HelperAction::Candamir { pay, drawn: drawn.clone(), card: kept }));
            if !usable {
                return Vec::new();
            }
            let cards = |field: &str, words: &str| {
                let options = DevCard::ALL
                    .into_iter()
                    .filter(|&c| left[c] > 0)
                    .map(|c| {
                        let set =
                            if field == "drawn" { json!({"drawn": [c.name()]}) } else { json!({"card": c.name()}) };
                        option(set, &c.name().replace('_', " "))
                    })
                    .collect();
                Pick { words: words.into(), options }
            };
            let mut picks: Vec<Pick> = ["The first card drawn", "The second", "The third"][..drawn.len()]
                .iter()
                .map(|w| cards("drawn", w))
                .collect();
            picks.push(cards("card", "The card kept"));
            form(
                HelperAction::Candamir { pay: Bundle::default(), drawn: Vec::new(), card: kept },
                vec![paid(s, p, "pays", 3)],
                picks,
            )
        }
    }
}

/// Nassir: a resource named, one or two opponents, and for each card they give, one card of the user's
/// choice given back (and, for a hand with unseen cards, whether it gave one).
fn nassir(
    s: &State,
    others: &[Seat],
    accepted: &dyn Fn(&HelperAction) -> bool,
    form: impl Fn(HelperAction, Vec<Count>, Vec<Pick>) -> Vec<Form<LoggedEvent>>,
) -> Vec<Form<LoggedEvent>> {
    let name = |o: Seat| s.name(o).to_string();
    let hand = |o: Seat| s.players[o as usize].hand;
    // Tried as the table would see it when every hand is known: who has the resource gives it, and gets the
    // same card back.
    let tried = |resource: Resource, opponents: Vec<Seat>| {
        let givers: Vec<Seat> = opponents.iter().copied().filter(|&o| hand(o).known[resource] > 0).collect();
        let received = opponents.iter().any(|&o| hand(o).unknown > 0).then(|| {
            let mut r: Vec<(Seat, u8)> = opponents.iter().map(|&o| (o, u8::from(givers.contains(&o)))).collect();
            r.sort();
            r
        });
        let mut returned: Vec<(Seat, Resource)> = givers.iter().map(|&o| (o, resource)).collect();
        returned.sort();
        accepted(&HelperAction::Nassir { resource, opponents, received, returned })
    };
    let sets: Vec<Vec<Seat>> = others
        .iter()
        .map(|&o| vec![o])
        .chain(others.iter().enumerate().flat_map(|(i, &a)| others[i + 1..].iter().map(move |&b| vec![a, b])))
        .collect();
    let legal: Vec<Resource> =
        Resource::ALL.into_iter().filter(|&r| sets.iter().any(|o| tried(r, o.clone()))).collect();
    let Some(&first) = legal.first() else { return Vec::new() };
    let opponent = |o: Seat| option(json!({"opponents": [name(o)]}), &name(o));
    let mut picks = vec![
        Pick {
            words: "The resource".into(),
            options: legal.iter().map(|r| option(json!({"resource": r.name()}), r.name())).collect(),
        },
        Pick { words: "An opponent".into(), options: others.iter().map(|&o| opponent(o)).collect() },
        Pick {
            words: "And another".into(),
            options: std::iter::once(option(json!({}), "nobody else"))
                .chain(others.iter().map(|&o| opponent(o)))
                .collect(),
        },
    ];
    for &o in others {
        if hand(o).unknown > 0 {
            picks.push(Pick {
                words: format!("Did {} give one?", name(o)),
                options: vec![
                    option(json!({"received": {name(o): 1}}), "gave one"),
                    option(json!({"received": {name(o): 0}}), "had none"),
                ],
            });
        }
    }
    for &o in others {
        let back = std::iter::once(option(json!({}), "nothing (named no card or had none)"))
            .chain(Resource::ALL.map(|r| option(json!({"returned": {name(o): r.name()}}), &format!("gives back {r}"))));
        picks.push(Pick { words: format!("To {}", name(o)), options: back.collect() });
    }
    let action = HelperAction::Nassir { resource: first, opponents: Vec::new(), received: None, returned: Vec::new() };
    form(action, Vec::new(), picks)
}

/// The cards a helper's use pays with: `n` named cards, each up to what the hand may hold of it.
fn paid(s: &State, p: Seat, words: &'static str, n: u32) -> Count {
    let hand = &s.players[p as usize].hand;
    let cards = Resource::ALL
        .into_iter()
        .map(|r| Bound { card: r.name().to_string(), least: 0, most: (hand.known[r] + hand.unknown) as u32 })
        .collect();
    Count { field: "pay", words, cards, least: n, most: n }
}

fn option(set: Value, words: &str) -> PickOption {
    PickOption { set: set.to_string(), words: words.to_string() }
}
