//! `catanatron-dump/1` → almanac/1 `catan`.
//!
//! Players are named by their catanatron colour (`BLUE`, ...). catanatron pays nothing of a resource the
//! bank cannot pay in full, which is the ruleset option `bank_shortage: nobody_paid`. What catanatron
//! records that the rules derive (production of a roll, what a monopoly took) is written into the events,
//! so the engine cross-checks it.

use crate::FormatError;
use almanac_catan::{Board, BoardSpec};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};

#[derive(Deserialize)]
struct Dump {
    schema: String,
    game: Game,
    board: DumpBoard,
    events: Vec<DumpEvent>,
}

#[derive(Deserialize)]
struct Game {
    id: String,
    #[serde(default)]
    map: Option<String>,
    vps_to_win: u8,
    #[serde(default = "seven")]
    discard_limit: u8,
    seating: Vec<String>,
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
struct DumpEvent {
    seq: u64,
    turn: u64,
    color: String,
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    value: Value,
    #[serde(default)]
    result: Value,
    #[serde(default)]
    resource_deltas: Option<BTreeMap<String, BTreeMap<String, i32>>>,
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

/// A list of catanatron resource names as a bundle (`{"ore": 2}`).
fn bundle(list: &Value) -> Result<Value, String> {
    let mut m: BTreeMap<&str, u32> = BTreeMap::new();
    for r in list.as_array().ok_or("expected a list of resources")? {
        if r.is_null() {
            continue;
        }
        *m.entry(resource(r.as_str().ok_or("expected a resource name")?)?).or_default() += 1;
    }
    Ok(json!(m))
}

/// Where catanatron's node ids are on our board.
struct Places {
    board: Board,
    nodes: HashMap<u32, u16>,
    hex_at: HashMap<[i32; 3], usize>,
}

impl Places {
    fn vertex(&self, node: &Value) -> Result<String, String> {
        let id = node.as_u64().ok_or("expected a node id")? as u32;
        let v = self.nodes.get(&id).ok_or_else(|| format!("node {id} is not on the board"))?;
        Ok(self.board.vertices[*v as usize].name.clone())
    }

    fn edge(&self, pair: &Value) -> Result<String, String> {
        let ends = pair.as_array().filter(|a| a.len() == 2).ok_or("expected an edge [a, b]")?;
        let a = *self.nodes.get(&(ends[0].as_u64().unwrap_or(u64::MAX) as u32)).ok_or("edge end not on the board")?;
        let b = *self.nodes.get(&(ends[1].as_u64().unwrap_or(u64::MAX) as u32)).ok_or("edge end not on the board")?;
        let e = self.board.edge_between(a, b).ok_or_else(|| format!("nodes {pair} are not neighbours"))?;
        Ok(self.board.edges[e as usize].name.clone())
    }

    fn hex(&self, coordinate: &Value) -> Result<usize, String> {
        let c: [i32; 3] =
            serde_json::from_value(coordinate.clone()).map_err(|_| "expected a tile coordinate [x, y, z]")?;
        self.hex_at.get(&c).copied().ok_or_else(|| format!("no land tile at {c:?}"))
    }
}

pub fn to_almanac(text: &str) -> Result<String, FormatError> {
    let whole = |reason: String| FormatError { line: 1, reason };
    let dump: Dump = serde_json::from_str(text)
        .map_err(|e| FormatError { line: e.line(), reason: format!("catanatron dump: {e}") })?;
    if dump.schema != "catanatron-dump/1" {
        return Err(whole(format!("schema `{}` is not catanatron-dump/1", dump.schema)));
    }

    // The board, tile by tile in catanatron's order: axial (q, r) is cube (x, z).
    let mut hexes = Vec::new();
    let mut hex_at = HashMap::new();
    for (i, t) in dump.board.tiles.iter().enumerate() {
        let terrain = terrain(t.resource.as_deref()).map_err(whole)?;
        let mut hex = json!({"at": [t.coordinate[0], t.coordinate[2]], "terrain": terrain});
        if let Some(n) = t.number {
            hex["number"] = json!(n);
        }
        hexes.push(hex);
        hex_at.insert(t.coordinate, i);
    }
    let robber =
        *hex_at.get(&dump.board.robber_start).ok_or_else(|| whole("robber_start is not a land tile".into()))?;
    let spec_without_harbours = json!({"hexes": hexes, "robber": robber});
    let spec: BoardSpec = serde_json::from_value(spec_without_harbours.clone()).map_err(|e| whole(e.to_string()))?;
    let board = Board::from_spec(&spec).map_err(|e| whole(e.0))?;
    let mut nodes = HashMap::new();
    for (i, t) in dump.board.tiles.iter().enumerate() {
        for (name, corner) in CORNERS {
            let id = *t.nodes.get(name).ok_or_else(|| whole(format!("tile {i} lacks node {name}")))?;
            nodes.insert(id, board.hexes[i].corners[corner]);
        }
    }
    let places = Places { board, nodes, hex_at };
    let mut harbours = Vec::new();
    for p in &dump.board.ports {
        let edge = places.edge(&json!(p.nodes)).map_err(whole)?;
        match (p.ratio.as_str(), &p.resource) {
            ("3:1", _) => harbours.push(json!({"edge": edge, "ratio": 3})),
            (_, Some(r)) => harbours.push(json!({"edge": edge, "ratio": 2, "resource": resource(r).map_err(whole)?})),
            _ => return Err(whole(format!("port with ratio {} and no resource", p.ratio))),
        }
    }
    let mut board_json = spec_without_harbours;
    board_json["harbours"] = json!(harbours);

    let header = json!({
        "format": "almanac/1",
        "ruleset": "catan",
        "title": format!("{} ({} map)", dump.game.id, dump.game.map.as_deref().unwrap_or("BASE")),
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
        "players": dump.game.seating.iter().map(|c| json!({"name": c, "color": c.to_lowercase()})).collect::<Vec<_>>(),
        "board": board_json,
    });
    let mut out = header.to_string();
    out.push('\n');
    for ev in &dump.events {
        let line = event(&places, ev).map_err(|reason| FormatError {
            line: 1,
            reason: format!("catanatron event seq {} ({}): {reason}", ev.seq, ev.kind),
        })?;
        out.push_str(&line.to_string());
        out.push('\n');
    }
    Ok(out)
}

fn event(places: &Places, ev: &DumpEvent) -> Result<Value, String> {
    let mut m = Map::new();
    let kind = match ev.kind.as_str() {
        "BUILD_SETTLEMENT" => {
            m.insert("at".into(), json!(places.vertex(&ev.value["node"])?));
            "build_settlement"
        }
        "BUILD_CITY" => {
            m.insert("at".into(), json!(places.vertex(&ev.value["node"])?));
            "build_city"
        }
        "BUILD_ROAD" => {
            m.insert("at".into(), json!(places.edge(&ev.value["edge"])?));
            "build_road"
        }
        "ROLL" => {
            m.insert("dice".into(), ev.result["dice"].clone());
            let mut production = Map::new();
            for (colour, deltas) in ev.resource_deltas.iter().flatten() {
                let mut b = Map::new();
                for (r, n) in deltas {
                    b.insert(resource(r)?.into(), json!(n));
                }
                production.insert(colour.clone(), Value::Object(b));
            }
            m.insert("production".into(), Value::Object(production));
            "roll"
        }
        "DISCARD" | "DISCARD_RESOURCE" => {
            m.insert("cards".into(), bundle(&ev.result["discarded"])?);
            "discard"
        }
        "MOVE_ROBBER" => {
            m.insert("hex".into(), json!(places.hex(&ev.value["tile"])?));
            if let Some(v) = ev.value["victim"].as_str() {
                m.insert("victim".into(), json!(v));
                if let Some(card) = ev.result["stolen"].as_str() {
                    m.insert("stolen".into(), json!(resource(card)?));
                }
            }
            "move_robber"
        }
        "MARITIME_TRADE" => {
            m.insert("give".into(), bundle(&ev.value["give"])?);
            m.insert("get".into(), bundle(&ev.value["get"])?);
            "maritime_trade"
        }
        "BUY_DEVELOPMENT_CARD" => {
            m.insert("card".into(), json!(dev_card(ev.result["card"].as_str().ok_or("no card in result")?)?));
            "buy_development"
        }
        "PLAY_KNIGHT_CARD" => "play_knight",
        "PLAY_ROAD_BUILDING" => "play_road_building",
        "PLAY_YEAR_OF_PLENTY" => {
            m.insert("take".into(), bundle(&ev.value["resources"])?);
            "play_year_of_plenty"
        }
        "PLAY_MONOPOLY" => {
            m.insert("resource".into(), json!(resource(ev.value["resource"].as_str().ok_or("no resource")?)?));
            let mut taken = Map::new();
            for (colour, deltas) in ev.resource_deltas.iter().flatten() {
                if *colour != ev.color {
                    let n: i32 = deltas.values().sum();
                    taken.insert(colour.clone(), json!(-n));
                }
            }
            m.insert("taken".into(), Value::Object(taken));
            "play_monopoly"
        }
        "END_TURN" => "end_turn",
        other => return Err(format!("action {other} is not supported")),
    };
    let mut line = Map::new();
    line.insert("type".into(), json!(kind));
    line.insert("player".into(), json!(ev.color));
    line.extend(m);
    line.insert("src_turn".into(), json!(ev.turn));
    Ok(Value::Object(line))
}
