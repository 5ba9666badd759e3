//! `catanatron-dump/1` files (written by catanatron_dump.py over catanatron 3.2.1) → almanac/1 `catan`.
//!
//! Players are named by the program that played them where the dump names it (`AlphaBetaPlayer`): catanatron
//! draws the colours anew each game, so a colour is no player, the program is. A program at several seats of
//! one table is numbered after its first (`RandomPlayer #2`); a seat whose program the dump does not name
//! keeps its colour (`BLUE`). catanatron's departures from the rulebook
//! are ruleset options in the header (`bank_shortage: nobody_paid`, `new_cards_wait_a_turn: false`,
//! `longest_road` and `discard_rule: catanatron_3_2_1`, `win_on_any_turn`). What catanatron records that the
//! rules derive (production of a roll, what a monopoly took) is written into the events, so the engine
//! cross-checks it.
//!
//! The dump is read into typed, borrowed structs (its large `raw`, `initial`, `final` and `summary` parts are
//! skipped unparsed). Each event becomes the fields of an almanac/1 line once (`Raw`), which are both written
//! as the line and, when the record is read into its game (`read`), made into the event the rules apply: the
//! translated text is never read back.

use crate::board::{Board, BoardSpec, EdgeId, HexSpec};
use crate::event::{LoggedEvent, NamedBundles, Raw, Text};
use crate::resources::{Bundle, Resource};
use almanac_core::log::{Envelope, LogError, Problem};
use almanac_core::{FormatError, Imported, Importer, ReadError, Timeline};
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::json;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

/// The catanatron importer (`--format catanatron`).
pub const CATANATRON: Importer = Importer {
    name: "catanatron",
    label: "catanatron dump",
    recognises: |head| head.contains("\"catanatron-dump/1\""),
    to_almanac,
    seen: None,
    read: Some(read),
};

#[derive(Deserialize)]
struct Dump<'a> {
    schema: &'a str,
    #[serde(borrow)]
    game: Game<'a>,
    board: DumpBoard,
    #[serde(borrow, deserialize_with = "events")]
    events: Vec<DumpEvent<'a>>,
}

/// The events, in a list with room for a long game from the start: grown step by step, the list was copied
/// over and over.
fn events<'de: 'a, 'a, D: Deserializer<'de>>(d: D) -> Result<Vec<DumpEvent<'a>>, D::Error> {
    struct Events<'a>(std::marker::PhantomData<&'a ()>);
    impl<'de: 'a, 'a> Visitor<'de> for Events<'a> {
        type Value = Vec<DumpEvent<'a>>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a list of events")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            // A game of catanatron's bots is rarely over 2,000 events.
            let mut events = Vec::with_capacity(seq.size_hint().unwrap_or(2048));
            while let Some(event) = seq.next_element()? {
                events.push(event);
            }
            Ok(events)
        }
    }
    d.deserialize_seq(Events(std::marker::PhantomData))
}

#[derive(Deserialize)]
struct Game<'a> {
    id: &'a str,
    #[serde(default)]
    map: Option<&'a str>,
    vps_to_win: u8,
    #[serde(default = "seven")]
    discard_limit: u8,
    #[serde(borrow)]
    seating: Vec<&'a str>,
    /// Each colour's bot, where the dump names it.
    #[serde(default, borrow)]
    players: Vec<Seat<'a>>,
}

#[derive(Deserialize)]
struct Seat<'a> {
    color: &'a str,
    #[serde(default)]
    bot: Option<&'a str>,
}

fn seven() -> u8 {
    7
}

#[derive(Deserialize)]
struct DumpBoard {
    tiles: Vec<Tile>,
    ports: Vec<Port>,
    robber_start: [i32; 3],
}

#[derive(Deserialize)]
struct Tile {
    coordinate: [i32; 3],
    resource: Option<String>,
    number: Option<u8>,
    nodes: HashMap<String, u32>,
}

#[derive(Deserialize)]
struct Port {
    resource: Option<String>,
    ratio: String,
    nodes: [u32; 2],
}

#[derive(Deserialize)]
struct DumpEvent<'a> {
    seq: u64,
    turn: u64,
    color: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    /// The decision.
    #[serde(default, borrow)]
    value: Option<Decision<'a>>,
    /// The chance outcome.
    #[serde(default, borrow)]
    result: Option<Outcome<'a>>,
    /// How each player's hand changed: `{colour: {resource: n}}`; read only where it is needed (a roll's
    /// production, a monopoly's takings).
    #[serde(default, borrow)]
    resource_deltas: Option<&'a RawValue>,
}

/// Every field a decision may carry.
#[derive(Deserialize)]
struct Decision<'a> {
    node: Option<u32>,
    edge: Option<[u32; 2]>,
    tile: Option<[i32; 3]>,
    victim: Option<&'a str>,
    #[serde(borrow)]
    give: Option<Vec<Option<&'a str>>>,
    #[serde(borrow)]
    get: Option<Vec<Option<&'a str>>>,
    #[serde(borrow)]
    resources: Option<Vec<Option<&'a str>>>,
    resource: Option<&'a str>,
}

/// Every field an outcome may carry.
#[derive(Deserialize)]
struct Outcome<'a> {
    dice: Option<[u8; 2]>,
    stolen: Option<&'a str>,
    card: Option<&'a str>,
    #[serde(borrow)]
    discarded: Option<Vec<Option<&'a str>>>,
}

/// A JSON object read as its pairs in file order, without a map.
struct Pairs<K, V>(Vec<(K, V)>);

impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for Pairs<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct PairsVisitor<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for PairsVisitor<K, V> {
            type Value = Pairs<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Pairs<K, V>, A::Error> {
                let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(4));
                while let Some(entry) = map.next_entry()? {
                    pairs.push(entry);
                }
                Ok(Pairs(pairs))
            }
        }
        d.deserialize_map(PairsVisitor(std::marker::PhantomData))
    }
}

const CORNERS: [(&str, usize); 6] =
    [("NORTH", 0), ("NORTHEAST", 1), ("SOUTHEAST", 2), ("SOUTH", 3), ("SOUTHWEST", 4), ("NORTHWEST", 5)];

fn terrain(resource: Option<&str>) -> Result<&'static str, String> {
    Ok(match resource {
        None => "desert",
        Some("WOOD") => "forest",
        Some("BRICK") => "hills",
        Some("SHEEP") => "pasture",
        Some("WHEAT") => "fields",
        Some("ORE") => "mountains",
        Some(other) => return Err(format!("unknown catanatron resource `{other}`")),
    })
}

fn resource(name: &str) -> Result<&'static str, String> {
    Ok(match name {
        "WOOD" => "lumber",
        "BRICK" => "brick",
        "SHEEP" => "wool",
        "WHEAT" => "grain",
        "ORE" => "ore",
        other => return Err(format!("unknown catanatron resource `{other}`")),
    })
}

fn dev_card(name: &str) -> Result<&'static str, String> {
    Ok(match name {
        "KNIGHT" => "knight",
        "YEAR_OF_PLENTY" => "year_of_plenty",
        "MONOPOLY" => "monopoly",
        "ROAD_BUILDING" => "road_building",
        "VICTORY_POINT" => "victory_point",
        other => return Err(format!("unknown catanatron development card `{other}`")),
    })
}

/// Where catanatron's node ids and tiles are on our board.
struct Places {
    board: Board,
    /// Our vertex of each catanatron node id (they count from 0).
    nodes: Vec<Option<u16>>,
    hex_at: HashMap<[i32; 3], usize>,
}

impl Places {
    fn node(&self, id: u32) -> Option<u16> {
        self.nodes.get(id as usize).copied().flatten()
    }

    fn vertex(&self, node: u32) -> Result<&str, String> {
        let v = self.node(node).ok_or_else(|| format!("node {node} is not on the board"))?;
        Ok(&self.board.vertices[v as usize].name)
    }

    fn edge_id(&self, [a, b]: [u32; 2]) -> Result<EdgeId, String> {
        let x = self.node(a).ok_or("edge end not on the board")?;
        let y = self.node(b).ok_or("edge end not on the board")?;
        self.board.edge_between(x, y).ok_or_else(|| format!("nodes [{a}, {b}] are not neighbours"))
    }

    fn edge(&self, ends: [u32; 2]) -> Result<&str, String> {
        Ok(&self.board.edges[self.edge_id(ends)? as usize].name)
    }

    fn hex(&self, c: [i32; 3]) -> Result<usize, String> {
        self.hex_at.get(&c).copied().ok_or_else(|| format!("no land tile at {c:?}"))
    }
}

/// A dump read, with what its events are translated by.
struct Translation<'a> {
    header_line: String,
    places: Places,
    names: Names<'a>,
    events: Vec<DumpEvent<'a>>,
}

fn translation(text: &str) -> Result<Translation<'_>, FormatError> {
    let dump: Dump = serde_json::from_str(text)
        .map_err(|e| FormatError { line: e.line(), reason: format!("catanatron dump: {e}") })?;
    if dump.schema != "catanatron-dump/1" {
        return Err(FormatError::whole(format!("schema `{}` is not catanatron-dump/1", dump.schema)));
    }
    let whole = |reason: String| FormatError::whole(reason);

    // The board, tile by tile in catanatron's order: axial (q, r) is cube (x, z).
    let mut hexes = Vec::new();
    let mut hex_specs = Vec::new();
    let mut hex_at = HashMap::new();
    for (i, t) in dump.board.tiles.iter().enumerate() {
        let terrain = terrain(t.resource.as_deref()).map_err(whole)?;
        let mut hex = json!({"at": [t.coordinate[0], t.coordinate[2]], "terrain": terrain});
        if let Some(n) = t.number {
            hex["number"] = json!(n);
        }
        hexes.push(hex);
        hex_specs.push(HexSpec {
            at: [t.coordinate[0], t.coordinate[2]],
            terrain: terrain.to_string(),
            number: t.number,
        });
        hex_at.insert(t.coordinate, i);
    }
    let robber =
        *hex_at.get(&dump.board.robber_start).ok_or_else(|| whole("robber_start is not a land tile".to_string()))?;
    let spec = BoardSpec { hexes: hex_specs, harbours: Vec::new(), robber: Some(robber as u8) };
    let board = Board::from_spec(&spec).map_err(|e| whole(e.0))?;
    let mut nodes = Vec::new();
    for (i, t) in dump.board.tiles.iter().enumerate() {
        for (name, corner) in CORNERS {
            let id = *t.nodes.get(name).ok_or_else(|| whole(format!("tile {i} lacks node {name}")))?;
            if id as usize >= 20 * board.vertices.len() {
                return Err(whole(format!("tile {i}: node id {id} is out of all proportion to the board")));
            }
            if nodes.len() <= id as usize {
                nodes.resize(id as usize + 1, None);
            }
            nodes[id as usize] = Some(board.hexes[i].corners[corner]);
        }
    }
    let places = Places { board, nodes, hex_at };
    let mut harbours = Vec::new();
    for p in &dump.board.ports {
        let edge = places.edge(p.nodes).map_err(whole)?;
        match (p.ratio.as_str(), &p.resource) {
            ("3:1", _) => harbours.push(json!({"edge": edge, "ratio": 3})),
            (_, Some(r)) => harbours.push(json!({"edge": edge, "ratio": 2, "resource": resource(r).map_err(whole)?})),
            _ => return Err(whole(format!("port with ratio {} and no resource", p.ratio))),
        }
    }

    let names = Names::of_seats(&dump.game);
    let header = json!({
        "format": "almanac/1",
        "ruleset": "catan",
        // Titled by its table and map; the dump's id stays in `source`.
        "title": format!(
            "{}, on the {} map",
            almanac_core::table_title(&names.in_seat_order(), None),
            dump.game.map.unwrap_or("BASE").to_lowercase()
        ),
        "source": {"program": "catanatron", "id": dump.game.id},
        "options": {
            "vp_target": dump.game.vps_to_win,
            "discard_limit": dump.game.discard_limit,
            "bank_shortage": "nobody_paid",
            "new_cards_wait_a_turn": false,
            "longest_road": "catanatron_3_2_1",
            "win_on_any_turn": true,
            "discard_rule": if dump.game.discard_limit == 7 { "rulebook" } else { "catanatron_3_2_1" },
        },
        // Every seat of a catanatron game is one of its bots, named by its program (`Names`).
        "players": dump.game.seating.iter().map(|c| {
            let mut seat = json!({"name": names.of(c), "color": c.to_lowercase(), "bot": true});
            if let Some(bot) = dump.game.players.iter().find(|p| p.color == *c).and_then(|p| p.bot) {
                seat["program"] = json!(bot);
            }
            seat
        }).collect::<Vec<_>>(),
        "board": {"hexes": hexes, "robber": robber, "harbours": harbours},
    });
    Ok(Translation { header_line: header.to_string(), places, names, events: dump.events })
}

impl<'a> Translation<'a> {
    /// The text's start: the header line, and room for the events (a line is about 100 bytes, and rarely over
    /// 128).
    fn text_start(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.header_line.len() + 1 + 128 * self.events.len());
        out.extend_from_slice(self.header_line.as_bytes());
        out.push(b'\n');
        out
    }

    /// An event's line, or why the record's event cannot be one.
    fn line<'t>(&'t self, ev: &'t DumpEvent<'a>) -> Result<Raw<'t>, FormatError> {
        line_of(&self.places, &self.names, ev)
            .map_err(|reason| FormatError::whole(format!("catanatron event seq {} ({}): {reason}", ev.seq, ev.kind)))
    }
}

pub fn to_almanac(text: &str) -> Result<String, FormatError> {
    let t = translation(text)?;
    let mut out = t.text_start();
    for ev in &t.events {
        t.line(ev)?.write_line(&mut out);
    }
    Ok(String::from_utf8(out).expect("JSON is written as UTF-8"))
}

/// `to_almanac` with the game it holds: each event made once, written as its line and applied as it is.
pub fn read(text: &str) -> Result<Imported, ReadError> {
    let t = translation(text)?;
    let envelope = Envelope::parse(&t.header_line)?;
    let mut game = Timeline::<crate::Catan>::start(envelope, &t.header_line)?;
    game.reserve(t.events.len());
    let mut out = t.text_start();
    for (i, ev) in t.events.iter().enumerate() {
        // The header is line 1.
        let line_no = i + 2;
        let fields = t.line(ev)?;
        let start = out.len();
        fields.write_line(&mut out);
        let line = std::str::from_utf8(&out[start..out.len() - 1]).expect("JSON is written as UTF-8");
        let event = LoggedEvent::from_raw(game.last(), fields)
            .map_err(|reason| LogError::new(line_no, Problem::Event(reason)))?;
        game.push_written(line_no, line, event)?;
    }
    Ok(Imported { text: String::from_utf8(out).expect("JSON is written as UTF-8"), game: Box::new(game) })
}

/// A player's colour and how their hand changed, by resource.
type Delta<'a> = (&'a str, Pairs<&'a str, i32>);

/// How each player's hand changed in an event, by colour.
fn deltas<'a>(ev: &DumpEvent<'a>) -> Result<Vec<Delta<'a>>, String> {
    match ev.resource_deltas {
        None => Ok(Vec::new()),
        Some(raw) => {
            let pairs: Pairs<&str, Pairs<&str, i32>> =
                serde_json::from_str(raw.get()).map_err(|e| format!("resource_deltas: {e}"))?;
            Ok(pairs.0)
        }
    }
}

/// Catanatron's resource list as a bundle.
fn bundle(list: &[Option<&str>]) -> Result<Bundle, String> {
    let mut b = Bundle::default();
    for r in list.iter().flatten() {
        let r = Resource::parse(resource(r)?)?;
        b.known[r] = b.known[r].checked_add(1).ok_or("more than 255 cards of one resource")?;
    }
    Ok(b)
}

/// Each seat's name by its colour: its program where the dump names it, numbered after its first seat at a
/// table where it plays several (`RandomPlayer #2`, in seat order); its colour where the dump names none.
struct Names<'a> {
    by_colour: Vec<(&'a str, String)>,
}

impl<'a> Names<'a> {
    fn of_seats(game: &Game<'a>) -> Names<'a> {
        let mut by_colour: Vec<(&'a str, String)> = Vec::new();
        for &colour in &game.seating {
            let name = match game.players.iter().find(|p| p.color == colour).and_then(|p| p.bot) {
                Some(program) => {
                    let before = game
                        .seating
                        .iter()
                        .take_while(|&&c| c != colour)
                        .filter(|&&c| game.players.iter().any(|p| p.color == c && p.bot == Some(program)))
                        .count();
                    if before == 0 {
                        program.to_string()
                    } else {
                        format!("{program} #{}", before + 1)
                    }
                }
                None => colour.to_string(),
            };
            by_colour.push((colour, name));
        }
        Names { by_colour }
    }

    fn in_seat_order(&self) -> Vec<&str> {
        self.by_colour.iter().map(|(_, name)| name.as_str()).collect()
    }

    /// The name of the seat of `colour` (the colour itself for one not seated: the rules then say so).
    fn of<'s>(&'s self, colour: &'s str) -> &'s str {
        self.by_colour.iter().find(|(c, _)| *c == colour).map_or(colour, |(_, name)| name.as_str())
    }
}

/// One event as the fields of its almanac/1 line: `{"type":..,"player":..,<fields>,"src_turn":N}`.
fn line_of<'t>(places: &'t Places, names: &'t Names, ev: &'t DumpEvent) -> Result<Raw<'t>, String> {
    let value = ev.value.as_ref();
    let result = ev.result.as_ref();
    let need = |what: &str| format!("no {what}");
    let text = |s: &'t str| Some(Text(Cow::Borrowed(s)));
    let kind = match ev.kind {
        "BUILD_SETTLEMENT" => "build_settlement",
        "BUILD_CITY" => "build_city",
        "BUILD_ROAD" => "build_road",
        "ROLL" => "roll",
        "DISCARD" | "DISCARD_RESOURCE" => "discard",
        "MOVE_ROBBER" => "move_robber",
        "MARITIME_TRADE" => "maritime_trade",
        "BUY_DEVELOPMENT_CARD" => "buy_development",
        "PLAY_KNIGHT_CARD" => "play_knight",
        "PLAY_ROAD_BUILDING" => "play_road_building",
        "PLAY_YEAR_OF_PLENTY" => "play_year_of_plenty",
        "PLAY_MONOPOLY" => "play_monopoly",
        "END_TURN" => "end_turn",
        other => return Err(format!("action {other} is not supported")),
    };
    let mut line =
        Raw { kind: text(kind), player: text(names.of(ev.color)), src_turn: Some(ev.turn), ..Raw::default() };
    match kind {
        "build_settlement" | "build_city" => {
            let node = value.and_then(|v| v.node).ok_or_else(|| need("node"))?;
            line.at = text(places.vertex(node)?);
        }
        "build_road" => {
            let edge = value.and_then(|v| v.edge).ok_or_else(|| need("edge"))?;
            line.at = text(places.edge(edge)?);
        }
        "roll" => {
            line.dice = Some(result.and_then(|r| r.dice).ok_or_else(|| need("dice"))?);
            let mut deltas = deltas(ev)?;
            deltas.sort_by_key(|(colour, _)| *colour);
            let mut production = NamedBundles::default();
            if deltas.len() > production.names.len() {
                return Err(format!("production for {} players", deltas.len()));
            }
            for (i, (colour, gains)) in deltas.iter().enumerate() {
                production.names[i] = text(names.of(colour));
                for (r, n) in &gains.0 {
                    let r = Resource::parse(resource(r)?)?;
                    let n = u8::try_from(*n).map_err(|_| format!("{colour} produces {n} cards of one resource"))?;
                    production.bundles[i].known[r] = production.bundles[i].known[r].saturating_add(n);
                }
            }
            line.production = Some(production);
        }
        "discard" => {
            let discarded = result.and_then(|r| r.discarded.as_deref()).ok_or_else(|| need("discarded cards"))?;
            line.cards = Some(bundle(discarded)?);
        }
        "move_robber" => {
            let tile = value.and_then(|v| v.tile).ok_or_else(|| need("tile"))?;
            line.hex = Some(u8::try_from(places.hex(tile)?).map_err(|_| "a tile beyond the 255th")?);
            if let Some(victim) = value.and_then(|v| v.victim) {
                line.victim = text(names.of(victim));
                if let Some(card) = result.and_then(|r| r.stolen) {
                    line.stolen = text(resource(card)?);
                }
            }
        }
        "maritime_trade" => {
            line.give = Some(bundle(value.and_then(|v| v.give.as_deref()).ok_or_else(|| need("give"))?)?);
            line.get = Some(bundle(value.and_then(|v| v.get.as_deref()).ok_or_else(|| need("get"))?)?);
        }
        "buy_development" => {
            let card = result.and_then(|r| r.card).ok_or("no card in result")?;
            line.card = text(dev_card(card)?);
        }
        "play_year_of_plenty" => {
            line.take = Some(bundle(value.and_then(|v| v.resources.as_deref()).ok_or_else(|| need("resources"))?)?);
        }
        "play_monopoly" => {
            let r = value.and_then(|v| v.resource).ok_or("no resource")?;
            line.resource = text(resource(r)?);
            let mut taken = std::collections::BTreeMap::new();
            for (colour, changes) in deltas(ev)?.iter().filter(|(colour, _)| *colour != ev.color) {
                let lost = -changes.0.iter().map(|(_, n)| n).sum::<i32>();
                let lost = u8::try_from(lost).map_err(|_| format!("{colour} loses {lost} cards to a monopoly"))?;
                taken.insert(Cow::Borrowed(names.of(colour)), lost);
            }
            line.taken = Some(taken);
        }
        _ => {}
    }
    Ok(line)
}
