//! The rules of the base game and Traders & Builders: placing tiles and figures, scoring after each turn
//! part and at the end. Each handler checks first and changes the state only when the event is legal.

use crate::event::{Event, Location};
use crate::state::*;
use crate::tiles::*;
use crate::vocabulary::{COMPLETION, TILE};
use almanac_core::Seated;
use almanac_core::{CheckpointError, Fact, RuleViolation, Rules, Seat};

use almanac_core::ruleset::{fail, Result};

const AROUND: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

fn neighbour(at: Pos, side: usize) -> Pos {
    match side {
        0 => (at.0, at.1 - 1),
        1 => (at.0 + 1, at.1),
        2 => (at.0, at.1 + 1),
        _ => (at.0 - 1, at.1),
    }
}

fn edge_kind(t: &TileType, rotation: u8, side: usize) -> EdgeKind {
    t.edges[(side + 4 - rotation as usize) % 4]
}

/// Checks and applies one event. A rejected event may leave the state half-changed: the timeline that
/// called `apply` throws it away.
impl Rules for State {
    type Header = crate::setup::Header;
    type Event = Event;

    /// 2: a follower placed is a piece built, by its feature (the opening questions ask about).
    /// 3: a follower sent home by a scored feature is a piece returned (the coach table counts them).
    const VERSION: u32 = 3;

    fn apply(&mut self, ev: &Event, facts: &mut Vec<Fact>) -> Result {
        if self.step == Step::Over {
            return fail("the game is over");
        }
        if let Some(p) = ev.player() {
            if p != self.active {
                return fail(format!("{} plays out of turn: it is {}'s turn", self.name(p), self.name(self.active)));
            }
        }
        match ev {
            Event::PlaceTile { tile, at, rotation, .. } => place_tile(self, *tile, *at, *rotation, facts),
            Event::DiscardTile { tile, .. } => discard_tile(self, *tile),
            Event::PlaceFigure { figure, feature, location, .. } => {
                place_figure(self, *figure, *feature, location, facts)
            }
            Event::EndTurn { .. } => end_turn(self, facts),
            Event::EndGame => end_game(self, facts),
        }
    }

    /// The grid is where each placed tile lies: rebuilt from them.
    fn fixed_from(&mut self, initial: &State) -> std::result::Result<(), CheckpointError> {
        if self.players.len() != initial.players.len() || self.supply.len() != initial.supply.len() {
            return Err(CheckpointError("the checkpoint is of another table or tile set".into()));
        }
        self.options = initial.options.clone();
        self.table = initial.table.clone();
        self.grid = self.placed.iter().enumerate().map(|(i, t)| (t.at, i)).collect();
        Ok(())
    }
    fn edition(&self) -> String {
        let mut words = String::from("Carcassonne");
        for set in self.options.sets.iter().filter(|s| *s != "basic") {
            words.push_str(" + ");
            words.push_str(if set == "traders-and-builders" { "Traders & Builders" } else { set });
        }
        words
    }
}

/// Why the tile cannot lie there, if it cannot.
pub fn placement_problem(s: &State, tile: usize, at: Pos, rotation: u8) -> Option<String> {
    if s.grid.contains_key(&at) {
        return Some(format!("{at:?} already holds a tile"));
    }
    let t = &catalogue().tiles[tile];
    let mut neighbours = 0;
    for side in 0..4 {
        let n = neighbour(at, side);
        if let Some(&q) = s.grid.get(&n) {
            neighbours += 1;
            let other = &s.placed[q];
            let theirs = edge_kind(&catalogue().tiles[other.tile], other.rotation, opposite_side(side));
            let mine = edge_kind(t, rotation, side);
            if mine != theirs {
                return Some(format!(
                    "its {} edge ({mine:?}) does not match the {:?} edge of {} at {n:?}",
                    SIDES[side],
                    theirs,
                    catalogue().tiles[other.tile].id
                ));
            }
        }
    }
    if neighbours == 0 {
        return Some(format!("{at:?} touches no tile"));
    }
    None
}

/// Every place and rotation where the tile could lie.
pub fn legal_placements(s: &State, tile: usize) -> Vec<(Pos, u8)> {
    let mut spots: Vec<Pos> = Vec::new();
    for p in &s.placed {
        for side in 0..4 {
            let n = neighbour(p.at, side);
            if !s.grid.contains_key(&n) && !spots.contains(&n) {
                spots.push(n);
            }
        }
    }
    spots.sort();
    let mut out = Vec::new();
    for at in spots {
        for r in 0..4 {
            if placement_problem(s, tile, at, r).is_none() {
                out.push((at, r));
            }
        }
    }
    out
}

fn check_supply(s: &State, tile: usize) -> Result {
    if s.supply[tile] == 0 {
        return fail(format!("no {} is left in the pack", catalogue().tiles[tile].id));
    }
    Ok(())
}

fn place_tile(s: &mut State, tile: usize, at: Pos, rotation: u8, facts: &mut Vec<Fact>) -> Result {
    if s.step != Step::Tile {
        return fail(format!("{} must finish the turn before placing another tile", s.name(s.active)));
    }
    check_supply(s, tile)?;
    if let Some(problem) = placement_problem(s, tile, at, rotation) {
        return fail(format!(
            "{} cannot lie at {at:?} turned {}°: {problem}",
            catalogue().tiles[tile].id,
            rotation as u32 * 90
        ));
    }
    s.supply[tile] -= 1;
    let placed = s.placed.len();
    s.placed.push(Placed { tile, rotation, at, first_node: 0 });
    s.grid.insert(at, placed);
    s.add_nodes(placed);
    join_neighbours(s, placed);
    s.bonus_due = false;
    if s.options.builder.0 > 0 && !s.second_part {
        let p = s.active;
        let t = s.tile_type(placed);
        for (f, feature) in t.features.iter().enumerate() {
            if matches!(feature.kind, FeatureKind::City { .. } | FeatureKind::Road) {
                let g = s.group(s.placed[placed].first_node + f);
                if g.figures
                    .iter()
                    .any(|fig| fig.player == p && fig.kind == FigureKind::Builder && fig.placed != placed)
                {
                    s.bonus_due = true;
                }
            }
        }
    }
    s.step = Step::Figure { placed, figure_done: false };
    facts.push(Fact::Built { player: s.active, piece: TILE });
    Ok(())
}

fn join_neighbours(s: &mut State, placed: usize) {
    let at = s.placed[placed].at;
    let r = s.placed[placed].rotation;
    let t = s.tile_type(placed);
    let first = s.placed[placed].first_node;
    for side in 0..4 {
        let Some(&q) = s.grid.get(&neighbour(at, side)) else { continue };
        let other = s.placed[q].clone();
        let ot = s.tile_type(q);
        let opp = opposite_side(side);
        // Cities and roads across the edge.
        let mine = t.features.iter().position(|f| f.sides != 0 && rotate_sides(f.sides, r) & (1 << side) != 0);
        let theirs =
            ot.features.iter().position(|f| f.sides != 0 && rotate_sides(f.sides, other.rotation) & (1 << opp) != 0);
        if let (Some(a), Some(b)) = (mine, theirs) {
            s.join(first + a, other.first_node + b, true);
        }
        // Fields across the two half-edges.
        for h in [2 * side, 2 * side + 1] {
            let oh = opposite_half(h);
            let mine = t.features.iter().position(|f| rotate_halves(f.halves, r) & (1 << h) != 0);
            let theirs = ot.features.iter().position(|f| rotate_halves(f.halves, other.rotation) & (1 << oh) != 0);
            if let (Some(a), Some(b)) = (mine, theirs) {
                s.join(first + a, other.first_node + b, false);
            }
        }
    }
}

fn discard_tile(s: &mut State, tile: usize) -> Result {
    if s.step != Step::Tile {
        return fail("a tile is discarded only instead of placing one");
    }
    check_supply(s, tile)?;
    if let Some(&(at, r)) = legal_placements(s, tile).first() {
        return fail(format!(
            "{} can be placed (for example at {at:?} turned {}°), so it is not discarded",
            catalogue().tiles[tile].id,
            r as u32 * 90
        ));
    }
    s.supply[tile] -= 1;
    Ok(())
}

/// The feature of the just-placed tile that a location names.
fn locate(s: &State, placed: usize, kind: GroupKind, loc: &Location) -> Result<usize> {
    let t = s.tile_type(placed);
    let r = s.placed[placed].rotation;
    let found = t.features.iter().position(|f| match (&f.kind, kind) {
        (FeatureKind::City { .. }, GroupKind::City) | (FeatureKind::Road, GroupKind::Road) => {
            rotate_sides(f.sides, r) == loc.sides && loc.halves == 0
        }
        (FeatureKind::Monastery, GroupKind::Monastery) => true,
        (FeatureKind::Field { .. }, GroupKind::Field) => {
            if loc.inner {
                f.halves == 0
            } else {
                f.halves != 0 && rotate_halves(f.halves, r) == loc.halves
            }
        }
        _ => false,
    });
    found
        .map(|f| s.placed[placed].first_node + f)
        .ok_or_else(|| RuleViolation(format!("{} (as placed) has no {} at `{}`", t.id, kind.name(), loc.text)))
}

fn place_figure(s: &mut State, kind: FigureKind, feature: GroupKind, loc: &Location, facts: &mut Vec<Fact>) -> Result {
    let Step::Figure { placed, figure_done } = s.step else {
        return fail("a figure goes on the tile just placed, after placing it");
    };
    if figure_done {
        return fail(format!("{} already placed a figure this turn", s.name(s.active)));
    }
    let p = s.active;
    let name = s.name(p).to_string();
    let node = locate(s, placed, feature, loc)?;
    let root = s.find(node);
    let g = s.groups[root].as_ref().expect("root");
    let has_follower = |who: Option<Seat>| {
        g.figures.iter().any(|f| f.kind == FigureKind::Follower && who.is_none_or(|w| f.player == w))
    };
    match kind {
        FigureKind::Follower => {
            if s.players[p as usize].followers == 0 {
                return fail(format!("{name} has no follower left"));
            }
            if feature == GroupKind::Field && !s.options.farmers {
                return fail("this game is played without farmers");
            }
            if has_follower(None) {
                let owners: Vec<&str> =
                    g.figures.iter().filter(|f| f.kind == FigureKind::Follower).map(|f| s.name(f.player)).collect();
                return fail(format!(
                    "a follower goes only into a {} where no follower stands; {} has one there",
                    feature.name(),
                    owners.join(" and ")
                ));
            }
        }
        FigureKind::Builder => {
            let builders = s.options.builder.0;
            if builders == 0 {
                return fail("this game is played without the builder");
            }
            if s.players[p as usize].builders_home == 0 {
                return fail(match builders {
                    1 => format!("{name}'s builder is already on the board"),
                    n => format!("{name}'s {n} builders are all on the board already"),
                });
            }
            if !matches!(feature, GroupKind::City | GroupKind::Road) || g.open == 0 {
                return fail("the builder goes into an unfinished road or city");
            }
            if !has_follower(Some(p)) {
                return fail(format!("the builder goes only where {name} already has a follower"));
            }
        }
        FigureKind::Pig => {
            let pigs = s.options.pig.0;
            if pigs == 0 {
                return fail("this game is played without the pig");
            }
            if s.players[p as usize].pigs_home == 0 {
                return fail(match pigs {
                    1 => format!("{name}'s pig is already on the board"),
                    n => format!("{name}'s {n} pigs are all on the board already"),
                });
            }
            if feature != GroupKind::Field || !has_follower(Some(p)) {
                return fail(format!("the pig goes only into a field where {name} already has a farmer"));
            }
        }
    }
    let f = node - s.placed[placed].first_node;
    s.groups[root].as_mut().expect("root").figures.push(Figure { player: p, kind, placed, feature: f });
    match kind {
        FigureKind::Follower => {
            s.players[p as usize].followers -= 1;
            facts.push(Fact::Built { player: p, piece: crate::vocabulary::follower(feature) });
        }
        FigureKind::Builder => s.players[p as usize].builders_home -= 1,
        FigureKind::Pig => s.players[p as usize].pigs_home -= 1,
    }
    s.step = Step::Figure { placed, figure_done: true };
    Ok(())
}

fn score(s: &mut State, p: Seat, reason: &'static str, points: i32, facts: &mut Vec<Fact>) {
    s.players[p as usize].score += points;
    let total = s.players[p as usize].score;
    facts.push(Fact::Score { player: p, reason, delta: points, delta_public: points, total, public: total });
}

/// The players with the most followers in a group (none if it has no follower).
fn majority(g: &Group, players: usize) -> Vec<Seat> {
    let mut count = vec![0u32; players];
    for f in &g.figures {
        if f.kind == FigureKind::Follower {
            count[f.player as usize] += 1;
        }
    }
    let max = *count.iter().max().unwrap_or(&0);
    if max == 0 {
        return Vec::new();
    }
    (0..players).filter(|&i| count[i] == max).map(|i| i as Seat).collect()
}

/// Sends every follower and builder of a group home (pigs stay in their fields). A follower freed by a
/// feature scored during play is a `Returned` fact (back to be placed again); the final scoring clears the
/// board without one, since nothing can be placed after it.
fn return_figures(s: &mut State, root: usize, mut facts: Option<&mut Vec<Fact>>) {
    let group = s.groups[root].as_mut().expect("root");
    let role = crate::vocabulary::follower(group.kind);
    let figures = std::mem::take(&mut group.figures);
    let mut keep = Vec::new();
    for f in figures {
        match f.kind {
            FigureKind::Follower => {
                s.players[f.player as usize].followers += 1;
                if let Some(facts) = facts.as_deref_mut() {
                    facts.push(Fact::Returned { player: f.player, piece: role });
                }
            }
            FigureKind::Builder => s.players[f.player as usize].builders_home += 1,
            FigureKind::Pig => keep.push(f),
        }
    }
    s.groups[root].as_mut().expect("root").figures = keep;
}

fn completed_city_points(s: &State, g: &Group) -> i32 {
    let tiles = g.tiles.len() as i32;
    if tiles == 2 && s.options.two_tile_city == 2 {
        tiles + g.pennants as i32
    } else {
        2 * tiles + 2 * g.pennants as i32
    }
}

fn end_turn(s: &mut State, facts: &mut Vec<Fact>) -> Result {
    let Step::Figure { placed, .. } = s.step else {
        return fail(format!("{} ends the turn before placing a tile", s.name(s.active)));
    };
    let n = s.players.len();
    // Completed cities and roads of this tile.
    let first = s.placed[placed].first_node;
    for f in 0..s.tile_type(placed).features.len() {
        let root = s.find(first + f);
        let g = s.groups[root].clone().expect("root");
        if g.done || g.open != 0 || !matches!(g.kind, GroupKind::City | GroupKind::Road) {
            continue;
        }
        let (points, reason) = match g.kind {
            GroupKind::City => (completed_city_points(s, &g), "city"),
            _ => (g.tiles.len() as i32, "road"),
        };
        for p in majority(&g, n) {
            score(s, p, reason, points, facts);
        }
        if g.kind == GroupKind::City && s.options.goods {
            // Goods go to the player who completed the city, knight or not.
            let p = s.active;
            for (i, &k) in g.goods.iter().enumerate() {
                if k > 0 {
                    s.players[p as usize].goods[i] += k;
                    facts.push(Fact::Gained { player: p, item: GOODS[i], count: k, cause: COMPLETION, from: None });
                }
            }
        }
        return_figures(s, root, Some(facts));
        s.groups[root].as_mut().expect("root").done = true;
    }
    // Monasteries on or around this tile, once surrounded.
    let at = s.placed[placed].at;
    let mut spots = vec![at];
    spots.extend(AROUND.iter().map(|(dx, dy)| (at.0 + dx, at.1 + dy)));
    for spot in spots {
        let Some(&q) = s.grid.get(&spot) else { continue };
        let qfirst = s.placed[q].first_node;
        for (f, feature) in s.tile_type(q).features.iter().enumerate() {
            if feature.kind != FeatureKind::Monastery {
                continue;
            }
            let root = s.find(qfirst + f);
            let g = s.groups[root].clone().expect("root");
            let around = AROUND.iter().filter(|(dx, dy)| s.grid.contains_key(&(spot.0 + dx, spot.1 + dy))).count();
            if g.done || around < 8 {
                continue;
            }
            for p in majority(&g, n) {
                score(s, p, "monastery", 9, facts);
            }
            return_figures(s, root, Some(facts));
            s.groups[root].as_mut().expect("root").done = true;
        }
    }
    if s.bonus_due && !s.second_part {
        // The builder's extra turn part: the same player draws again (never a third).
        s.second_part = true;
    } else {
        s.second_part = false;
        s.active = (s.active + 1) % n as Seat;
        s.turn += 1;
        facts.push(Fact::TurnStarted { turn: s.turn, player: s.active });
    }
    s.bonus_due = false;
    s.step = Step::Tile;
    Ok(())
}

fn end_game(s: &mut State, facts: &mut Vec<Fact>) -> Result {
    if s.step != Step::Tile {
        return fail("the game ends between turns, not in the middle of one");
    }
    let n = s.players.len();
    let roots: Vec<usize> = (0..s.parent.len()).filter(|&i| s.parent[i] == i).collect();
    for &root in &roots {
        let g = s.groups[root].clone().expect("root");
        if g.done {
            continue;
        }
        let owners = majority(&g, n);
        let (points, reason) = match g.kind {
            GroupKind::City => (g.tiles.len() as i32 + g.pennants as i32, "city"),
            GroupKind::Road => (g.tiles.len() as i32, "road"),
            GroupKind::Monastery => {
                let at = s.placed[g.tiles[0]].at;
                let around = AROUND.iter().filter(|(dx, dy)| s.grid.contains_key(&(at.0 + dx, at.1 + dy))).count();
                (1 + around as i32, "monastery")
            }
            GroupKind::Field => {
                let mut cities: Vec<usize> = g.cities.iter().map(|&c| s.find(c)).collect();
                cities.sort();
                cities.dedup();
                let completed =
                    cities.iter().filter(|&&c| s.groups[c].as_ref().is_some_and(|cg| cg.open == 0)).count() as i32;
                for &p in &owners {
                    let pig = g.figures.iter().any(|f| f.kind == FigureKind::Pig && f.player == p);
                    let per_city = if pig { 4 } else { 3 };
                    score(s, p, "field", per_city * completed, facts);
                }
                return_figures(s, root, None);
                continue;
            }
        };
        for p in owners {
            score(s, p, reason, points, facts);
        }
        return_figures(s, root, None);
    }
    // Pigs go home too.
    let pigs = s.options.pig.0;
    for p in s.players.iter_mut() {
        p.pigs_home = pigs;
    }
    if s.options.goods {
        for good in 0..3 {
            let most = s.players.iter().map(|p| p.goods[good]).max().unwrap_or(0);
            if most == 0 {
                continue;
            }
            for p in 0..n {
                if s.players[p].goods[good] == most {
                    score(s, p as Seat, "goods", 10, facts);
                }
            }
        }
    }
    s.step = Step::Over;
    let best = s.players.iter().map(|p| p.score).max().unwrap_or(0);
    let top: Vec<usize> = (0..n).filter(|&i| s.players[i].score == best).collect();
    facts.push(Fact::GameOver { winner: (top.len() == 1).then(|| top[0] as Seat) });
    Ok(())
}

/// The winner is the best score once the game is over.
impl almanac_core::Played for State {
    fn standing(&self) -> almanac_core::Standing {
        almanac_core::Standing { turn: self.turn, active: self.active, winner: crate::view::winner(self) }
    }
}
