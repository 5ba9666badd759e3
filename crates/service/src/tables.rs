//! A game begun at a table: the recorder's start page says the game, how it begins (a board from the
//! rulebook or from a seed), the players in seat order, and the title, date and place; this writes the
//! header its log begins with. The game's own part (board, options) is the game's to say
//! (`GameKind::begin`).

use crate::ServiceError;
use almanac_core::next::{Begin, Beginning, Laid};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// What the start page asks.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableStart {
    pub ruleset: String,
    pub beginning: String,
    /// For a seeded beginning: the same seed, the same board.
    #[serde(default)]
    pub seed: u64,
    /// In seat order, the first player first.
    pub players: Vec<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub date: Option<String>,
    #[serde(default)]
    pub location: Option<String>,
    /// For a beginning on the table's own board: what lies where.
    #[serde(default)]
    pub laid: Laid,
}

/// A game a table can record, and how it may begin.
#[derive(Debug, Clone, Serialize)]
pub struct Recordable {
    pub ruleset: &'static str,
    pub name: &'static str,
    pub beginnings: Vec<Beginning>,
}

/// Every game of the registry that a table can record and begin.
pub fn recordable() -> Vec<Recordable> {
    almanac_engine::GAMES
        .iter()
        .filter(|g| g.recorder() && !g.beginnings().is_empty())
        .map(|g| Recordable { ruleset: g.id(), name: g.name(), beginnings: g.beginnings() })
        .collect()
}

/// The log a table's game begins with, at the moment `now` (milliseconds since 1970): its header line,
/// then the entries the beginning places before play (see `almanac_core::next::Opening`), each made `now`.
/// What is wrong with the start, in words.
pub fn log_of(start: &TableStart, now: i64) -> Result<String, ServiceError> {
    // A game begun at a table is a new game, however alike its header is to another's: its own `table` id.
    let (mut log, opening) = begun(start, &crate::random_hex(16)?)?;
    for line in opening.lines {
        let mut entry: Map<String, Value> =
            serde_json::from_str(&line).expect("a game's opening lines are JSON objects");
        entry.insert("time".into(), json!(almanac_core::moment::write(now)));
        log.push('\n');
        log.push_str(&serde_json::to_string(&entry).expect("JSON"));
    }
    Ok(log)
}

/// The header line of `log_of`, with the table id given.
pub fn header_with_table(start: &TableStart, table: &str) -> Result<String, ServiceError> {
    Ok(begun(start, table)?.0)
}

/// The header line of a start with the table id given, and what its beginning places before play.
fn begun(start: &TableStart, table: &str) -> Result<(String, almanac_core::next::Opening), ServiceError> {
    let bad = |why: String| Err(ServiceError::Start(why));
    let Some(kind) = almanac_engine::GAMES.iter().find(|g| g.id() == start.ruleset && g.recorder()) else {
        let known: Vec<&str> = recordable().iter().map(|r| r.ruleset).collect();
        return bad(format!("`{}` cannot be recorded at a table (one of {})", start.ruleset, known.join(", ")));
    };
    let names: Vec<&str> = start.players.iter().map(|p| p.trim()).collect();
    if let Some(seat) = names.iter().position(|n| n.is_empty()) {
        return bad(format!("seat {} has no player's name", seat + 1));
    }
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            return bad(format!("{n} sits at two seats"));
        }
    }
    let part = kind
        .begin(&Begin { beginning: &start.beginning, seats: names.len(), seed: start.seed, laid: &start.laid })
        .map_err(|e| ServiceError::Start(e.0))?;
    let mut header = Map::new();
    header.insert("format".into(), json!("almanac/1"));
    header.insert("ruleset".into(), json!(kind.id()));
    let text = |v: &Option<String>| v.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(|t| json!(t));
    for (field, value) in [("title", &start.title), ("date", &start.date), ("location", &start.location)] {
        if let Some(v) = text(value) {
            header.insert(field.into(), v);
        }
    }
    let opening = kind.opening(&start.beginning, &names);
    let player = |(seat, name): (usize, &&str)| match opening.colors.get(seat) {
        Some(color) => json!({ "name": name, "color": color }),
        None => json!({ "name": name }),
    };
    header.insert("players".into(), Value::Array(names.iter().enumerate().map(player).collect()));
    header.insert("table".into(), json!(table));
    header.extend(part);
    Ok((serde_json::to_string(&Value::Object(header)).expect("a header is JSON"), opening))
}
